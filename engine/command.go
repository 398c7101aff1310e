package engine

// Verb is what a command does.
type Verb uint8

// The verbs. Night: Kill, Check, Shoot, Heal, Skip. Day: Nominate (in one's
// own speech), Vote (vote and revote), AllVote ("shall all of them leave?").
// Pass ends one's own speech, defence, tie speech or last words early. The
// host (seat 0) gives fouls and ends the current step with Next; the room's
// clock sends Next when a deadline passes.
const (
	VerbNone Verb = iota
	Kill
	Check
	Shoot
	Heal
	Skip
	Nominate
	Vote
	AllVote
	Pass
	Foul
	Next
	numVerbs
)

var verbNames = [numVerbs]string{"", "kill", "check", "shoot", "heal", "skip", "nominate", "vote", "all_vote", "pass", "foul", "next"}

// String returns the verb's name as scenarios spell it.
func (v Verb) String() string {
	if v < numVerbs {
		return verbNames[v]
	}
	return "?"
}

// ParseVerb reads a verb name.
func ParseVerb(s string) (Verb, bool) {
	for v := Kill; v < numVerbs; v++ {
		if verbNames[v] == s {
			return v, true
		}
	}
	return VerbNone, false
}

// HasTarget reports whether the verb names a target seat.
func (v Verb) HasTarget() bool {
	switch v {
	case Kill, Check, Shoot, Heal, Nominate, Vote, Foul:
		return true
	}
	return false
}

// Command is one request to the engine: By acts (0 for the host), on Target
// when the verb has one; Yes is the answer of an AllVote.
type Command struct {
	Verb   Verb
	By     Seat
	Target Seat
	Yes    bool
}
