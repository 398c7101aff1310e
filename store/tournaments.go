package store

import (
	"context"
	"time"
)

// Tournament is a club's tournament as the store keeps it: its club, name
// and state for listing, and the whole tournament as JSON that the store
// neither reads nor changes (package tournament's Tournament). Version
// counts its updates from 1: an update names the version it read, so that
// two organisers (or two tables' games synced at once) never overwrite one
// another's change.
type Tournament struct {
	ID        string
	ClubID    string
	Name      string
	State     string
	Data      []byte
	Version   int
	CreatedAt time.Time
	// RefereeAccount is the site's account the tournament names as its
	// referee (0: none), kept beside Data so that an account finds the
	// tournaments it referees in clubs it is no member of
	// (RefereeTournaments). Create and update write it with the rest.
	RefereeAccount int64
}

// Tournaments is a Store that keeps clubs' tournaments. A tournament or
// club that does not exist is ErrNotFound; an id already taken, or an
// update of a version that is no longer the tournament's, is ErrConflict
// and changes nothing.
type Tournaments interface {
	// CreateTournament records a new tournament of an existing club, at
	// version 1 (t.Version is ignored).
	CreateTournament(ctx context.Context, t Tournament) error
	// Tournament returns a tournament.
	Tournament(ctx context.Context, id string) (Tournament, error)
	// ClubTournaments returns a club's tournaments, oldest first.
	ClubTournaments(ctx context.Context, clubID string) ([]Tournament, error)
	// UpdateTournament saves t's name, state and data if the tournament is
	// still at t.Version, and returns its new version (t.Version + 1).
	UpdateTournament(ctx context.Context, t Tournament) (int, error)
	// RefereeTournaments returns the tournaments, of any club, whose
	// RefereeAccount is account, oldest first, at most limit (account 0:
	// none).
	RefereeTournaments(ctx context.Context, account int64, limit int) ([]Tournament, error)
}
