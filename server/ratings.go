package server

// This file serves the players' ratings (docs/ratings.md): the
// leaderboards at GET /api/ratings, and a player's ratings for their page
// (PlayerRatings, which the accounts' handler puts in the profile).

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"mafia/engine"
	"mafia/rating"
	"mafia/room"
	"mafia/store"
)

// MaxLeaderboard is the most rows one leaderboard request returns.
const MaxLeaderboard = 100

// RatingJSON is one rating as the API shows it.
type RatingJSON struct {
	Kind    string  `json:"kind"`
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Ordinal float64 `json:"ordinal"`
	Games   int     `json:"games"`
	Wins    int     `json:"wins"`
}

// StandingJSON is one row of a leaderboard: a rating and whose.
type StandingJSON struct {
	Rank int    `json:"rank"`
	Name string `json:"name"`
	Bot  bool   `json:"bot,omitempty"`
	RatingJSON
}

// LeaderboardJSON is the answer of GET /api/ratings.
type LeaderboardJSON struct {
	Kind      string         `json:"kind"`
	Season    string         `json:"season,omitempty"`
	Standings []StandingJSON `json:"standings"`
}

func ratingJSON(k rating.Kind, r rating.Rating, games, wins int) RatingJSON {
	return RatingJSON{Kind: string(k), Mu: r.Mu, Sigma: r.Sigma, Ordinal: r.Ordinal(), Games: games, Wins: wins}
}

// season reads a season: a year ("2026", from its first of January to the
// next, UTC); "" is all time.
func season(s string) (from, to time.Time, err error) {
	if s == "" {
		return
	}
	y, perr := strconv.Atoi(s)
	if perr != nil || len(s) != 4 || y < 2000 {
		return from, to, &engine.Error{Code: room.CodeBadRequest, Name: "season", Value: s}
	}
	from = time.Date(y, time.January, 1, 0, 0, 0, 0, time.UTC)
	return from, from.AddDate(1, 0, 0), nil
}

// leaderboard serves GET /api/ratings?kind=overall|town|mafia&season=YYYY
// &offset=N: up to MaxLeaderboard rows by the ordinal, highest first. A
// club's board is the club's (package clubhttp): ?club=ID is sent to
// /api/clubs/{ID}/ratings with the rest of the query (308).
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) {
	rs, accts := s.cfg.Store, s.cfg.Store
	q := r.URL.Query()
	if clubID := q.Get("club"); clubID != "" {
		q.Del("club")
		to := "/api/clubs/" + url.PathEscape(clubID) + "/ratings"
		if len(q) > 0 {
			to += "?" + q.Encode()
		}
		http.Redirect(w, r, to, http.StatusPermanentRedirect)
		return
	}
	kind := rating.Kind(q.Get("kind"))
	if kind == "" {
		kind = rating.Overall
	}
	if kind != rating.Overall && kind != rating.AsTown && kind != rating.AsMafia {
		s.fail(w, r, &engine.Error{Code: room.CodeBadRequest, Name: "kind", Value: string(kind)})
		return
	}
	from, to, err := season(q.Get("season"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	offset := 0
	if o := q.Get("offset"); o != "" {
		if offset, err = strconv.Atoi(o); err != nil || offset < 0 || offset > 1_000_000 {
			s.fail(w, r, &engine.Error{Code: room.CodeBadRequest, Name: "offset", Value: o})
			return
		}
	}
	lq := store.LeaderboardQuery{Kind: kind, From: from, To: to, Limit: MaxLeaderboard, Offset: offset}
	rows, err := rs.Leaderboard(r.Context(), lq)
	if err != nil {
		s.log.Error("leaderboard", "err", err)
		s.fail(w, r, &engine.Error{Code: room.CodeInternal})
		return
	}
	out := LeaderboardJSON{Kind: string(kind), Season: q.Get("season"), Standings: make([]StandingJSON, 0, len(rows))}
	for _, row := range rows {
		id, err := strconv.ParseInt(row.Player, 10, 64)
		if err != nil {
			continue // not an account's id: an in-person player's, not on the site's boards
		}
		a, err := accts.AccountByID(r.Context(), id)
		if err != nil {
			continue // an account deleted since
		}
		out.Standings = append(out.Standings, StandingJSON{Rank: row.Rank, Name: a.Name, Bot: a.IsBot(),
			RatingJSON: ratingJSON(kind, row.Rating, row.Games, row.Wins)})
	}
	writeJSON(w, http.StatusOK, out)
}

// PlayerRatings is an account's ratings for their page
// (account.HandlerConfig.Ratings): one RatingJSON per kind the player has,
// in the order of rating.Kinds; an empty list for one never rated.
func (s *Server) PlayerRatings(ctx context.Context, account int64) (any, error) {
	out := []RatingJSON{}
	prs, err := s.cfg.Store.PlayerRatings(ctx, strconv.FormatInt(account, 10))
	if err != nil {
		return nil, err
	}
	for _, pr := range prs {
		out = append(out, ratingJSON(pr.Kind, pr.Rating, pr.Games, pr.Wins))
	}
	return out, nil
}
