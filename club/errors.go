package club

import "mafia/engine"

// The codes of the club's refusals; Name says which field.
const (
	// CodeBadClub refuses a club, a person, a season or scoring rules that
	// cannot be kept: an empty or too long name, a date range that ends
	// before it begins, points out of range.
	CodeBadClub engine.Code = "bad_club"
	// CodeBadBestMove refuses a best move: not the first-killed player's,
	// not three different other seats of the table.
	CodeBadBestMove engine.Code = "bad_best_move"
	// CodeBadExtra refuses extra points out of the club's range or for a
	// seat off the table.
	CodeBadExtra engine.Code = "bad_extra"
	// CodeBadMerge refuses a merge of an entry with itself, of an entry
	// already merged, or of an entry not on the club's roster.
	CodeBadMerge engine.Code = "bad_merge"
)

// Kinds are the kinds of the club's codes (engine.Kind).
var Kinds = map[engine.Code]engine.Kind{
	CodeBadClub: engine.KindInvalid, CodeBadBestMove: engine.KindInvalid, CodeBadExtra: engine.KindInvalid,
	CodeBadMerge: engine.KindConflict,
}
