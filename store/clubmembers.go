package store

import (
	"context"
	"time"
)

// ClubRole is what a club's member may do there: an owner manages the club
// and its members, a host runs the club's games and keeps its roster, a
// member belongs to it (their page shows the club, the club's leaderboard
// lists them).
type ClubRole string

// The roles of a club's members, from the most powers to the least.
const (
	ClubOwner  ClubRole = "owner"
	ClubHost   ClubRole = "host"
	ClubMember ClubRole = "member"
)

// Valid reports whether r is one of the three roles.
func (r ClubRole) Valid() bool { return r == ClubOwner || r == ClubHost || r == ClubMember }

// ClubMembership is an account's membership of a club.
type ClubMembership struct {
	Club    string
	Account int64
	Role    ClubRole
	Added   time.Time
}

// AccountClub is one club an account belongs to, as the account's page
// lists it: the club, the account's role there ("" when the account is not
// a member but a roster entry of the club is linked to it), and the roster
// entry linked to the account in that club ("" for none).
type AccountClub struct {
	Club   string
	Name   string // the club's name
	Role   ClubRole
	Person string
}

// ClubMembers is a Store that keeps the clubs' members (accounts, each with
// a role) and the links of roster entries to accounts (ClubPerson's
// AccountID: the account's id in decimal). Renaming an entry is
// Clubs.RenamePerson.
//
// A club or an account that does not exist is ErrNotFound, as is an entry
// not on the club's roster. The links obey two rules: an entry is linked to
// at most one account, and an account to at most one entry per club (an
// account may be linked in several clubs). A refused change is ErrConflict
// and changes nothing.
//
// A Store that is ClubMembers keeps the link through Clubs.MergePeople:
// merging entry from into entry into moves from's link to into when into
// has none (from's AccountID becomes nil); when both are linked, to
// different accounts, the merge is ErrConflict (two accounts are two
// people).
type ClubMembers interface {
	// SetMember makes an account a member of a club with a role, or
	// changes the role of a member (Added then stays as it was). A role
	// that is not Valid is ErrConflict, as is taking the owner role from
	// the club's last owner.
	SetMember(ctx context.Context, m ClubMembership) error
	// RemoveMember removes an account from a club's members (ErrNotFound
	// if it is not one; its roster link, if any, stays). Removing the
	// club's last owner is ErrConflict.
	RemoveMember(ctx context.Context, clubID string, account int64) error
	// ClubMember returns one member (ErrNotFound if the account is not a
	// member of the club).
	ClubMember(ctx context.Context, clubID string, account int64) (ClubMembership, error)
	// ClubMembers lists a club's members, in the order they were added
	// (then by account id).
	ClubMembers(ctx context.Context, clubID string) ([]ClubMembership, error)
	// AccountClubs lists the clubs an account is a member of or is linked
	// in (see AccountClub), by the club's name then id; none for an
	// account in no club.
	AccountClubs(ctx context.Context, account int64) ([]AccountClub, error)
	// LinkPerson links a club's roster entry to an account. The entry
	// must be unmerged (else ErrConflict); linking it again to the same
	// account changes nothing; an entry linked to another account, or an
	// account linked to another entry of the club, is ErrConflict.
	LinkPerson(ctx context.Context, clubID, personID string, account int64) error
	// UnlinkPerson removes an entry's link (an entry not linked stays
	// so, which is not an error).
	UnlinkPerson(ctx context.Context, clubID, personID string) error
}
