package clubhttp

// This file serves a club's leaderboard (docs/ratings.md, "A club's
// board"): the site's ratings of the club's members alone, ranked from 1
// among themselves, at GET /api/clubs/{club}/ratings; the site's board
// (GET /api/ratings, package server) sends ?club= here.

import (
	"net/http"
	"strconv"
	"time"

	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/rating"
	"mafia/store"
)

// MaxBoard is the most rows one request of a club's board returns (the
// site's board's page too).
const MaxBoard = 100

// boardJSON is a club's board, in the shape of the site's
// (server.LeaderboardJSON), with the club's id.
type boardJSON struct {
	Kind      string         `json:"kind"`
	Season    string         `json:"season,omitempty"`
	Club      string         `json:"club"`
	Standings []standingJSON `json:"standings"`
}

// standingJSON is one row of a club's board: a member's rating and name
// (server.StandingJSON's shape).
type standingJSON struct {
	Rank    int     `json:"rank"`
	Name    string  `json:"name"`
	Bot     bool    `json:"bot,omitempty"`
	Kind    string  `json:"kind"`
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Ordinal float64 `json:"ordinal"`
	Games   int     `json:"games"`
	Wins    int     `json:"wins"`
}

// boardQuery reads a board's query: kind (overall, town, mafia; overall
// by default), season (a year, "" for all time) and offset; bad_request
// naming the field otherwise.
func boardQuery(r *http.Request) (store.LeaderboardQuery, error) {
	q := r.URL.Query()
	bad := func(name, v string) error { return &engine.Error{Code: httpapi.CodeBadRequest, Name: name, Value: v} }
	lq := store.LeaderboardQuery{Kind: rating.Kind(q.Get("kind")), Limit: MaxBoard}
	switch lq.Kind {
	case "":
		lq.Kind = rating.Overall
	case rating.Overall, rating.AsTown, rating.AsMafia:
	default:
		return lq, bad("kind", string(lq.Kind))
	}
	if s := q.Get("season"); s != "" {
		y, err := strconv.Atoi(s)
		if err != nil || len(s) != 4 || y < 2000 {
			return lq, bad("season", s)
		}
		lq.From = time.Date(y, time.January, 1, 0, 0, 0, 0, time.UTC)
		lq.To = lq.From.AddDate(1, 0, 0)
	}
	if o := q.Get("offset"); o != "" {
		n, err := strconv.Atoi(o)
		if err != nil || n < 0 || n > 1_000_000 {
			return lq, bad("offset", o)
		}
		lq.Offset = n
	}
	return lq, nil
}

// board serves GET /api/clubs/{club}/ratings?kind=&season=&offset=: the
// club's members (store.ClubMembers) ranked among themselves, in one query
// of the store's (store.LeaderboardQuery.Players); not_found for no such
// club.
func (h *Handler) board(w http.ResponseWriter, r *http.Request) {
	lq, err := boardQuery(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	ctx, id := r.Context(), r.PathValue("club")
	if _, err := h.clubs().Club(ctx, id); err != nil {
		h.fail(w, r, err)
		return
	}
	members, err := h.members().ClubMembers(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	lq.Players = make([]string, 0, len(members))
	for _, m := range members {
		lq.Players = append(lq.Players, strconv.FormatInt(m.Account, 10))
	}
	rows, err := h.cfg.Store.Leaderboard(ctx, lq)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	out := boardJSON{Kind: string(lq.Kind), Season: r.URL.Query().Get("season"), Club: id, Standings: make([]standingJSON, 0, len(rows))}
	for _, row := range rows {
		acct, err := strconv.ParseInt(row.Player, 10, 64)
		if err != nil {
			continue // not an account's id
		}
		a, err := h.accounts().AccountByID(ctx, acct)
		if err != nil {
			continue // an account deleted since
		}
		out.Standings = append(out.Standings, standingJSON{Rank: row.Rank, Name: a.Name, Bot: a.IsBot(), Kind: string(lq.Kind),
			Mu: row.Rating.Mu, Sigma: row.Rating.Sigma, Ordinal: row.Rating.Ordinal(), Games: row.Games, Wins: row.Wins})
	}
	writeJSON(w, http.StatusOK, out)
}
