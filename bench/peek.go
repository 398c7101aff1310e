package bench

import (
	"bytes"

	"mafia/wire"
)

// A bench seat reads about ten frames for each move it makes, and needs
// only a few of their fields: a reply's id and code, a view's phase and
// legal moves. encoding/json would check and walk every frame whole, by
// reflection, deep enough to grow the stack of the short goroutine a move is
// made on. wire's scanner (wire.EachField) checks a frame is well formed and
// the peeks here read those fields in place. It takes only what it is sure of (keys spelled exactly
// once, strings without escapes, integers) and leaves anything else to
// encoding/json, so what a seat reads never depends on which path read it
// (TestPeek_ReadsServerFramesAsEncodingJSON, FuzzPeek).

// peekReply reads a reply or error frame's type, id and code; ok is false
// when the frame needs encoding/json.
func peekReply(data []byte) (typ string, id int64, code string, ok bool) {
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

// peekView reads a frame's view: its phase, step and legal moves (the
// rest of v is left zero). ok is false when the frame needs encoding/json
// (a frame without a view included).
func peekView(data []byte) (v wire.View, ok bool) {
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
		if v.Legal, ok = peekLegal(rawLegal); !ok {
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

// peekLegal reads the legal moves: lists of seats and flags.
func peekLegal(raw []byte) (l wire.Legal, ok bool) {
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
