package bench

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"mafia/wire"
)

// A bench seat reads about ten frames for each move it makes, and needs
// only a few of their fields: a reply's id and code, a view's phase and
// legal moves. encoding/json would check and walk every frame whole, by
// reflection, deep enough to grow the stack of the short goroutine a move is
// made on. The walker here checks a frame is well formed and reads those
// fields in place. It takes only what it is sure of (keys spelled exactly
// once, strings without escapes, integers) and leaves anything else to
// encoding/json, so what a seat reads never depends on which path read it
// (TestPeek_ReadsServerFramesAsEncodingJSON, FuzzPeek).

// peekReply reads a reply or error frame's type, id and code; ok is false
// when the frame needs encoding/json.
func peekReply(data []byte) (typ string, id int64, code string, ok bool) {
	var rawType, rawID, rawCode []byte
	if !eachField(data, func(key, val []byte) bool {
		return take(key, val, "type", &rawType) && take(key, val, "id", &rawID) && take(key, val, "code", &rawCode)
	}) {
		return "", 0, "", false
	}
	if typ, ok = plainString(rawType); !ok {
		return "", 0, "", false
	}
	if rawID != nil {
		if id, ok = plainInt(rawID); !ok {
			return "", 0, "", false
		}
	}
	if rawCode != nil {
		if code, ok = plainString(rawCode); !ok {
			return "", 0, "", false
		}
	}
	return typ, id, code, true
}

// peekView reads a frame's view: its phase, step and legal moves (the
// rest of v is left zero). ok is false when the frame needs encoding/json
// (a frame without a view included).
func peekView(data []byte) (v wire.View, ok bool) {
	var rawView []byte
	if !eachField(data, func(key, val []byte) bool { return take(key, val, "view", &rawView) }) ||
		len(rawView) == 0 || rawView[0] != '{' {
		return v, false
	}
	var rawPhase, rawStep, rawLegal []byte
	if !eachField(rawView, func(key, val []byte) bool {
		return take(key, val, "phase", &rawPhase) && take(key, val, "step", &rawStep) && take(key, val, "legal", &rawLegal)
	}) {
		return v, false
	}
	if rawPhase != nil {
		if v.Phase, ok = plainString(rawPhase); !ok {
			return wire.View{}, false
		}
	}
	if rawStep != nil {
		n, ok := plainInt(rawStep)
		if !ok || int64(int(n)) != n {
			return wire.View{}, false
		}
		v.Step = int(n)
	}
	if rawLegal != nil {
		if v.Legal, ok = peekLegal(rawLegal); !ok {
			return wire.View{}, false
		}
	}
	return v, true
}

// legalNames are the legal moves' keys: the lists of seats, then the flags.
var legalNames = [...]string{"kill", "check", "shoot", "heal", "nominate", "vote", "skip", "all_vote", "pass"}

// peekLegal reads the legal moves: lists of seats and flags.
func peekLegal(raw []byte) (l wire.Legal, ok bool) {
	var vals [len(legalNames)][]byte
	if !eachField(raw, func(key, val []byte) bool {
		// Any other key is ignored, as encoding/json ignores it.
		for i, name := range legalNames {
			if !take(key, val, name, &vals[i]) {
				return false
			}
		}
		return true
	}) {
		return l, false
	}
	for i, dst := range [...]*[]int{&l.Kill, &l.Check, &l.Shoot, &l.Heal, &l.Nominate, &l.Vote} {
		if vals[i] != nil {
			if *dst, ok = peekInts(vals[i]); !ok {
				return wire.Legal{}, false
			}
		}
	}
	for i, dst := range [...]*bool{&l.Skip, &l.AllVote, &l.Pass} {
		switch string(vals[6+i]) {
		case "", "false":
		case "true":
			*dst = true
		default:
			return wire.Legal{}, false
		}
	}
	return l, true
}

// peekInts reads a list of integers ([] is an empty list, not none).
func peekInts(raw []byte) ([]int, bool) {
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return nil, false
	}
	out := []int{}
	body := bytes.TrimSpace(raw[1 : len(raw)-1])
	if len(body) == 0 {
		return out, true
	}
	for item := range bytes.SplitSeq(body, []byte(",")) {
		n, ok := plainInt(bytes.TrimSpace(item))
		if !ok || int64(int(n)) != n {
			return nil, false
		}
		out = append(out, int(n))
	}
	return out, true
}

// take keeps val in *dst when key is name. It refuses (false) a second
// value for name, and a key encoding/json would also match to name (it
// matches names whatever their case).
func take(key, val []byte, name string, dst *[]byte) bool {
	if string(key) == name {
		if *dst != nil {
			return false
		}
		*dst = val
		return true
	}
	return !bytes.EqualFold(key, []byte(name))
}

// plainString is a JSON string's value when it has no escapes and is valid
// UTF-8 (encoding/json replaces invalid bytes).
func plainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	s := raw[1 : len(raw)-1]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return "", false
	}
	return string(s), true
}

// plainInt is a JSON number's value when it is an integer in int64's range
// (the walker has checked its form; "-0" is left to encoding/json).
func plainInt(raw []byte) (int64, bool) {
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil && string(raw) != "-0"
}

// eachField calls f with each key (unescaped only) and raw value of the
// JSON object data, stopping at the first false. It returns false when
// data is not an object it can walk, or f said false.
func eachField(data []byte, f func(key, val []byte) bool) bool {
	w := walker{b: data}
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

// walker steps over JSON text without decoding it.
type walker struct {
	b []byte
	i int
}

func (w *walker) space() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

func (w *walker) byte(c byte) bool {
	if w.i < len(w.b) && w.b[w.i] == c {
		w.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (w *walker) end() bool {
	w.space()
	return w.i == len(w.b)
}

// str steps over a string, checking its escapes.
func (w *walker) str() bool {
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

// maxDepth is how deeply nested a value the walker steps over.
const maxDepth = 64

// value steps over one value of any kind, checking it is well formed:
// objects and arrays by a stack of their brackets in a word, without
// recursion.
func (w *walker) value() bool {
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
func (w *walker) key() ([]byte, bool) {
	w.space()
	start := w.i
	if !w.str() {
		return nil, false
	}
	key := w.b[start+1 : w.i-1]
	w.space()
	return key, w.byte(':')
}

func (w *walker) word(lit string) bool {
	if !bytes.HasPrefix(w.b[w.i:], []byte(lit)) {
		return false
	}
	w.i += len(lit)
	return true
}

// number steps over a JSON number: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?
func (w *walker) number() bool {
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
func (w *walker) digits() bool {
	start := w.i
	for w.i < len(w.b) && '0' <= w.b[w.i] && w.b[w.i] <= '9' {
		w.i++
	}
	return w.i > start
}
