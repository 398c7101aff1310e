package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
)

// DecodeStrict decodes one JSON value from data into v (a pointer), as
// strictly as the protocol reads what clients send (their frames and the
// HTTP API's bodies). encoding/json bends several things that it refuses:
//
//   - a key must be spelled exactly as the field's name: encoding/json
//     matches "Name" or "NAME" to "name";
//   - a key appears at most once in an object: encoding/json keeps the last
//     of "name":"a","name":"b" (for maps too);
//   - the text must be valid UTF-8 and every escape a character:
//     encoding/json turns invalid bytes and a lone surrogate (\ud800) into
//     U+FFFD without a word;
//   - a key that is no field of v's type, and anything after the value.
//
// v may be filled in part when an error is returned (a client frame's id,
// for the answer).
func DecodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the value")
	}
	if !utf8.Valid(data) {
		return errors.New("invalid UTF-8")
	}
	if hasLoneSurrogate(data) {
		return errors.New("an escape that is no character (a lone surrogate)")
	}
	t := reflect.TypeOf(v)
	if t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	keys := json.NewDecoder(bytes.NewReader(data))
	return checkKeys(keys, t)
}

// checkKeys walks one value from dec (already known to be valid JSON)
// alongside the Go type it decodes into (nil: any), refusing a key that is
// not exactly a field's name and a key given twice in one object.
func checkKeys(dec *json.Decoder, t reflect.Type) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && (t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(unmarshalerType)) {
		t = nil // its keys are its own: only duplicates are refused
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		var fields map[string]reflect.Type
		if t != nil && t.Kind() == reflect.Struct {
			fields = structKeys(t)
		}
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := tok.(string)
			if seen[key] {
				return fmt.Errorf("the key %q is given twice", key)
			}
			seen[key] = true
			var elem reflect.Type
			switch {
			case fields != nil:
				f, ok := fields[key]
				if !ok {
					return fmt.Errorf("unknown key %q (keys are case-sensitive)", key)
				}
				elem = f
			case t != nil && t.Kind() == reflect.Map:
				elem = t.Elem()
			}
			if err := checkKeys(dec, elem); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for dec.More() {
			if err := checkKeys(dec, elem); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	}
	return nil
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// structFields caches structKeys by type.
var structFields sync.Map // reflect.Type → map[string]reflect.Type

// structKeys returns a struct's JSON keys (as its tags spell them, or the
// field's Go name without one) and the type behind each, embedded structs'
// fields included.
func structKeys(t reflect.Type) map[string]reflect.Type {
	if m, ok := structFields.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	addStructKeys(m, t)
	structFields.Store(t, m)
	return m
}

func addStructKeys(m map[string]reflect.Type, t reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			addStructKeys(m, ft)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := m[name]; !dup {
			m[name] = f.Type
		}
	}
}

// hasLoneSurrogate reports whether valid JSON text has a \u escape of half
// a UTF-16 surrogate pair without its other half. (Backslashes appear only
// in strings, so the text need not be parsed.)
func hasLoneSurrogate(data []byte) bool {
	for i := 0; i < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		i++ // the escaped character
		if i >= len(data) || data[i] != 'u' {
			continue
		}
		r, ok := hex4(data[i+1:])
		if !ok {
			continue
		}
		i += 4
		switch {
		case r >= 0xDC00 && r < 0xE000:
			return true // a low half first
		case r >= 0xD800 && r < 0xDC00:
			if i+6 >= len(data) || data[i+1] != '\\' || data[i+2] != 'u' {
				return true
			}
			lo, ok := hex4(data[i+3:])
			if !ok || lo < 0xDC00 || lo >= 0xE000 {
				return true
			}
			i += 6
		}
	}
	return false
}

// hex4 reads four hex digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
