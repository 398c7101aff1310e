// Package peek reads the few fields a bench seat needs from a server's
// frame (a reply's id and code, a view's phase, step and legal moves, an
// update's seq and event kinds) in place, with wire's scanner, and leaves
// to encoding/json whatever it is not sure of, so that what a seat reads
// never depends on which path read it (TestPeek_ReadsServerFramesAsEncodingJSON,
// FuzzPeek). It is package bench's, a package of its own so that its
// fuzz target's build instruments only wire and the standard library, not
// all that bench imports (the WebSocket and HTTP clients): about 150
// CPU-seconds of CI's compile, 2026-12-07. It keeps no state.
package peek

import (
	"bytes"
	"encoding/json"

	"mafia/wire"
)

// Reply reads a reply or error frame's type, id and code; ok is false
// when the frame needs encoding/json.
func Reply(data []byte) (typ string, id int64, code string, ok bool) {
	var rawType, rawID, rawCode []byte
	if !wire.EachField(data, func(key, val []byte) bool {
		return take(key, val, "type", &rawType) && take(key, val, "id", &rawID) && take(key, val, "code", &rawCode)
	}) {
		return "", 0, "", false
	}
	if typ, ok = wire.PlainString(rawType); !ok {
		return "", 0, "", false
	}
	if rawID != nil {
		if id, ok = wire.PlainInt(rawID); !ok {
			return "", 0, "", false
		}
	}
	if rawCode != nil {
		if code, ok = wire.PlainString(rawCode); !ok {
			return "", 0, "", false
		}
	}
	return typ, id, code, true
}

// View reads a frame's view: its phase, step and legal moves (the
// rest of v is left zero). ok is false when the frame needs encoding/json
// (a frame without a view included).
func View(data []byte) (v wire.View, ok bool) {
	var rawView []byte
	if !wire.EachField(data, func(key, val []byte) bool { return take(key, val, "view", &rawView) }) ||
		len(rawView) == 0 || rawView[0] != '{' {
		return v, false
	}
	var rawPhase, rawStep, rawLegal []byte
	if !wire.EachField(rawView, func(key, val []byte) bool {
		return take(key, val, "phase", &rawPhase) && take(key, val, "step", &rawStep) && take(key, val, "legal", &rawLegal)
	}) {
		return v, false
	}
	if rawPhase != nil {
		if v.Phase, ok = wire.PlainString(rawPhase); !ok {
			return wire.View{}, false
		}
	}
	if rawStep != nil {
		n, ok := wire.PlainInt(rawStep)
		if !ok || int64(int(n)) != n {
			return wire.View{}, false
		}
		v.Step = int(n)
	}
	if rawLegal != nil {
		if v.Legal, ok = legal(rawLegal); !ok {
			return wire.View{}, false
		}
	}
	return v, true
}

// legalNames are the keys of the legal moves the bench's bots play: the
// lists of seats, then the flags (they make no statements: claim, report,
// suspect, vouch, will_nominate and best_move are skipped as any unknown
// key is).
var legalNames = [...]string{"kill", "check", "shoot", "heal", "nominate", "vote", "skip", "all_vote", "pass"}

// legal reads the legal moves: lists of seats and flags.
func legal(raw []byte) (l wire.Legal, ok bool) {
	var vals [len(legalNames)][]byte
	if !wire.EachField(raw, func(key, val []byte) bool {
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
			if *dst, ok = ints(vals[i]); !ok {
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

// ints reads a list of integers ([] is an empty list, not none).
func ints(raw []byte) ([]int, bool) {
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return nil, false
	}
	out := []int{}
	body := bytes.TrimSpace(raw[1 : len(raw)-1])
	if len(body) == 0 {
		return out, true
	}
	for item := range bytes.SplitSeq(body, []byte(",")) {
		n, ok := wire.PlainInt(bytes.TrimSpace(item))
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

// Events reads an update's seq (0 when absent: a game frame's count
// before any event) and its events' kinds.
func Events(data []byte) (seq int, kinds []string, ok bool) {
	var rawSeq, rawEvents []byte
	if wire.EachField(data, func(key, val []byte) bool {
		return take(key, val, "seq", &rawSeq) && take(key, val, "events", &rawEvents)
	}) {
		ok = true
		if rawSeq != nil {
			n, plain := wire.PlainInt(rawSeq)
			ok = plain && int64(int(n)) == n
			seq = int(n)
		}
		if ok && rawEvents != nil {
			kinds, ok = eventKinds(rawEvents)
		}
		if ok {
			return seq, kinds, true
		}
	}
	var m struct {
		Seq    int `json:"seq"`
		Events []struct {
			Kind string `json:"kind"`
		} `json:"events"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return 0, nil, false
	}
	kinds = make([]string, len(m.Events))
	for i, e := range m.Events {
		kinds[i] = e.Kind
	}
	return m.Seq, kinds, true
}

// eventKinds reads the kinds of a list of events.
func eventKinds(raw []byte) ([]string, bool) {
	var evs []struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(raw, &evs); err != nil {
		return nil, false
	}
	kinds := make([]string, len(evs))
	for i, e := range evs {
		kinds[i] = e.Kind
	}
	return kinds, true
}
