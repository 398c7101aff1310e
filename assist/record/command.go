package record

import (
	"fmt"

	"mafia/engine"
)

// Command is one entry the host made: an engine command with the id the
// host's device gave it and its place in the game's list of entries. The
// server applies each Seq once; ID tells a repeat of the same entry from a
// different entry at the same place (another device).
type Command struct {
	ID     string `json:"id"`
	Seq    int    `json:"seq"`
	Verb   string `json:"verb"`
	By     int    `json:"by,omitempty"`
	Target int    `json:"target,omitempty"`
	Yes    bool   `json:"yes,omitempty"`
	// Undo is, for an undo entry (Verb VerbUndo), the place of the first
	// entry of the action it takes back.
	Undo int `json:"undo,omitempty"`
	// Part is the entry's place within the host's action (0: its first
	// entry): one tap may enter several entries (the mafia's choice, the
	// hands for a candidate), and an undo takes them back together.
	Part int `json:"part,omitempty"`
	// Step is the step of the game the entry was made for (StepOf; 0: not
	// recorded). An entry whose step has passed is refused (CheckStep).
	Step int `json:"step,omitempty"`
}

// MaxID is the longest command id accepted.
const MaxID = 64

// Engine converts the entry into an engine command. An unknown verb is
// refused with the engine's CodeUnknownVerb; a seat no table can have with
// CodeNoSuchSeat.
func (c Command) Engine() (engine.Command, error) {
	v, ok := engine.ParseVerb(c.Verb)
	if !ok {
		return engine.Command{}, &engine.Error{Code: engine.CodeUnknownVerb}
	}
	for _, s := range []int{c.By, c.Target} {
		if s < 0 || s > engine.MaxSeats {
			return engine.Command{}, &engine.Error{Code: engine.CodeNoSuchSeat, Seat: engine.Seat(min(max(s, 0), 255)), N: engine.MaxSeats}
		}
	}
	return engine.Command{Verb: v, By: engine.Seat(c.By), Target: engine.Seat(c.Target), Yes: c.Yes}, nil
}

// FromEngine spells an engine command as an entry (without id and place).
func FromEngine(c engine.Command) Command {
	return Command{Verb: c.Verb.String(), By: int(c.By), Target: int(c.Target), Yes: c.Yes}
}

// Start begins the game the settings describe and returns it with its first
// events (copied: they stay valid).
func Start(s *Settings) (*engine.Game, []engine.Event, error) {
	rules, roles, seed, err := s.Check()
	if err != nil {
		return nil, nil, err
	}
	g, evs, err := engine.New(rules, roles, seed)
	if err != nil {
		return nil, nil, err
	}
	return g, append([]engine.Event(nil), evs...), nil
}

// ReplayError says which entry of a list the engine refused.
type ReplayError struct {
	Index int   // the entry's index in the list
	Err   error // the engine's refusal (an *engine.Error)
}

func (e *ReplayError) Error() string { return fmt.Sprintf("entry %d: %v", e.Index, e.Err) }

// Unwrap returns the refusal.
func (e *ReplayError) Unwrap() error { return e.Err }

// Replay starts the game and applies every entry in order; an undo entry
// takes back the action it names, and the game is the engine's game of the
// entries left in force (see Undo). It returns the game and its whole event
// log, or a *ReplayError for the first entry that is refused (by CheckEntry,
// CheckStep or the engine), with the game and log as they were before it.
func Replay(s *Settings, cmds []Command) (*engine.Game, []engine.Event, error) {
	r, err := replay(s, cmds)
	if r == nil {
		return nil, nil, err
	}
	return r.g, r.log, err
}
