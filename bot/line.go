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
// farewell. A Speaker says at most MaxLines lines a floor, whatever it is
// asked.

// MaxLines is the most lines a Speaker says on one floor.
const MaxLines = 3

// LineKind is what a line means.
type LineKind uint8

// The kinds of line. Each names at most one seat (Line.Seat); a kind that
// states a fact only ever voices one of the speaker's own statements of the
// floor (see docs/bots.md, "What a line may say").
const (
	LineNone LineKind = iota
	// LineClaim voices a claim: "I am the Detective" (Role; Count: the
	// nights so far, for a Detective's claim).
	LineClaim
	// LineChecked voices a report: "I checked 7: mafia" (Seat, Result).
	LineChecked
	// LineSuspect: "I suspect 5", "watch 5" (Seat), an opinion.
	LineSuspect
	// LineTrust: "I trust 3" (Seat), an opinion.
	LineTrust
	// LineWillNominate voices a will_nominate: "I will nominate 4" (Seat).
	LineWillNominate
	// LineLiar: "5 is lying" (Seat: a seat that claimed the Detective).
	LineLiar
	// LineBelieve: "I believe 3" (Seat: a seat that claimed the Detective).
	LineBelieve
	// LineVoteOut: "vote 6 out" (Seat: a candidate), an opinion.
	LineVoteOut
	// LineInnocent: "it is not me", said in one's own defence or tie
	// speech; it names nobody.
	LineInnocent
	// LineFarewell: "good luck, everyone", in one's last words.
	LineFarewell
	// LineGoodGame: "good game", after the end.
	LineGoodGame
	numLineKinds
)

var lineKindNames = [numLineKinds]string{"", "claim", "checked", "suspect", "trust", "will_nominate",
	"liar", "believe", "vote_out", "innocent", "farewell", "good_game"}

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

// Line is one spoken line: what it means, not its words.
type Line struct {
	Kind   LineKind
	Seat   engine.Seat   // the seat it names (0: none)
	Role   engine.Role   // LineClaim: the card claimed
	Result engine.Result // LineChecked: the answer reported
	Count  uint8         // LineClaim of the Detective: the nights so far
	// Pick chooses among the catalog's phrasings of the kind (taken modulo
	// their number): drawn by the bot, so that its lines vary.
	Pick uint8
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
		l := Line{Kind: LineClaim, Role: st.Role}
		if st.Role == engine.Detective {
			l.Count = uint8(min(round, 255))
		}
		return l, true
	case engine.Report:
		return Line{Kind: LineChecked, Seat: st.Target, Result: st.Result}, true
	case engine.Suspect:
		return Line{Kind: LineSuspect, Seat: st.Target}, true
	case engine.Vouch:
		return Line{Kind: LineTrust, Seat: st.Target}, true
	case engine.WillNominate:
		return Line{Kind: LineWillNominate, Seat: st.Target}, true
	}
	return Line{}, false
}
