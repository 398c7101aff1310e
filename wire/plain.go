package wire

import (
	"strconv"
	"unicode/utf8"

	"mafia/engine"
)

// ParsePlainClientMessage is ParseClientMessage for the plain frames that
// clients send: one object of the protocol's own (lowercase) keys, each at
// most once, with integers, booleans and strings without escapes. It reads
// such a frame without reflection or a decoder, allocating only its
// strings, and answers exactly as ParseClientMessage would (a fuzz test
// holds it to that). ok is false for any other frame, unusual or
// malformed: ParseClientMessage decides those (plain is false, err nil).
func ParsePlainClientMessage(data []byte) (m ClientMessage, plain bool, err error) {
	if !parsePlain(data, &m) {
		return ClientMessage{}, false, nil
	}
	return m, true, checkClientMessage(m)
}

// plainParser walks one frame; any surprise ends the walk with false. It
// is the scanner of scan.go (its white space and bytes) reading values as
// well: only those a plain frame may hold.
type plainParser struct {
	scanner
}

// byte steps over white space, then over c if it is next.
func (p *plainParser) byte(c byte) bool {
	p.space()
	return p.scanner.byte(c)
}

// str reads a string with no escape, no control character and valid UTF-8.
func (p *plainParser) str() ([]byte, bool) {
	if !p.byte('"') {
		return nil, false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			return s, utf8.Valid(s)
		case c == '\\' || c < 0x20:
			return nil, false
		}
		p.i++
	}
	return nil, false
}

// int reads an integer as JSON writes it: no fraction, no exponent, no
// leading zero, and within an int64.
func (p *plainParser) int() (int64, bool) {
	p.space()
	start := p.i
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	digits := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	n := p.i - digits
	if n == 0 || n > 19 || (n > 1 && p.b[digits] == '0') {
		return 0, false
	}
	if p.i < len(p.b) {
		switch p.b[p.i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	v, err := strconv.ParseInt(string(p.b[start:p.i]), 10, 64)
	return v, err == nil
}

func (p *plainParser) bool() (bool, bool) {
	p.space()
	rest := p.b[p.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		p.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		p.i += 5
		return false, true
	}
	return false, false
}

// parsePlain fills m from a plain frame; false if the frame is not one.
func parsePlain(data []byte, m *ClientMessage) bool {
	p := plainParser{scanner{b: data}}
	return plainObject(&p, plainKeys, func(bit uint16) bool { return p.value(bit, m) })
}

// plainObject walks the object p holds: each key one of keys, each at
// most once, its value read by value; false at anything else, or if text
// follows the object.
func plainObject[K uint16 | uint32](p *plainParser, keys map[string]K, value func(K) bool) bool {
	if !p.byte('{') {
		return false
	}
	var seen K
	if !p.byte('}') {
		for {
			key, ok := p.str()
			if !ok || !p.byte(':') {
				return false
			}
			bit, ok := keys[string(key)]
			if !ok || seen&bit != 0 {
				return false
			}
			seen |= bit
			if !value(bit) {
				return false
			}
			if p.byte(',') {
				continue
			}
			if p.byte('}') {
				break
			}
			return false
		}
	}
	p.space()
	return p.i == len(p.b)
}

// The keys of a ClientMessage, each a bit of parsePlain's seen set.
const (
	keyV uint16 = 1 << iota
	keyType
	keyID
	keyVerb
	keyTarget
	keyYes
	keyChannel
	keyText
	keyAction
	keyStep
	keyRole
	keyResult
	keyBefore
)

var plainKeys = map[string]uint16{"v": keyV, "type": keyType, "id": keyID, "verb": keyVerb,
	"target": keyTarget, "yes": keyYes, "channel": keyChannel, "text": keyText, "action": keyAction, "step": keyStep,
	"role": keyRole, "result": keyResult, "before": keyBefore}

func (p *plainParser) value(key uint16, m *ClientMessage) bool {
	switch key {
	case keyV, keyTarget, keyID, keyStep, keyBefore:
		n, ok := p.int()
		if !ok {
			return false
		}
		if key == keyID {
			m.ID = n
			return true
		}
		if int64(int(n)) != n {
			return false // past a 32-bit int: encoding/json refuses it
		}
		switch key {
		case keyV:
			m.V = int(n)
		case keyTarget:
			m.Target = int(n)
		case keyBefore:
			m.Before = int(n)
		default:
			m.Step = int(n)
		}
		return true
	case keyYes:
		v, ok := p.bool()
		m.Yes = v
		return ok
	}
	s, ok := p.str()
	if !ok {
		return false
	}
	switch key {
	case keyType:
		m.Type = internType(s)
	case keyVerb:
		m.Verb = internVerb(s)
	case keyChannel:
		m.Channel = string(s)
	case keyText:
		m.Text = string(s)
	case keyAction:
		m.Action = string(s)
	case keyRole:
		m.Role = intern(s, plainRoles)
	case keyResult:
		m.Result = intern(s, plainResults)
	}
	return true
}

// internType and internVerb return the protocol's own words without
// allocating (the compiler does not copy for a switch on string(b)).
func internType(b []byte) string {
	switch string(b) {
	case "command":
		return "command"
	case "chat":
		return "chat"
	case "host":
		return "host"
	case "ping":
		return "ping"
	case "history":
		return "history"
	}
	return string(b)
}

func internVerb(b []byte) string { return intern(b, plainVerbs) }

// intern returns the word of words b spells, without allocating, or b as a
// new string.
func intern(b []byte, words []string) string {
	for _, w := range words {
		if string(b) == w {
			return w
		}
	}
	return string(b)
}

// plainVerbs are the engine's verb names, shared by every frame that names
// one; plainRoles and plainResults the names of the cards a claim names and
// of the answers a report gives.
var plainVerbs = func() []string {
	var out []string
	for v := engine.Kill; v.String() != "?"; v++ {
		out = append(out, v.String())
	}
	return out
}()

var plainRoles = func() []string {
	var out []string
	for r := engine.Citizen; engine.Claimable(r); r++ {
		out = append(out, r.String())
	}
	return out
}()

var plainResults = func() []string {
	var out []string
	for r := engine.ResultMafia; r.String() != "?"; r++ {
		out = append(out, r.String())
	}
	return out
}()
