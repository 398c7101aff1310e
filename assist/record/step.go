package record

import "mafia/engine"

// The game's step number: how many steps have begun, counted from the event
// log by the events that begin one (a night, last words, a speech, a
// defence, a vote or repeat vote, a tie speech, "shall all of them leave?").
// It changes whenever the step changes, and never goes back: the same number
// the online protocol's views carry. A control on the host's screen carries
// the step it was drawn for; an entry made by it carries that step too, and
// one whose step has passed is refused (CodeStaleStep), so a late tap never
// lands in the next step.

// CodeStaleStep refuses an entry made for a step that has passed (N: the
// step now).
const CodeStaleStep engine.Code = "stale_step"

// StepOf returns the step number of a game whose event log is log: 0 before
// the first night, then one more for each step that began
// (engine.EventKind.BeginsStep), the number the online views carry
// (engine.Game.Step).
func StepOf(log []engine.Event) int {
	n := 0
	for _, e := range log {
		if e.Kind.BeginsStep() {
			n++
		}
	}
	return n
}

// CheckStep refuses an entry made for another step than the one the game
// whose log is log stands at. An entry without a step (0: made before steps
// were recorded, or an undo, which names its action itself) is not checked.
func CheckStep(log []engine.Event, c Command) error {
	if c.Step == 0 || c.Verb == VerbUndo {
		return nil
	}
	if now := StepOf(log); c.Step != now {
		return &engine.Error{Code: CodeStaleStep, N: now}
	}
	return nil
}
