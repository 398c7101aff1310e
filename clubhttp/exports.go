package clubhttp

// This file answers a club's games in the JSON of other sport-mafia
// communities besides our own (club.Formats): one game, or a season's.

import (
	"net/http"
	"slices"

	"mafia/club"
	"mafia/engine"
	"mafia/store"
)

// ownGame is a game in our own format: the game as the club counts it and
// every seat's points under the club's scoring.
type ownGame struct {
	Game   club.Game   `json:"game"`
	Points []club.Line `json:"points"`
}

// exported lays games out in a format of club.Formats.
func exported(format, clubID string, sc club.Scoring, games []club.Game) []any {
	out := make([]any, 0, len(games))
	for i := range games {
		g := &games[i]
		switch format {
		case club.FormatMafiaRatings:
			out = append(out, club.MafiaRatings(g, clubID))
		case club.FormatPolemica:
			out = append(out, club.Polemica(g))
		default:
			out = append(out, ownGame{Game: *g, Points: sc.Score(g)})
		}
	}
	return out
}

// formatOf reads ?format= (our own when absent); an unknown one is refused
// bad_club, Name "format".
func formatOf(r *http.Request) (string, error) {
	f := r.URL.Query().Get("format")
	if f == "" {
		return club.FormatOwn, nil
	}
	if !slices.Contains(club.Formats, f) {
		return "", &engine.Error{Code: club.CodeBadClub, Name: "format", Value: f}
	}
	return f, nil
}

// gameExport answers one finished game of the club in a format.
func (h *Handler) gameExport(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	format, err := formatOf(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	c, sc, err := h.loadClub(ctx, r.PathValue("club"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	index, err := h.clubs().ClubGames(ctx, c.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	id := r.PathValue("game")
	if !slices.ContainsFunc(index, func(g store.ClubGame) bool { return g.TableID == id }) || h.cfg.Games == nil {
		h.fail(w, r, store.ErrNotFound)
		return
	}
	g, ok := h.cfg.Games.ClubGame(ctx, id)
	if !ok {
		h.fail(w, r, store.ErrNotFound)
		return
	}
	if g.ID == "" {
		g.ID = id
	}
	writeJSON(w, http.StatusOK, map[string]any{"format": format, "game": exported(format, c.ID, sc, []club.Game{g})[0]})
}

// seasonExport answers a season's finished games in a format.
func (h *Handler) seasonExport(w http.ResponseWriter, r *http.Request) {
	format, err := formatOf(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	st, _, games, err := h.standingsOf(r.Context(), r.PathValue("club"), r.PathValue("season"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"format": format, "season": st.Season,
		"games": exported(format, r.PathValue("club"), st.Scoring, games)})
}
