package account

// This file serves a player's page: GET /api/players/{name}.

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"

	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/rating"
	"mafia/store"
)

// RecentGames is how many games a profile lists.
const RecentGames = 20

// Tally is games played and won.
type Tally struct {
	Games int `json:"games"`
	Wins  int `json:"wins"`
}

// GameJSON is one finished game on a profile: its table (its review is at
// /t/{table}), the seat, its card and side, and whether that side won.
type GameJSON struct {
	Table   string `json:"table"`
	Name    string `json:"name"`
	Seat    int    `json:"seat"`
	Players int    `json:"players"`
	Role    string `json:"role,omitempty"`
	Side    string `json:"side,omitempty"`
	Winner  string `json:"winner"`
	Won     bool   `json:"won"`
	Ended   int64  `json:"ended_ms"`
	// Ratings are what a rated game did to the player's ratings (one per
	// kind it changed, overall first); absent for a game not rated.
	Ratings []GameRatingJSON `json:"ratings,omitempty"`
}

// RatingJSON is one rating at one moment: mean, spread and the ordinal
// (mu - 3 sigma) the leaderboards sort by (docs/ratings.md).
type RatingJSON struct {
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Ordinal float64 `json:"ordinal"`
}

// GameRatingJSON is one rating's change by one game: its kind (overall,
// town, mafia), before and after, and whether the player was rated as
// having left early.
type GameRatingJSON struct {
	Kind   string     `json:"kind"`
	Before RatingJSON `json:"before"`
	After  RatingJSON `json:"after"`
	Left   bool       `json:"left,omitempty"`
}

// ProfileJSON is a player's page: who, how many games, the wins by side
// and by card, the recent games (a private table's only to one of its
// players), and the ratings (filled by the ratings' part; absent without).
type ProfileJSON struct {
	Name    string           `json:"name"`
	Bot     bool             `json:"bot,omitempty"`
	Owner   string           `json:"owner,omitempty"`
	Created int64            `json:"created_ms"`
	Games   int              `json:"games"`
	Wins    int              `json:"wins"`
	BySide  map[string]Tally `json:"by_side"`
	ByRole  map[string]Tally `json:"by_role"`
	Recent  []GameJSON       `json:"recent"`
	Ratings any              `json:"ratings,omitempty"`
	// Clubs are the player's clubs; InPerson the club games of the roster
	// entries linked to the account (counted in Games, Wins, BySide and
	// ByRole too). Both filled by the clubs (AddClubs).
	Clubs    []ClubJSON `json:"clubs,omitempty"`
	InPerson Tally      `json:"in_person"`
	// Tables are the account's tables in online tournaments now (waiting
	// or playing), on its own page only (HandlerConfig.Tables).
	Tables []TournamentTableJSON `json:"tournament_tables,omitempty"`
	// Running are the tournaments the account referees or runs, on its
	// own page only (HandlerConfig.Running).
	Running []TournamentRunJSON `json:"tournaments_run,omitempty"`
}

// count counts one game of a card (as docs/rules.md spells it; "" or
// unknown: no side) in the tallies.
func (p *ProfileJSON) count(card string, won bool) {
	role, _ := engine.ParseRole(card)
	p.Games++
	if won {
		p.Wins++
	}
	if role == engine.RoleNone {
		return
	}
	side := role.Team().String()
	t, r := p.BySide[side], p.ByRole[role.String()]
	t.Games++
	r.Games++
	if won {
		t.Wins++
		r.Wins++
	}
	p.BySide[side], p.ByRole[role.String()] = t, r
}

// Profile builds a player's page from their games, as viewer (0: nobody
// logged in) may see it: every game counts in the tallies; the list holds
// the public tables' games, and a private table's only when the viewer is
// the player or sat there too.
func Profile(a store.Account, owner string, games []store.AccountGame, viewer int64) ProfileJSON {
	out := ProfileJSON{Name: a.Name, Bot: a.IsBot(), Owner: owner, Created: a.Created.UnixMilli(),
		BySide: map[string]Tally{}, ByRole: map[string]Tally{}, Recent: []GameJSON{}}
	for _, g := range games {
		role, _ := engine.ParseRole(g.Role)
		side := ""
		if role != engine.RoleNone {
			side = role.Team().String()
		}
		won := side != "" && side == g.Winner
		out.count(g.Role, won)
		if len(out.Recent) < RecentGames && (g.Public || g.ViewerSat || viewer == a.ID) {
			out.Recent = append(out.Recent, GameJSON{Table: g.Table, Name: g.Name, Seat: g.Seat, Players: g.Players,
				Role: role.String(), Side: side, Winner: g.Winner, Won: won, Ended: g.Ended.UnixMilli()})
		}
	}
	return out
}

func (h *Handler) profile(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	st := h.svc.cfg.Store
	a, err := Find(ctx, st, r.PathValue("name"))
	if errors.Is(err, store.ErrNotFound) {
		h.fail(w, r, &engine.Error{Code: httpapi.CodeNotFound})
		return
	}
	if err != nil {
		h.fail(w, r, internal(err))
		return
	}
	var viewer int64
	if p, err := h.svc.FromRequest(r); err == nil {
		viewer = p.Account.ID
	}
	games, err := st.AccountGames(ctx, a.ID, viewer, 0)
	if err != nil {
		h.fail(w, r, internal(err))
		return
	}
	owner := ""
	if a.IsBot() {
		if o, err := st.AccountByID(ctx, a.Owner); err == nil {
			owner = o.Name
		}
	}
	out := Profile(a, owner, games, viewer)
	if err := withRatings(ctx, st, a.ID, out.Recent); err != nil {
		h.fail(w, r, internal(err))
		return
	}
	if h.cfg.Clubs != nil {
		pc, err := h.cfg.Clubs(ctx, a.ID)
		if err != nil {
			h.fail(w, r, internal(err))
			return
		}
		out.AddClubs(pc)
	}
	if h.cfg.Tables != nil && viewer == a.ID {
		if out.Tables, err = h.cfg.Tables(ctx, a.ID); err != nil {
			h.fail(w, r, internal(err))
			return
		}
	}
	if h.cfg.Running != nil && viewer == a.ID {
		if out.Running, err = h.cfg.Running(ctx, a.ID); err != nil {
			h.fail(w, r, internal(err))
			return
		}
	}
	if h.cfg.Ratings != nil {
		if out.Ratings, err = h.cfg.Ratings(ctx, a.ID); err != nil {
			h.fail(w, r, internal(err))
			return
		}
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
}

// withRatings adds to each listed game what it did to the player's ratings,
// from the store's rating history. The history is read for the listed
// games' worth of changes (three kinds a game at most, and room for the
// unlisted private games between them).
func withRatings(ctx context.Context, rs store.Ratings, account int64, games []GameJSON) error {
	if len(games) == 0 {
		return nil
	}
	hist, err := rs.RatingHistory(ctx, strconv.FormatInt(account, 10), 6*RecentGames)
	if err != nil {
		return err
	}
	by := map[string][]GameRatingJSON{}
	for _, c := range hist {
		by[c.Game] = append(by[c.Game], GameRatingJSON{Kind: string(c.Kind), Before: ratingJSON(c.Before), After: ratingJSON(c.After), Left: c.Left})
	}
	order := map[string]int{}
	for i, k := range rating.Kinds {
		order[string(k)] = i
	}
	for i := range games {
		rs := by[games[i].Table]
		slices.SortFunc(rs, func(a, b GameRatingJSON) int { return order[a.Kind] - order[b.Kind] })
		games[i].Ratings = rs
	}
	return nil
}

func ratingJSON(r rating.Rating) RatingJSON {
	return RatingJSON{Mu: r.Mu, Sigma: r.Sigma, Ordinal: r.Ordinal()}
}
