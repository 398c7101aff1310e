package store

import (
	"context"
	"strings"
	"time"
)

// Club is a club as the store keeps it. Scoring is the club's scoring rules
// as JSON that the store neither reads nor changes (package club's Scoring).
type Club struct {
	ID        string
	Name      string
	TokenHash string // a hash of the club's secret token, never the token itself
	Scoring   []byte
	CreatedAt time.Time
}

// ClubPerson is one entry of a club's roster.
type ClubPerson struct {
	ID         string
	Name       string
	MergedInto string // "": not merged
	// AccountID links the entry to an account (nil: none): the account's
	// id in decimal, set by ClubMembers.LinkPerson.
	AccountID *string
	CreatedAt time.Time
	// NameOnce asks AddPerson to refuse the entry (ErrConflict) when an
	// unmerged entry of the club has the same name (SameName): two hosts
	// adding one name at once make one entry. It is not kept.
	NameOnce bool
}

// SameName reports whether two roster names are the same name: equal
// after trimming spaces, regardless of case.
func SameName(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }

// ClubMerge records that entry From was merged into entry Into at At; Seq
// orders a club's merges from 0.
type ClubMerge struct {
	Seq  int
	From string
	Into string
	At   time.Time
}

// ClubSeason is a season: the days From to To, both included (YYYY-MM-DD).
type ClubSeason struct {
	ID   string
	Name string
	From string
	To   string
}

// ClubGame is one in-person game counted by a club: the table that holds it
// (its settings, entries and events) and the day it was played
// (YYYY-MM-DD).
type ClubGame struct {
	TableID string
	Day     string
}

// Clubs is a Store that keeps clubs, their rosters, merges, seasons and the
// index of their games. A club that does not exist is ErrNotFound; an id
// already taken, or a merge of entries that are not two unmerged entries of
// the club, is ErrConflict and changes nothing.
type Clubs interface {
	// CreateClub records a new club.
	CreateClub(ctx context.Context, c Club) error
	// Club returns a club.
	Club(ctx context.Context, id string) (Club, error)
	// UpdateClub saves a club's name and scoring.
	UpdateClub(ctx context.Context, c Club) error
	// AddPerson adds an entry to a club's roster; with p.NameOnce, an
	// unmerged entry of the same name makes it ErrConflict, checked and
	// added at once (of two callers adding one name, one wins).
	AddPerson(ctx context.Context, clubID string, p ClubPerson) error
	// RenamePerson changes an entry's name (ErrNotFound for none).
	RenamePerson(ctx context.Context, clubID, personID, name string) error
	// People returns a club's roster, merged entries too, in the order
	// they were added.
	People(ctx context.Context, clubID string) ([]ClubPerson, error)
	// MergePeople merges entry from into entry into, in one transaction:
	// from's MergedInto becomes into and the merge is recorded. Both must
	// be unmerged entries of the club and differ (else ErrConflict); the
	// games stay as they were, under from's id, which now counts as into.
	MergePeople(ctx context.Context, clubID, from, into string, at time.Time) (ClubMerge, error)
	// Merges returns a club's merges in order.
	Merges(ctx context.Context, clubID string) ([]ClubMerge, error)
	// SaveSeason adds a season or changes the one of its id.
	SaveSeason(ctx context.Context, clubID string, s ClubSeason) error
	// Seasons returns a club's seasons, earliest first.
	Seasons(ctx context.Context, clubID string) ([]ClubSeason, error)
	// AddClubGame counts a table's game for a club (the table must exist:
	// else ErrNotFound); counting it again changes nothing.
	AddClubGame(ctx context.Context, clubID string, g ClubGame) error
	// ClubGames returns a club's games, by day then table.
	ClubGames(ctx context.Context, clubID string) ([]ClubGame, error)
}
