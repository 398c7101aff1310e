package wire

import (
	"encoding/json"

	"mafia/engine"
)

// UnmarshalEvent reads an event from its JSON shape (as a store keeps it).
// The events the server writes itself (encoding/json's output of Event:
// one object of Event's own keys, integers, booleans, strings without
// escapes, arrays of them) are read by parsePlainEvent without reflection;
// anything else (a key in other case, an escape, a null, the
// rules' map of a game's first event) is read by encoding/json, as every
// event was before. A restart reads every live game's whole log: a profile
// of one with 910 games in play put a quarter of its CPU in
// encoding/json's decoding of events (2026-12-06).
func UnmarshalEvent(data []byte) (engine.Event, error) {
	var w Event
	if !parsePlainEvent(data, &w) {
		w = Event{}
		if err := json.Unmarshal(data, &w); err != nil {
			return engine.Event{}, err
		}
	}
	return ToEvent(w)
}

// The keys of an Event that parsePlainEvent reads, each a bit of its seen
// set (Rules, a map, is left to encoding/json).
const (
	evKind uint32 = 1 << iota
	evRound
	evPhase
	evActor
	evTarget
	evVerb
	evResult
	evCause
	evWinner
	evRole
	evTeam
	evYes
	evFouls
	evPlayers
	evSeats
	evRoles
	evBallot
	evCandidates
	evSeed
)

var plainEventKeys = map[string]uint32{"kind": evKind, "round": evRound, "phase": evPhase, "actor": evActor,
	"target": evTarget, "verb": evVerb, "result": evResult, "cause": evCause, "winner": evWinner, "role": evRole,
	"team": evTeam, "yes": evYes, "fouls": evFouls, "players": evPlayers, "seats": evSeats, "roles": evRoles,
	"ballot": evBallot, "candidates": evCandidates, "seed": evSeed}

// parsePlainEvent fills w from an event written as encoding/json writes
// Event; false for any other text, which encoding/json then reads (a fuzz
// test and a property test hold it to encoding/json wherever it says
// true). It walks the object as parsePlain walks a client's frame.
func parsePlainEvent(data []byte, w *Event) bool {
	p := plainParser{scanner{b: data}}
	return plainObject(&p, plainEventKeys, func(bit uint32) bool { return p.eventValue(bit, w) })
}

// eventValue reads the value of key into its field of w.
func (p *plainParser) eventValue(key uint32, w *Event) bool {
	switch key {
	case evRound:
		return p.intInto(&w.Round)
	case evActor:
		return p.intInto(&w.Actor)
	case evTarget:
		return p.intInto(&w.Target)
	case evFouls:
		return p.intInto(&w.Fouls)
	case evPlayers:
		return p.intInto(&w.Players)
	case evYes:
		v, ok := p.bool()
		w.Yes = &v
		return ok
	case evSeats:
		return listInto(&w.Seats, p.intList)
	case evBallot:
		return listInto(&w.Ballot, p.intList)
	case evCandidates:
		return listInto(&w.Candidates, p.intList)
	case evRoles:
		return listInto(&w.Roles, p.strList)
	case evKind:
		return p.strInto(&w.Kind)
	case evPhase:
		return p.strInto(&w.Phase)
	case evVerb:
		return p.strInto(&w.Verb)
	case evResult:
		return p.strInto(&w.Result)
	case evCause:
		return p.strInto(&w.Cause)
	case evWinner:
		return p.strInto(&w.Winner)
	case evRole:
		return p.strInto(&w.Role)
	case evTeam:
		return p.strInto(&w.Team)
	default:
		return p.strInto(&w.Seed)
	}
}

// intInto reads an integer into dst.
func (p *plainParser) intInto(dst *int) bool {
	n, ok := p.plainInt()
	*dst = n
	return ok
}

// strInto reads a string without escapes into dst.
func (p *plainParser) strInto(dst *string) bool {
	s, ok := p.str()
	*dst = string(s)
	return ok
}

// listInto reads a list with read into dst.
func listInto[T any](dst *[]T, read func() ([]T, bool)) bool {
	list, ok := read()
	*dst = list
	return ok
}

// plainInt reads an integer that fits an int (encoding/json refuses one
// past it).
func (p *plainParser) plainInt() (int, bool) {
	n, ok := p.int()
	if !ok || int64(int(n)) != n {
		return 0, false
	}
	return int(n), true
}

// intList reads an array of integers; [] is an empty list, as
// encoding/json makes it (not nil).
func (p *plainParser) intList() ([]int, bool) { return plainList(p, p.plainInt) }

// strList reads an array of strings without escapes.
func (p *plainParser) strList() ([]string, bool) {
	return plainList(p, func() (string, bool) {
		s, ok := p.str()
		return string(s), ok
	})
}

// plainList reads an array of the items item reads, [] as an empty list.
func plainList[T any](p *plainParser, item func() (T, bool)) ([]T, bool) {
	if !p.scanner.byte('[') {
		return nil, false
	}
	list := []T{}
	if p.scanner.byte(']') {
		return list, true
	}
	for {
		v, ok := item()
		if !ok {
			return nil, false
		}
		list = append(list, v)
		if p.scanner.byte(',') {
			continue
		}
		return list, p.scanner.byte(']')
	}
}
