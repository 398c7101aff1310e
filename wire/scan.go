package wire

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// This file is a scanner of JSON text for readers that need a few fields
// of a frame and would rather not decode it whole: EachField walks an
// object's fields in place, checking that the text is well formed, and
// PlainString and PlainInt read the values it is sure of. It decides
// nothing a reader should take from encoding/json instead: a reader that
// meets anything else (escaped keys, escaped strings, "-0") leaves the frame
// to encoding/json. The load generator reads the server's frames with it;
// parsePlain (plain.go) shares its white space and bytes.

// PlainString is a JSON string's value when it has no escapes and is valid
// UTF-8 (encoding/json replaces invalid bytes).
func PlainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	s := raw[1 : len(raw)-1]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return "", false
	}
	return string(s), true
}

// PlainInt is a JSON number's value when it is an integer in int64's range
// (EachField has checked its form; "-0" is left to encoding/json).
func PlainInt(raw []byte) (int64, bool) {
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil && string(raw) != "-0"
}

// EachField calls f with each key (unescaped only) and raw value of the
// JSON object data, stopping at the first false. It returns false when
// data is not an object it can walk, or f said false.
func EachField(data []byte, f func(key, val []byte) bool) bool {
	w := scanner{b: data}
	w.space()
	if !w.byte('{') {
		return false
	}
	w.space()
	if w.byte('}') {
		return w.end()
	}
	for {
		key, ok := w.key()
		if !ok || bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		w.space()
		start := w.i
		if !w.value() {
			return false
		}
		if !f(key, data[start:w.i]) {
			return false
		}
		w.space()
		if w.byte('}') {
			return w.end()
		}
		if !w.byte(',') {
			return false
		}
	}
}

// scanner steps over JSON text without decoding it.
type scanner struct {
	b []byte
	i int
}

func (w *scanner) space() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

func (w *scanner) byte(c byte) bool {
	if w.i < len(w.b) && w.b[w.i] == c {
		w.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (w *scanner) end() bool {
	w.space()
	return w.i == len(w.b)
}

// str steps over a string, checking its escapes.
func (w *scanner) str() bool {
	if !w.byte('"') {
		return false
	}
	for w.i < len(w.b) {
		switch c := w.b[w.i]; {
		case c == '"':
			w.i++
			return true
		case c == '\\':
			if w.i+1 >= len(w.b) {
				return false
			}
			switch w.b[w.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				w.i += 2
			case 'u':
				if w.i+6 > len(w.b) {
					return false
				}
				for _, h := range w.b[w.i+2 : w.i+6] {
					if !isHex(h) {
						return false
					}
				}
				w.i += 6
			default:
				return false
			}
		case c < 0x20:
			return false
		default:
			w.i++
		}
	}
	return false
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// maxDepth is how deeply nested a value the scanner steps over.
const maxDepth = 64

// value steps over one value of any kind, checking it is well formed:
// objects and arrays by a stack of their brackets in a word, without
// recursion.
func (w *scanner) value() bool {
	var kinds uint64 // bit d: the container at depth d is an object
	depth := 0
	for {
		w.space()
		if w.i >= len(w.b) {
			return false
		}
		// A value.
		switch c := w.b[w.i]; c {
		case '"':
			if !w.str() {
				return false
			}
		case '{', '[':
			if depth == maxDepth {
				return false
			}
			w.i++
			if c == '{' {
				kinds |= 1 << depth
			} else {
				kinds &^= 1 << depth
			}
			depth++
			w.space()
			if w.byte(closer(c == '{')) {
				depth--
				break
			}
			if c == '{' {
				if _, ok := w.key(); !ok {
					return false
				}
			}
			continue
		case 't':
			if !w.word("true") {
				return false
			}
		case 'f':
			if !w.word("false") {
				return false
			}
		case 'n':
			if !w.word("null") {
				return false
			}
		default:
			if !w.number() {
				return false
			}
		}
		// After a value: the next element, or the end of containers.
		for {
			if depth == 0 {
				return true
			}
			object := kinds&(1<<(depth-1)) != 0
			w.space()
			if w.byte(',') {
				if object {
					if _, ok := w.key(); !ok {
						return false
					}
				}
				break
			}
			if !w.byte(closer(object)) {
				return false
			}
			depth--
		}
	}
}

// closer is the byte that ends an object (or an array).
func closer(object bool) byte {
	if object {
		return '}'
	}
	return ']'
}

// key steps over an object's key and its colon, and returns the key as
// written (escapes not undone).
func (w *scanner) key() ([]byte, bool) {
	w.space()
	start := w.i
	if !w.str() {
		return nil, false
	}
	key := w.b[start+1 : w.i-1]
	w.space()
	return key, w.byte(':')
}

func (w *scanner) word(lit string) bool {
	if !bytes.HasPrefix(w.b[w.i:], []byte(lit)) {
		return false
	}
	w.i += len(lit)
	return true
}

// number steps over a JSON number: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?
func (w *scanner) number() bool {
	w.byte('-')
	switch {
	case w.byte('0'):
	case w.i < len(w.b) && '1' <= w.b[w.i] && w.b[w.i] <= '9':
		w.digits()
	default:
		return false
	}
	if w.byte('.') && !w.digits() {
		return false
	}
	if w.byte('e') || w.byte('E') {
		if !w.byte('+') {
			w.byte('-')
		}
		if !w.digits() {
			return false
		}
	}
	return true
}

// digits steps over one digit or more.
func (w *scanner) digits() bool {
	start := w.i
	for w.i < len(w.b) && '0' <= w.b[w.i] && w.b[w.i] <= '9' {
		w.i++
	}
	return w.i > start
}
