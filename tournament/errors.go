package tournament

import "mafia/engine"

// The codes of a tournament's refusals; Name says which field or rule.
const (
	// CodeBadTournament refuses a tournament that cannot be kept: an empty
	// or too long name, dates out of order, too few players or a player
	// twice, a final or factor out of range, an unknown or repeated
	// tie-break, a round or table that does not exist.
	CodeBadTournament engine.Code = "bad_tournament"
	// CodeNotPlayer refuses a player who is not on the club's roster (or
	// merged away), or a game's seat held by somebody who is not the
	// table's player (Value: the roster id).
	CodeNotPlayer engine.Code = "tournament_not_player"
	// CodeTournamentState refuses a step out of its order: rounds seated
	// twice, a final before every round is played or twice, a change of a
	// closed tournament (Name: the state it is in).
	CodeTournamentState engine.Code = "tournament_state"
	// CodePlayedTwice refuses a game linked to a round's table that has
	// one already, or a game linked to two tables (N: the round, Seat: the
	// table).
	CodePlayedTwice engine.Code = "tournament_played_twice"
	// CodeFinalTie refuses to seat the final when the last finalist's
	// place is shared past the final's size: the organiser names the
	// finalists (N: the final's size).
	CodeFinalTie engine.Code = "tournament_final_tie"
)

// Kinds are the kinds of the tournament's codes (engine.Kind).
var Kinds = map[engine.Code]engine.Kind{
	CodeBadTournament: engine.KindInvalid, CodeNotPlayer: engine.KindInvalid,
	CodeTournamentState: engine.KindConflict, CodePlayedTwice: engine.KindConflict,
	CodeFinalTie: engine.KindConflict,
}
