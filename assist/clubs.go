package assist

// This file is the assistant's seam to the clubs (docs/club.md). A club's
// HTTP is its own (package clubhttp, mounted beside the assistant); a game
// that counts for a club reaches it through Clubs, which the clubs'
// handler implements, and the club reads its games through ClubGames,
// which this package offers: neither package imports the other, and
// cmd/mafia wires the two.

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"mafia/assist/record"
	"mafia/club"
	"mafia/store"
)

// Clubs is what a game asks of the club it counts for.
type Clubs interface {
	// Scoring is a club's scoring rules; store.ErrNotFound for no such
	// club.
	Scoring(ctx context.Context, clubID string) (club.Scoring, error)
	// HostRoster is the roster of a club for a request that makes a game
	// of it with the club's code (token) or a login that owns or hosts
	// it; store.ErrNotFound for no such club, a refusal (bad_token) for
	// anyone else.
	HostRoster(r *http.Request, clubID, token string) (*club.Roster, error)
	// AddGame puts a new game into its club's index.
	AddGame(ctx context.Context, clubID string, g store.ClubGame) error
	// LinkTournament links a new game of the club (table tableID, its
	// seats' roster ids people) to round's table of the club's tournament
	// (docs/club.md, Tournaments); a refusal is the tournament's (a table
	// played already, a seat not the table's player, ...).
	LinkTournament(ctx context.Context, clubID, tournamentID string, round, table int, tableID string, people []string) error
	// TournamentReferee is the referee of the club's tournament, whom a
	// game made at its table invites to follow it (referee.go): their
	// account (0: none named), the name shown and the account's name.
	TournamentReferee(ctx context.Context, clubID, tournamentID string) (account int64, name, login string, err error)
	// Sees reports whether a request may see a club's games in the
	// history (the club's code, or a login of a member).
	Sees(r *http.Request, clubID string) bool
	// Manages reports whether a request may close a club's abandoned
	// game (the club's code, or a login that owns or hosts it).
	Manages(r *http.Request, clubID string) bool
}

// noClubs are the clubs of an assistant that has none: no club is kept.
type noClubs struct{}

func (noClubs) Scoring(context.Context, string) (club.Scoring, error) {
	return club.Scoring{}, store.ErrNotFound
}

func (noClubs) HostRoster(*http.Request, string, string) (*club.Roster, error) {
	return nil, store.ErrNotFound
}

func (noClubs) AddGame(context.Context, string, store.ClubGame) error { return store.ErrNotFound }

func (noClubs) LinkTournament(context.Context, string, string, int, int, string, []string) error {
	return store.ErrNotFound
}

func (noClubs) TournamentReferee(context.Context, string, string) (int64, string, string, error) {
	return 0, "", "", store.ErrNotFound
}

func (noClubs) Sees(*http.Request, string) bool { return false }

func (noClubs) Manages(*http.Request, string) bool { return false }

// ClubGames reads the in-person games a club counts (clubhttp.Games), from
// the store the assistant keeps them in; log receives a game that cannot
// be read (nil: discard).
func ClubGames(st store.Store, log *slog.Logger) *Games {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Games{st: st, log: log}
}

// Games are the in-person games as a club counts them (ClubGames).
type Games struct {
	st  store.Store
	log *slog.Logger
}

// ClubGame is the finished in-person game of a table as a club counts it
// (club.Game: the record's seats and fates, the result, the club's fields
// and the host's score), and whether it counts: false for a game not
// finished, not kept, or that cannot be read (logged).
func (gs *Games) ClubGame(ctx context.Context, tableID string) (club.Game, bool) {
	t, _, err := gs.st.Table(ctx, store.KindInPerson, tableID)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			gs.log.Warn("assist: a club's game cannot be read", "table", tableID, "err", err)
		}
		return club.Game{}, false
	}
	if t.Status != StatusEnded {
		return club.Game{}, false
	}
	var st stored
	if err := json.Unmarshal(t.Data, &st); err != nil || st.InPerson == nil {
		gs.log.Warn("assist: a club's game has bad data", "table", tableID, "err", err)
		return club.Game{}, false
	}
	log, err := gs.st.Events(ctx, t.ID)
	if err != nil {
		gs.log.Warn("assist: a club's game's log cannot be read", "table", tableID, "err", err)
		return club.Game{}, false
	}
	return clubGameOf(t, st.InPerson, record.Build(&st.InPerson.Settings, log), log), true
}
