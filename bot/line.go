package bot

import "mafia/engine"

// A bot that talks aloud is a Speaker: beside its statements (structured
// talk, which every program reads) it says a few short lines on its own
// floor, as a person would ("I trust 3", "5 is lying"). What it says is the
// bot's decision, made from its view like a move, and is a Line: a kind and
// the seats it names, never words. The words are the server's: it renders a
// Line in the table's language from the message catalogs and posts it as
// the seat's chat. The simulator never asks for lines, so they cost a game
// nothing.
//
// The driver's protocol, on a Speaker's own floor: ask Speak first; while it
// returns a line, say it (and ask again); when it returns none, ask Act,
// and after a statement start again with Speak; a move (or nothing) ends
// the floor. After the game's end a driver may ask Speak once more, for a
// farewell. At night a driver asks a seat that acts before each of its night
// commands, as on a floor: a Speaker answers only with night kinds
// (LineKind.Night), and only for a mafia seat (the mafia's night chat, which
// only the mafia read). A Speaker says at most MaxLines lines a floor (and a
// night), whatever it is asked.

// MaxLines is the most lines a Speaker says on one floor.
const MaxLines = 3

// LineKind is what a line means.
type LineKind uint8

// The kinds of line. A kind names the seats its doc says (Line.Seat, then
// Line.More); a kind that states a fact only ever voices one of the
// speaker's own statements, or a fact of the public record (see
// docs/bots.md, "What a line may say"). The numbers are stable: new kinds
// come at the end.
const (
	LineNone LineKind = iota
	// LineClaim voices a claim: "I am the Detective" (Role; Count: the
	// nights so far, for a Detective's claim).
	LineClaim
	// LineChecked voices a report: "I checked 7: mafia" (Seat, Result).
	LineChecked
	// LineSuspect: "I suspect 5", "watch 5" (Seat), an opinion.
	LineSuspect
	// LineTrust: "I trust 3" (Seat), a vouch's voice.
	LineTrust
	// LineWillNominate voices a will_nominate: "I will nominate 4" (Seat).
	LineWillNominate
	// LineLiar: "5 is lying" (Seat: a seat that claimed the Detective).
	LineLiar
	// LineBelieve: "I believe 3" (Seat: a seat that claimed the Detective).
	LineBelieve
	// LineVoteOut: "vote 6 out" (Seat: a candidate), an opinion.
	LineVoteOut
	// LineInnocent: "I am not the mafia", said in one's own defence or tie
	// speech; it names nobody.
	LineInnocent
	// LineFarewell: "good luck, everyone", in one's last words.
	LineFarewell
	// LineGoodGame: "good game", after the end.
	LineGoodGame

	// The reasons: a suspicion of Seat with a fact of the public record
	// behind it, so that a bot that repeats another's suspicion says why.

	// LineVotedTown: "5 voted for the 3rd, who was town" (Seat: the voter;
	// More[0]: the seat voted out, whose card showed the town).
	LineVotedTown
	// LineNominatedTown: "5 nominated the 3rd, who was town" (Seat: the
	// nominator; More[0]: the seat, voted out, whose card showed the town).
	LineNominatedTown
	// LineAgainstDetective: "5 nominated the 8th, our Detective" (Seat: the
	// nominator; More[0]: the Detective the record believes).
	LineAgainstDetective
	// LineCheckedBy: "the 8th checked 5: mafia" (Seat: the seat reported;
	// More[0]: the Detective the record believes, who reported it).
	LineCheckedBy

	// The defences, from what the record holds of the speaker.

	// LineVotedFor: "I voted for 5 yesterday" (Seat: whom the speaker's
	// vote of the day before counted for).
	LineVotedFor
	// LineMyCheck: "my check says otherwise: 5 is mafia" (Seat: a seat the
	// speaker reported as mafia in public, as the Detective it claimed).
	LineMyCheck
	// LineCitizen: "I am a citizen, you will see" (names nobody).
	LineCitizen

	// LineBestMove: the first night's victim's best move in its last words,
	// the club's habit: "my best move: 3, 5, 9" (Seat, More[0], More[1]);
	// the Smart bot makes it as the game's statement too (engine.BestMove),
	// and this line voices it.
	LineBestMove

	// The mafia's night chat (LineKind.Night): said at night, by a mafia
	// seat only, to the mafia's channel.

	// LineNightTake: "let's take the 7th" (Seat: the victim it names).
	LineNightTake
	// LineNightAgree: "agreed: the 7th" (Seat: the victim a partner named).
	LineNightAgree
	// LineNightCheck: the Don's "I will check the 4th" (Seat).
	LineNightCheck
	numLineKinds
)

var lineKindNames = [numLineKinds]string{"", "claim", "checked", "suspect", "trust", "will_nominate",
	"liar", "believe", "vote_out", "innocent", "farewell", "good_game",
	"voted_town", "nominated_town", "against_detective", "checked_by",
	"voted_for", "my_check", "citizen", "best_move",
	"night_take", "night_agree", "night_check"}

// LineKinds returns every kind of line, LineClaim first.
func LineKinds() []LineKind {
	out := make([]LineKind, 0, numLineKinds-1)
	for k := LineClaim; k < numLineKinds; k++ {
		out = append(out, k)
	}
	return out
}

// String returns the kind's name, as the catalogs' ids spell it
// ("botline.<name>_<n>").
func (k LineKind) String() string {
	if k < numLineKinds {
		return lineKindNames[k]
	}
	return "?"
}

// Night reports whether k is said at night, in the mafia's chat.
func (k LineKind) Night() bool { return k >= LineNightTake && k < numLineKinds }

// Seats is how many seats a line of kind k names: 0 to 3 (Line.Seat, then
// Line.More in order).
func (k LineKind) Seats() int {
	switch k {
	case LineClaim, LineInnocent, LineFarewell, LineGoodGame, LineCitizen, LineNone:
		return 0
	case LineVotedTown, LineNominatedTown, LineAgainstDetective, LineCheckedBy:
		return 2
	case LineBestMove:
		return 3
	}
	if k >= numLineKinds {
		return 0
	}
	return 1
}

// Line is one spoken line: what it means, not its words.
type Line struct {
	Kind   LineKind
	Seat   engine.Seat   // the seat it names (0: none)
	Role   engine.Role   // LineClaim: the card claimed
	Result engine.Result // LineChecked: the answer reported
	Count  uint8         // LineClaim of the Detective: the nights so far
	// Pick chooses among the catalog's phrasings of the kind (taken modulo
	// their number, the same in every language): drawn by the bot, so that
	// its lines vary.
	Pick uint8
	// More are the further seats a kind names (LineKind.Seats): a reason's
	// other seat, the best move's second and third.
	More [2]engine.Seat
	// Voice is set on a line that says aloud a statement its speaker just
	// made on the floor (a claim, a report, a suspicion, a vouch, a
	// nomination to come): a reader shown the statement itself may skip it.
	Voice bool
}

// SeatsNamed returns the seats l names, in order (LineKind.Seats of them).
func (l Line) SeatsNamed() []engine.Seat {
	all := [3]engine.Seat{l.Seat, l.More[0], l.More[1]}
	return all[:l.Kind.Seats()]
}

// Speaker is a bot that says lines (see above). Speak returns the next line
// the bot says now, or false when it has nothing (more) to say.
type Speaker interface {
	Speak(v *engine.View) (Line, bool)
}

// lineOf is the line that voices statement st, if it has one.
func lineOf(st engine.Statement, round uint16) (Line, bool) {
	switch st.Verb {
	case engine.Claim:
		l := Line{Kind: LineClaim, Role: st.Role, Voice: true}
		if st.Role == engine.Detective {
			l.Count = uint8(min(round, 255))
		}
		return l, true
	case engine.Report:
		return Line{Kind: LineChecked, Seat: st.Target, Result: st.Result, Voice: true}, true
	case engine.Suspect:
		return Line{Kind: LineSuspect, Seat: st.Target, Voice: true}, true
	case engine.Vouch:
		return Line{Kind: LineTrust, Seat: st.Target, Voice: true}, true
	case engine.WillNominate:
		return Line{Kind: LineWillNominate, Seat: st.Target, Voice: true}, true
	case engine.BestMove:
		if g := st.Guess.Seats(); len(g) == 3 {
			return Line{Kind: LineBestMove, Seat: g[0], More: [2]engine.Seat{g[1], g[2]}, Voice: true}, true
		}
	}
	return Line{}, false
}
