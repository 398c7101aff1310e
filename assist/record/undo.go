package record

import (
	"mafia/engine"
	"mafia/wire"
)

// VerbUndo is the verb of an undo entry. An undo takes back the last
// action in force (Command.Undo names its first entry): the game becomes the
// engine's game of the entries left in force, as if the action had never
// been entered. The undo stays in the list of entries, so a correction is
// synced like any other entry and the protocol can show it; an undo itself
// cannot be undone (entering the action again does that).
const VerbUndo = "undo"

// The refusals of an undo.
const (
	CodeNothingToUndo engine.Code = "nothing_to_undo" // no entry is in force: the game stands at the deal
	CodeUndoNotLast   engine.Code = "undo_not_last"   // the undo names another action than the last (N: the last one's place)
)

// codeBadRequest refuses an entry that is not well formed.
const codeBadRequest engine.Code = "bad_request"

// inForce returns the places of the entries in force: every entry that is
// not an undo and that no undo took back. It trusts the list (CheckEntry
// checked every entry).
func inForce(cmds []Command) []int {
	var stack []int
	for i, c := range cmds {
		if c.Verb != VerbUndo {
			stack = append(stack, i)
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1] >= c.Undo {
			stack = stack[:len(stack)-1]
		}
	}
	return stack
}

// LastAction returns the place of the first entry of the last action in
// force, which an undo entered now takes back, or -1 when no entry is in
// force (the game stands at the deal).
func LastAction(cmds []Command) int {
	stack := inForce(cmds)
	if len(stack) == 0 {
		return -1
	}
	top := stack[len(stack)-1]
	return max(top-cmds[top].Part, 0)
}

// CheckEntry checks what only the list of entries can tell about the entry
// c made after cmds (at place len(cmds)): an undo must take back the last
// action in force, and an entry that continues an action (Part > 0) must
// follow the entry before it in that action. The engine checks the rest.
func CheckEntry(cmds []Command, c Command) error {
	i := len(cmds)
	if c.Verb == VerbUndo {
		if c.Part != 0 || c.By != 0 || c.Target != 0 || c.Yes {
			return &engine.Error{Code: codeBadRequest, Name: "undo"}
		}
		last := LastAction(cmds)
		if last < 0 {
			return &engine.Error{Code: CodeNothingToUndo}
		}
		if c.Undo != last {
			return &engine.Error{Code: CodeUndoNotLast, N: last}
		}
		return nil
	}
	if c.Undo != 0 || c.Part < 0 {
		return &engine.Error{Code: codeBadRequest, Name: "part"}
	}
	if c.Part > 0 && (i == 0 || cmds[i-1].Verb == VerbUndo || cmds[i-1].Part != c.Part-1) {
		return &engine.Error{Code: codeBadRequest, Name: "part"}
	}
	return nil
}

// Correction is one undo as the protocol records it: the entries it took
// back and the events they had caused, which are no longer in the log.
type Correction struct {
	Entry  int            `json:"entry"`  // the undo's place in the list of entries
	Undone []Command      `json:"undone"` // the entries taken back, in order
	Events []wire.Event   `json:"events"` // the events they had caused
	Caused []engine.Event `json:"-"`      // the same events, for narration
}

// Corrections replays the entries and returns every undo among them, in
// order (none: an empty list).
func Corrections(s *Settings, cmds []Command) ([]Correction, error) {
	r, err := replay(s, cmds)
	if err != nil {
		return nil, err
	}
	return r.fixes, nil
}

// replayed is a game rebuilt from its entries, with its corrections.
type replayed struct {
	g     *engine.Game
	log   []engine.Event
	fixes []Correction
}

// replay is Replay, keeping the corrections. It is nil only when the
// settings are refused.
func replay(s *Settings, cmds []Command) (*replayed, error) {
	g, log, err := Start(s)
	if err != nil {
		return nil, err
	}
	r := &replayed{g: g, log: log, fixes: []Correction{}}
	for i, c := range cmds {
		if err := CheckEntry(cmds[:i], c); err != nil {
			return r, &ReplayError{Index: i, Err: err}
		}
		if c.Verb == VerbUndo {
			if err := r.undo(s, cmds[:i+1]); err != nil {
				return r, &ReplayError{Index: i, Err: err}
			}
			continue
		}
		if err := r.apply(c); err != nil {
			return r, &ReplayError{Index: i, Err: err}
		}
	}
	return r, nil
}

func (r *replayed) apply(c Command) error {
	if err := CheckStep(r.log, c); err != nil {
		return err
	}
	ec, err := c.Engine()
	if err != nil {
		return err
	}
	evs, err := r.g.Handle(ec)
	r.log = append(r.log, evs...)
	return err
}

// undo rebuilds the game from the entries in force after the undo that
// ends cmds, and records the correction. The engine is deterministic, so
// the new log is the start of the old one.
func (r *replayed) undo(s *Settings, cmds []Command) error {
	u := cmds[len(cmds)-1]
	fix := Correction{Entry: len(cmds) - 1, Undone: []Command{}}
	for _, i := range inForce(cmds[:len(cmds)-1]) {
		if i >= u.Undo {
			fix.Undone = append(fix.Undone, cmds[i])
		}
	}
	g, log, err := Start(s)
	if err != nil {
		return err
	}
	next := &replayed{g: g, log: log}
	for _, i := range inForce(cmds) {
		if err := next.apply(cmds[i]); err != nil {
			return err
		}
	}
	if len(next.log) <= len(r.log) {
		fix.Caused = append([]engine.Event(nil), r.log[len(next.log):]...)
	}
	fix.Events = make([]wire.Event, 0, len(fix.Caused))
	for _, e := range fix.Caused {
		fix.Events = append(fix.Events, wire.FromEvent(e, g.Players()))
	}
	r.g, r.log, r.fixes = next.g, next.log, append(r.fixes, fix)
	return nil
}
