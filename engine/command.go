package engine

// Verb is what a command does.
type Verb uint8

// The verbs. Night: Kill, Check, Shoot, Heal, Skip. Day: Nominate (in one's
// own speech), Vote (vote and revote), AllVote ("shall all of them leave?").
// Pass ends one's own speech, defence, tie speech or last words early. The
// host (seat 0) gives fouls and ends the current step with Next; the room's
// clock sends Next when a deadline passes.
//
// The statements (IsStatement) are structured talk, said on one's own floor
// (a speech, a defence, a tie speech, last words): Claim a card ("I am the
// Detective": Role), Report a check ("I checked 5: mafia": Target, Result),
// Suspect a seat, Vouch for a seat, WillNominate a seat ("I will nominate
// 5"); BestMove, the first night's victim's guess of three mafia in their
// last words (Guess: three seats; the club's best move, docs/club.md). A statement is what a player says, not a truth: the engine checks
// only that it may be said (statement.go).
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
	Claim
	Report
	Suspect
	Vouch
	WillNominate
	BestMove
	numVerbs
)

var verbNames = [numVerbs]string{"", "kill", "check", "shoot", "heal", "skip", "nominate", "vote", "all_vote", "pass", "foul", "next",
	"claim", "report", "suspect", "vouch", "will_nominate", "best_move"}

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
	case Kill, Check, Shoot, Heal, Nominate, Vote, Foul, Report, Suspect, Vouch, WillNominate:
		return true
	}
	return false
}

// IsStatement reports whether the verb is a statement: structured talk on
// one's own floor (Claim, Report, Suspect, Vouch, WillNominate, BestMove).
func (v Verb) IsStatement() bool { return v >= Claim && v <= BestMove }

// Command is one request to the engine: By acts (0 for the host), on Target
// when the verb has one; Yes is the answer of an AllVote; Role is the card a
// Claim names, Result the answer a Report gives, Guess the three seats a
// BestMove names.
type Command struct {
	Verb   Verb
	By     Seat
	Target Seat
	Yes    bool
	Role   Role
	Result Result
	Guess  SeatSet
}
