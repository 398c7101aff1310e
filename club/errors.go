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
	// CodeNotClubHost refuses a change of a club to one who is neither
	// the holder of its code nor a logged-in owner or host of it.
	CodeNotClubHost engine.Code = "not_club_host"
	// CodeNotClubOwner refuses to a host what only an owner (or the
	// club's code) may do: make or unmake owners and hosts.
	CodeNotClubOwner engine.Code = "not_club_owner"
	// CodeBadMember refuses a member who is no person's account (none of
	// that name, or a bot) or a role that is none of owner, host, member.
	CodeBadMember engine.Code = "bad_member"
	// CodeLastOwner refuses to remove or demote a club's last owner.
	CodeLastOwner engine.Code = "last_owner"
	// CodeLinkTaken refuses a link of a roster entry to an account when
	// the entry is merged or linked to another account, or the account
	// is linked to another entry of the club; and the merge of two
	// entries linked to two accounts.
	CodeLinkTaken engine.Code = "club_link_taken"
	// CodePersonExists refuses a new roster entry whose name an entry of
	// the club already has (unless the host says it is another person):
	// the answer lists the entries of that name, to seat or merge.
	CodePersonExists engine.Code = "person_exists"
)

// Kinds are the kinds of the club's codes (engine.Kind).
var Kinds = map[engine.Code]engine.Kind{
	CodeBadClub: engine.KindInvalid, CodeBadBestMove: engine.KindInvalid, CodeBadExtra: engine.KindInvalid,
	CodeBadMerge: engine.KindConflict, CodeNotClubHost: engine.KindForbidden, CodeNotClubOwner: engine.KindForbidden,
	CodeBadMember: engine.KindInvalid, CodeLastOwner: engine.KindConflict, CodeLinkTaken: engine.KindConflict,
	CodePersonExists: engine.KindConflict,
}
