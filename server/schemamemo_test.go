package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// This file makes the frame check cheaper without checking less. A game's
// frames repeat most of what they carry: every seat's view holds the same
// seats, rules and statements, frame after frame, and every connection
// gets the same events. A schema of JSON Schema 2020-12 whose parts are
// joined only by "properties", "items" and "$ref" is a conjunction: a
// value fits it if and only if the value fits the schema with such a $ref
// left out, and the part the $ref points at fits its $defs entry. So each
// frame is held to a "light" copy of the schema, where the $refs to the
// entries that are only ever reached that way (memoDefs) are left out
// (the frame is parsed with their values as null, which the light schema
// takes there), and each value at such a $ref is held to its entry the
// same way, once per distinct text: a text that fitted once fits again.
// Entries reached through anything else (if, then, oneOf, allOf, not,
// additionalProperties, ...) keep their $refs and are held whole, as
// before. Every 64th frame, and every frame that does not fit, is also
// held to the whole schema, and the two must agree.

// annotations are the keywords beside a $ref that assert nothing.
var annotations = map[string]bool{"description": true, "title": true, "$comment": true, "examples": true, "default": true, "deprecated": true, "readOnly": true, "writeOnly": true}

// schemaMemo is the light schema and what it has seen.
type schemaMemo struct {
	defs  map[string]any                // the schema's $defs, as parsed
	split map[string]bool               // the entries whose $refs the light schema leaves out
	light map[string]*jsonschema.Schema // each $defs entry, compiled from the light schema

	paths sync.Map // pathKey → onlyPathOf's answer

	mu        sync.Mutex
	seen      map[string]map[string]error // entry → a value's text → its result
	seenLight map[string]error            // entry NUL a light text → its light schema's result
	bytes     int                         // the texts' total length (seen stops growing past memoMaxBytes)
	calls     int
}

const memoMaxBytes = 128 << 20

const defPrefix = "#/$defs/"

// newSchemaMemo builds the light schema from the schema's document, or
// returns nil when the schema uses what this file does not take apart
// (then every frame is held to the whole schema).
func newSchemaMemo(doc any) (*schemaMemo, error) {
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, nil
	}
	defs, ok := root["$defs"].(map[string]any)
	if !ok {
		return nil, nil
	}
	// Keywords that make a schema's result more than a conjunction of its
	// parts, or $refs this file does not resolve: no memo.
	bad := false
	var forbid func(v any)
	forbid = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				switch k {
				case "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "unevaluatedProperties", "unevaluatedItems", "$id", "$anchor":
					bad = true
				case "$ref":
					if s, ok := x.(string); !ok || !strings.HasPrefix(s, defPrefix) || strings.Contains(s[len(defPrefix):], "/") || defs[s[len(defPrefix):]] == nil {
						bad = true
					}
				}
				forbid(x)
			}
		case []any:
			for _, x := range v {
				forbid(x)
			}
		}
	}
	for k, x := range root {
		if k != "$id" { // the root's own name: its #/$defs/ references stay in it
			forbid(x)
		}
	}
	if bad {
		return nil, nil
	}
	refName := func(m map[string]any) (string, bool) {
		s, ok := m["$ref"].(string)
		if !ok {
			return "", false
		}
		return s[len(defPrefix):], true
	}

	// unsafe: the entries referred to anywhere but through properties and
	// items, or with a sibling that asserts; then every entry such an entry
	// refers to.
	unsafe := map[string]bool{}
	var anyRefs func(v any, into map[string]bool)
	anyRefs = func(v any, into map[string]bool) {
		switch v := v.(type) {
		case map[string]any:
			if n, ok := refName(v); ok {
				into[n] = true
			}
			for _, x := range v {
				anyRefs(x, into)
			}
		case []any:
			for _, x := range v {
				anyRefs(x, into)
			}
		}
	}
	var scan func(v any)
	scan = func(v any) {
		m, ok := v.(map[string]any)
		if !ok {
			if _, isBool := v.(bool); !isBool {
				anyRefs(v, unsafe)
			}
			return
		}
		if n, ok := refName(m); ok {
			for k := range m {
				if k != "$ref" && !annotations[k] && k != "properties" && k != "items" {
					unsafe[n] = true
				}
			}
			if m["properties"] != nil || m["items"] != nil {
				unsafe[n] = true // kept simple: a $ref stands alone or with annotations
			}
		}
		for k, x := range m {
			switch k {
			case "$ref":
			case "properties":
				ps, ok := x.(map[string]any)
				if !ok {
					anyRefs(x, unsafe)
					continue
				}
				for _, p := range ps {
					scan(p)
				}
			case "items":
				scan(x)
			default:
				if !annotations[k] {
					anyRefs(x, unsafe)
				}
			}
		}
	}
	// (the root's own keywords are not scanned: only $defs entries are
	// checked, and compiling one applies nothing of the root's)
	for _, d := range defs {
		scan(d)
	}
	for grew := true; grew; {
		grew = false
		for n := range unsafe {
			inner := map[string]bool{}
			anyRefs(defs[n], inner)
			for m := range inner {
				if !unsafe[m] {
					unsafe[m], grew = true, true
				}
			}
		}
	}
	split := map[string]bool{}
	for n := range defs {
		if !unsafe[n] {
			split[n] = true
		}
	}

	// The light schema: a copy without the $refs to split entries.
	var strip func(v any) any
	strip = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			c := make(map[string]any, len(v))
			for k, x := range v {
				c[k] = strip(x)
			}
			if n, ok := refName(v); ok && split[n] {
				delete(c, "$ref")
			}
			return c
		case []any:
			c := make([]any, len(v))
			for i, x := range v {
				c[i] = strip(x)
			}
			return c
		}
		return v
	}
	lightDoc := strip(doc).(map[string]any)
	delete(lightDoc, "$id")
	c := jsonschema.NewCompiler()
	if err := c.AddResource("light.schema.json", lightDoc); err != nil {
		return nil, err
	}
	light := map[string]*jsonschema.Schema{}
	for n := range defs {
		s, err := c.Compile("light.schema.json" + "#/$defs/" + n)
		if err != nil {
			return nil, fmt.Errorf("compile the light %s: %w", n, err)
		}
		light[n] = s
	}
	return &schemaMemo{defs: defs, split: split, light: light, seen: map[string]map[string]error{}, seenLight: map[string]error{}}, nil
}

// span is a split entry's value found in a text: def at text[from:to];
// null: the parser may read null in its place (no other keyword of the
// schema looks at that value).
type span struct {
	def      string
	from, to int
	null     bool
}

// splits finds, along schema s, the values of text (a JSON value at
// text[from:to]) that are held to split entries, in the text's order;
// null says whether every schema on the way there looks at the value only
// through the path taken.
func (sm *schemaMemo) splits(s any, text []byte, from, to int, null bool, out *[]span) error {
	m, ok := s.(map[string]any)
	if !ok {
		return nil
	}
	if ref, ok := m["$ref"].(string); ok {
		if n := ref[len(defPrefix):]; sm.split[n] {
			*out = append(*out, span{n, from, to, null})
			return nil
		}
		// an unsafe entry refers to no split one
	}
	if ps, ok := m["properties"].(map[string]any); ok {
		err := eachMember(text, from, to, func(key string, a, b int) error {
			if p, ok := ps[key]; ok {
				return sm.splits(p, text, a, b, null && sm.onlyPath(m, key), out)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if it, ok := m["items"]; ok {
		err := eachItem(text, from, to, func(a, b int) error {
			return sm.splits(it, text, a, b, null && sm.onlyPath(m, ""), out)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// onlyPath is onlyPathOf, kept for each schema and key once asked.
func (sm *schemaMemo) onlyPath(m map[string]any, key string) bool {
	k := pathKey{reflect.ValueOf(m).UnsafePointer(), key}
	if v, ok := sm.paths.Load(k); ok {
		return v.(bool)
	}
	v := onlyPathOf(m, key)
	sm.paths.Store(k, v)
	return v
}

type pathKey struct {
	schema unsafe.Pointer
	key    string
}

// onlyPathOf reports whether schema m looks at its member key's value (at
// its items' values, key "") only through m's own properties (items):
// none of its other keywords, nor those of the schemas it applies in
// place, could tell the value from null. Anything not known here is no.
func onlyPathOf(m map[string]any, key string) bool {
	for k, x := range m {
		switch k {
		case "$ref":
			return false
		case "properties", "items":
		default:
			if !keywordBlind(k, x, key) {
				return false
			}
		}
	}
	return true
}

// keywordBlind reports, for the keywords onlyPathOf and inPlaceBlind judge
// alike, whether keyword k (its value x) of a schema applied to an object
// (array) never tells member key's value (its items', key "") from null:
// the object's own shape, a boolean additionalProperties, an in-place
// applicator whose schemas are all blind to it, an annotation. Anything
// not known here is no.
func keywordBlind(k string, x any, key string) bool {
	switch k {
	case "type", "required", "minProperties", "maxProperties", "minItems", "maxItems", "propertyNames":
		return true
	case "additionalProperties":
		_, ok := x.(bool)
		return ok
	case "allOf", "anyOf", "oneOf", "if", "then", "else", "not":
		return appliedBlind(k, x, key)
	}
	return annotations[k]
}

// appliedBlind reports whether every schema that the in-place applicator
// k (allOf, anyOf, oneOf: a list; if, then, else, not: one) applies is
// inPlaceBlind to member key.
func appliedBlind(k string, x any, key string) bool {
	switch k {
	case "if", "then", "else", "not":
		return inPlaceBlind(x, key)
	}
	xs, ok := x.([]any)
	if !ok {
		return false
	}
	for _, y := range xs {
		if !inPlaceBlind(y, key) {
			return false
		}
	}
	return true
}

// inPlaceBlind reports whether schema s, applied to the object (array)
// itself, never looks at member key's value (at its items, key "").
func inPlaceBlind(s any, key string) bool {
	if _, ok := s.(bool); ok {
		return true
	}
	m, ok := s.(map[string]any)
	if !ok {
		return false
	}
	for k, x := range m {
		switch k {
		case "const", "enum":
			return false
		case "properties":
			ps, ok := x.(map[string]any)
			if !ok {
				return false
			}
			if key == "" {
				continue // an array's items are no object's members
			}
			if p, ok := ps[key]; ok {
				if _, isBool := p.(bool); !isBool {
					return false
				}
			}
		case "items":
			if _, isBool := x.(bool); key == "" && !isBool {
				return false
			}
		default:
			if !keywordBlind(k, x, key) {
				return false
			}
		}
	}
	return true
}

// check holds text, a value, to the entry def: its light schema, with the
// split values as null, then each split value to its own entry.
func (sm *schemaMemo) check(def string, text []byte, part bool) error {
	key := ""
	if part && sm.split[def] { // whole frames seldom repeat: not kept
		key = string(text)
		sm.mu.Lock()
		err, ok := sm.seen[def][key]
		sm.mu.Unlock()
		if ok {
			return err
		}
	}
	err := sm.checkNew(def, text, part)
	if key != "" {
		sm.mu.Lock()
		if sm.bytes < memoMaxBytes {
			if sm.seen[def] == nil {
				sm.seen[def] = map[string]error{}
			}
			sm.seen[def][key] = err
			sm.bytes += len(key)
		}
		sm.mu.Unlock()
	}
	return err
}

var errNotSplit = errors.New("the text could not be taken apart")

// checkLight holds text to def's light schema, once per distinct text
// when it is part of a frame (a value's parts nulled often repeat where
// the value does not: a view's seats change, its rules and phase do not).
func (sm *schemaMemo) checkLight(def string, text []byte, part bool) error {
	key := ""
	if part {
		key = def + "\x00" + string(text)
		sm.mu.Lock()
		err, ok := sm.seenLight[key]
		sm.mu.Unlock()
		if ok {
			return err
		}
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		err = fmt.Errorf("not JSON: %w", err)
	} else {
		err = sm.light[def].Validate(v)
	}
	if key != "" {
		sm.mu.Lock()
		if sm.bytes < memoMaxBytes {
			sm.seenLight[key] = err
			sm.bytes += len(key)
		}
		sm.mu.Unlock()
	}
	return err
}

func (sm *schemaMemo) checkNew(def string, text []byte, part bool) error {
	from, to := trimSpace(text, 0, len(text))
	var spans []span
	if err := sm.splits(sm.defs[def], text, from, to, true, &spans); err != nil {
		return errNotSplit
	}
	lightText := text
	if len(spans) > 0 {
		var b bytes.Buffer
		at := 0
		for _, s := range spans {
			if s.null {
				b.Write(text[at:s.from])
				b.WriteString("null")
				at = s.to
			}
		}
		b.Write(text[at:])
		lightText = b.Bytes()
	}
	if err := sm.checkLight(def, lightText, part); err != nil {
		return err
	}
	for _, s := range spans {
		if err := sm.check(s.def, text[s.from:s.to], true); err != nil {
			return err
		}
	}
	return nil
}

// validateMemo holds doc to the schema's def through the memo, and to the
// whole schema every 64th time and whenever the memo finds it does not
// fit (for the whole schema's message); the two must agree.
func validateMemo(sm *schemaMemo, whole *jsonschema.Schema, def string, doc []byte) error {
	sm.mu.Lock()
	sm.calls++
	sample := sm.calls%64 == 1
	sm.mu.Unlock()
	memoErr := sm.check(def, doc, false)
	if memoErr == errNotSplit {
		return validateWhole(whole, doc)
	}
	if memoErr == nil && !sample {
		return nil
	}
	wholeErr := validateWhole(whole, doc)
	switch {
	case memoErr == nil && wholeErr != nil:
		return fmt.Errorf("the split schema took what the whole schema refuses: %w", wholeErr)
	case memoErr != nil && wholeErr == nil:
		return fmt.Errorf("the split schema refused what the whole schema takes: %v", memoErr)
	}
	return wholeErr
}

func validateWhole(s *jsonschema.Schema, doc []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return s.Validate(v)
}

// A small scanner of JSON text: it finds where values begin and end, and
// leaves their checking to the parser, which reads every text it passes.

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func trimSpace(t []byte, a, b int) (int, int) {
	for a < b && isSpace(t[a]) {
		a++
	}
	for b > a && isSpace(t[b-1]) {
		b--
	}
	return a, b
}

// skipValue returns the end of the value that starts at t[i] (no space).
func skipValue(t []byte, i, end int) (int, error) {
	if i >= end {
		return 0, errNotSplit
	}
	switch t[i] {
	case '"':
		for j := i + 1; j < end; j++ {
			switch t[j] {
			case '\\':
				j++
			case '"':
				return j + 1, nil
			}
		}
		return 0, errNotSplit
	case '{', '[':
		depth := 0
		for j := i; j < end; j++ {
			switch t[j] {
			case '"':
				k, err := skipValue(t, j, end)
				if err != nil {
					return 0, err
				}
				j = k - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errNotSplit
	}
	j := i
	for j < end && !isSpace(t[j]) && t[j] != ',' && t[j] != '}' && t[j] != ']' && t[j] != ':' {
		j++
	}
	if j == i {
		return 0, errNotSplit
	}
	return j, nil
}

// eachMember calls f with each member's key and value span when
// t[from:to] is an object, and does nothing when it is another value. A
// key met twice is an error (the parser would keep one of them).
func eachMember(t []byte, from, to int, f func(key string, a, b int) error) error {
	if from >= to || t[from] != '{' {
		return nil
	}
	keys := map[string]bool{}
	i := from + 1
	for {
		i, _ = trimSpace(t, i, to)
		if i < to && t[i] == '}' && len(keys) == 0 {
			return nil
		}
		ke, err := skipValue(t, i, to)
		if err != nil || t[i] != '"' {
			return errNotSplit
		}
		var key string
		if err := json.Unmarshal(t[i:ke], &key); err != nil {
			return errNotSplit
		}
		if keys[key] {
			return errNotSplit
		}
		keys[key] = true
		i, _ = trimSpace(t, ke, to)
		if i >= to || t[i] != ':' {
			return errNotSplit
		}
		a, _ := trimSpace(t, i+1, to)
		b, err := skipValue(t, a, to)
		if err != nil {
			return err
		}
		if err := f(key, a, b); err != nil {
			return err
		}
		i, _ = trimSpace(t, b, to)
		if i >= to {
			return errNotSplit
		}
		if t[i] == '}' {
			return nil
		}
		if t[i] != ',' {
			return errNotSplit
		}
		i++
	}
}

// eachItem calls f with each element's span when t[from:to] is an array.
func eachItem(t []byte, from, to int, f func(a, b int) error) error {
	if from >= to || t[from] != '[' {
		return nil
	}
	i, _ := trimSpace(t, from+1, to)
	if i < to && t[i] == ']' {
		return nil
	}
	for {
		a, _ := trimSpace(t, i, to)
		b, err := skipValue(t, a, to)
		if err != nil {
			return err
		}
		if err := f(a, b); err != nil {
			return err
		}
		i, _ = trimSpace(t, b, to)
		if i >= to {
			return errNotSplit
		}
		if t[i] == ']' {
			return nil
		}
		if t[i] != ',' {
			return errNotSplit
		}
		i++
	}
}
