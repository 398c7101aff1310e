package record

import (
	"mafia/engine"
)

// A correction of an earlier entry (live co-hosting: a referee's correction
// the host's phone applies). The engine undoes only the last action; an
// amendment instead rebuilds the game from its entries with one action
// replaced (or a missing one inserted) and re-applies the actions after it
// in order, as long as the engine takes them. The first later action the
// engine refuses, and every action after it, are dropped: the game stands
// at the step the kept entries reach. The same replay as Replay and the
// undo (the engine is deterministic), never a second implementation.

// The refusals of an amendment.
const (
	// CodeNoSuchEntry: the amendment names no action in force (N: how many
	// entries the list holds).
	CodeNoSuchEntry engine.Code = "fix_no_entry"
	// CodeFixDoesNotFit: the engine refuses the correction itself where it
	// would go (the refusal's sentence follows in the message).
	CodeFixDoesNotFit engine.Code = "fix_does_not_fit"
)

// Amendment names the action to replace and what replaces it.
type Amendment struct {
	// At is the place of the first entry of the action replaced (an entry
	// in force, the first of its action), or of the action before which
	// With is inserted; len(cmds) appends.
	At int `json:"at"`
	// Insert: With goes before the action at At, which stays.
	Insert bool `json:"insert,omitempty"`
	// With is the entries that replace the action (verb, by, target, yes;
	// ids are the caller's), one action; or, with Span, several (each
	// action's entries numbered by Part from 0, as Actions numbers them).
	With []Command `json:"with"`
	// Span is how many actions in force from At are replaced (0: one, or
	// none for an insertion); With's Parts are then the caller's.
	Span int `json:"span,omitempty"`
}

// Amended is the game's entries after an amendment.
type Amended struct {
	// Commands is the new list: the entries before At as they were, the
	// correction, and the later actions that still fit (each renumbered and
	// stamped with the step it now falls in).
	Commands []Command `json:"commands"`
	// From is the first place whose entry changed (At).
	From int `json:"from"`
	// Replaced is the action taken out (none for an insertion).
	Replaced []Command `json:"replaced"`
	// Kept is how many later entries were re-applied.
	Kept int `json:"kept"`
	// Dropped is the later entries that no longer fit, in order: the first
	// action the engine refused and every entry after it.
	Dropped []Command `json:"dropped"`
	// Refusal is why the first dropped action no longer fits (nil: none).
	Refusal error `json:"-"`
}

// Amend applies an amendment to the entries cmds of the game of settings s.
// Undos before At stay as they were; after At only the entries in force are
// re-applied (what an undo took back is gone). A correction the engine
// refuses where it goes is refused with a *FitError (the engine's
// refusal inside); nothing is changed either way (cmds is not written).
func Amend(s *Settings, cmds []Command, a Amendment) (*Amended, error) {
	if err := checkAmendment(cmds, a); err != nil {
		return nil, err
	}
	prefix := cmds[:a.At]
	r, err := replay(s, prefix)
	if err != nil {
		return nil, err
	}
	var tail []Command
	for _, i := range inForce(cmds) {
		if i >= a.At {
			tail = append(tail, cmds[i])
		}
	}
	out := &Amended{From: a.At, Replaced: []Command{}, Dropped: []Command{}}
	span := a.Span
	if span == 0 && !a.Insert {
		span = 1
	}
	for ; span > 0 && len(tail) > 0; span-- {
		n := actionLen(tail)
		out.Replaced = append(out.Replaced, tail[:n]...)
		tail = tail[n:]
	}
	list := append([]Command(nil), prefix...)
	with := make([]Command, len(a.With))
	for i, c := range a.With {
		if c.Verb == VerbUndo {
			return nil, &engine.Error{Code: CodeFixDoesNotFit, Name: "undo"}
		}
		if a.Span == 0 {
			c.Part = i
		}
		if c.Part == 0 {
			c.Step = StepOf(r.log) // an action's entries share the step its first falls in
		} else {
			c.Step = with[i-1].Step
		}
		c.Seq, c.Undo = len(list)+i, 0
		with[i] = c
		if err := r.apply(c); err != nil {
			return nil, &FitError{Err: err}
		}
	}
	list = append(list, with...)
	for len(tail) > 0 {
		n := actionLen(tail)
		step := StepOf(r.log)
		var refused error
		action := make([]Command, n)
		for i, c := range tail[:n] {
			c.Seq = len(list) + i
			if c.Step != 0 {
				c.Step = step // the step it now falls in: a later step may be another number now
			}
			action[i] = c
			if refused = r.apply(c); refused != nil {
				break
			}
		}
		if refused != nil {
			out.Dropped, out.Refusal = append(out.Dropped, tail...), refused
			break
		}
		list = append(list, action...)
		out.Kept += n
		tail = tail[n:]
	}
	out.Commands = list
	return out, nil
}

// checkAmendment refuses an amendment that names no action in force.
func checkAmendment(cmds []Command, a Amendment) error {
	none := &engine.Error{Code: CodeNoSuchEntry, N: len(cmds)}
	if a.At < 0 || a.At > len(cmds) || len(a.With) == 0 && a.Insert || a.Span < 0 || a.Span > len(cmds) ||
		a.Span > 0 && a.Insert || len(a.With) > 0 && a.With[0].Part != 0 && a.Span > 0 {
		return none
	}
	if a.At == len(cmds) {
		if !a.Insert {
			return none
		}
		return nil
	}
	if cmds[a.At].Verb == VerbUndo || cmds[a.At].Part != 0 {
		return none
	}
	for _, i := range inForce(cmds) {
		if i == a.At {
			return nil
		}
	}
	return none
}

// Actions numbers the entries of each action by Part (0, 1, ...) and
// joins them: the With of an Amendment with a Span.
func Actions(actions ...[]Command) []Command {
	var out []Command
	for _, act := range actions {
		for i, c := range act {
			c.Part = i
			out = append(out, c)
		}
	}
	return out
}

// actionLen is how many entries the action that begins list takes (its
// first entry and the ones that continue it, Part 1, 2, ...).
func actionLen(list []Command) int {
	n := 1
	for n < len(list) && list[n].Part == list[n-1].Part+1 && list[n].Part > 0 {
		n++
	}
	return n
}

// FitError refuses a correction the engine does not take where it goes
// (CodeFixDoesNotFit): Err is the engine's refusal.
type FitError struct{ Err error }

func (e *FitError) Error() string { return string(CodeFixDoesNotFit) + ": " + e.Err.Error() }

// Unwrap returns the engine's refusal.
func (e *FitError) Unwrap() error { return e.Err }

// NightShot finds the action that recorded the mafia's choice on night
// round (a kill, or a mafioso's skip: a miss): its place and how many
// entries it has. When the night has none, at is where one goes (the
// entry that ended that night) and found is false; at is -1 when the game
// has not reached that night's end.
func NightShot(s *Settings, cmds []Command, round int) (at int, found bool, err error) {
	g, log, err := Start(s)
	if err != nil {
		return -1, false, err
	}
	r := &replayed{g: g, log: log}
	for _, i := range inForce(cmds) {
		c := cmds[i]
		night := r.g.Phase() == engine.PhaseNight && r.g.Round() == round
		if night && c.Part == 0 {
			mafia := c.By > 0 && c.By <= engine.MaxSeats && r.g.Role(engine.Seat(c.By)).IsMafia()
			if c.Verb == engine.Kill.String() || c.Verb == engine.Skip.String() && mafia && r.g.Role(engine.Seat(c.By)) != engine.Don {
				return i, true, nil
			}
		}
		if err := r.apply(c); err != nil {
			return -1, false, err
		}
		if night && (r.g.Phase() != engine.PhaseNight || r.g.Round() != round) {
			return i - c.Part, false, nil // the entry (its action) that ended the night
		}
	}
	return -1, false, nil
}

// InForce returns the places of the entries in force (not undos, not taken
// back by one), in order.
func InForce(cmds []Command) []int { return inForce(cmds) }
