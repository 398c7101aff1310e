package clubhttp

import (
	"context"
	"encoding/csv"
	"io"
	"net/http"

	"mafia/club"
	"mafia/locale"
	"mafia/store"
)

// season loads a club, its scoring and one of its seasons, for the
// public sheet (standings, CSV).
func (h *Handler) season(ctx context.Context, clubID, seasonID string) (store.Club, club.Scoring, club.Season, error) {
	c, sc, err := h.loadClub(ctx, clubID)
	if err != nil {
		return c, sc, club.Season{}, err
	}
	seasons, err := h.clubs().Seasons(ctx, c.ID)
	if err != nil {
		return c, sc, club.Season{}, err
	}
	for _, s := range seasons {
		if s.ID == seasonID {
			return c, sc, club.Season{ID: s.ID, Name: s.Name, From: s.From, To: s.To}, nil
		}
	}
	return c, sc, club.Season{}, store.ErrNotFound
}

// standings is a season's standings and the games they count.
type standings struct {
	Club      string          `json:"club"`
	Season    club.Season     `json:"season"`
	Scoring   club.Scoring    `json:"scoring"`
	Standings []club.Standing `json:"standings"`
	Games     int             `json:"games"`
}

func (h *Handler) standingsOf(ctx context.Context, clubID, seasonID string) (*standings, *club.Roster, []club.Game, error) {
	c, sc, s, err := h.season(ctx, clubID, seasonID)
	if err != nil {
		return nil, nil, nil, err
	}
	people, err := h.people(ctx, c.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	games, err := h.clubGames(ctx, c.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	in := []club.Game{}
	for _, g := range games {
		if s.Holds(g.Date) {
			in = append(in, g)
		}
	}
	roster := club.NewRoster(people)
	return &standings{Club: c.Name, Season: s, Scoring: sc, Standings: sc.Standings(s, roster, in), Games: len(in)}, roster, in, nil
}

func (h *Handler) standingsJSON(w http.ResponseWriter, r *http.Request) {
	st, _, _, err := h.standingsOf(r.Context(), r.PathValue("club"), r.PathValue("season"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// bom is UTF-8's byte-order mark, which spreadsheets take as "this file
// is UTF-8" (the protocol's CSV has it too).
const bom = "\ufeff"

// writeCSV answers rows as CSV as the protocol's CSV is (UTF-8 with a
// byte-order mark), under a header row of the catalogs' column names.
func writeCSV(w http.ResponseWriter, name string, header []string, rows [][]string) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	_, _ = io.WriteString(w, bom)
	cw := csv.NewWriter(w)
	_ = cw.Write(header)
	_ = cw.WriteAll(rows)
}

// IDsHeader is the query (?header=ids) that asks a CSV for its columns'
// ids (English snake_case, the same in every language: docs/club.md) in
// its header row, for machines, instead of the catalogs' column names.
const IDsHeader = "ids"

// idsWanted tells whether the request asks for the CSV with column ids.
func idsWanted(r *http.Request) bool { return r.URL.Query().Get("header") == IDsHeader }

// csvName is a CSV's file name: the one with column ids ends in .ids.csv.
func csvName(r *http.Request, base string) string {
	if idsWanted(r) {
		return base + ".ids.csv"
	}
	return base + ".csv"
}

// header is the header row of a CSV: the catalogs' names of the columns
// (prefix+id) in the printer's language, or the ids themselves when the
// request asks for them (?header=ids).
func header(r *http.Request, p *locale.Printer, prefix string, ids []string) []string {
	if idsWanted(r) {
		return append([]string(nil), ids...)
	}
	return named(p, prefix, ids)
}

// named is the catalogs' names of the columns (prefix+id) in the printer's
// language.
func named(p *locale.Printer, prefix string, ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = p.T(prefix+id, nil)
	}
	return out
}

// standingsCSV answers a season's standings as CSV, one row per person.
func (h *Handler) standingsCSV(w http.ResponseWriter, r *http.Request) {
	st, _, _, err := h.standingsOf(r.Context(), r.PathValue("club"), r.PathValue("season"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	p := locale.New(langOf(r))
	writeCSV(w, csvName(r, "standings-"+st.Season.ID), header(r, p, "assist.club.col.", club.StandingsHeader), club.StandingsRows(st.Standings))
}

// clubGamesCSV answers a club's games as CSV, one row per player per game
// (club.Rows): every finished game, or a season's (?season=).
func (h *Handler) clubGamesCSV(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var roster *club.Roster
	var games []club.Game
	var sc club.Scoring
	name := "games"
	if sid := r.URL.Query().Get("season"); sid != "" {
		st, ro, gs, err := h.standingsOf(ctx, r.PathValue("club"), sid)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		roster, games, sc, name = ro, gs, st.Scoring, "games-"+sid
	} else {
		c, s, err := h.loadClub(ctx, r.PathValue("club"))
		if err != nil {
			h.fail(w, r, err)
			return
		}
		people, err := h.people(ctx, c.ID)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		if games, err = h.clubGames(ctx, c.ID); err != nil {
			h.fail(w, r, err)
			return
		}
		roster, sc = club.NewRoster(people), s
	}
	p := locale.New(langOf(r))
	writeCSV(w, csvName(r, name), header(r, p, "assist.club.csv.", club.CSVHeader), sc.Rows(roster, games))
}

// standingsPage is the printable standings of a season.
type standingsPage struct {
	page
	ClubID, Club string
	Season       club.Season
	Games        int
	Header       []string
	Cols         []string // each column's id (club.StandingsHeader): its cells' class, c-<id>
	Rows         [][]string
}

// serveStandings serves a season's printable standings.
func (h *Handler) serveStandings(w http.ResponseWriter, r *http.Request) {
	st, _, _, err := h.standingsOf(r.Context(), r.PathValue("club"), r.PathValue("season"))
	if err != nil {
		_, status := h.resp.Refusal(r, err)
		render(w, status, "missing.html", h.newPage(r))
		return
	}
	pg := h.newPage(r)
	out := standingsPage{page: pg, ClubID: r.PathValue("club"), Club: st.Club, Season: st.Season, Games: st.Games,
		Header: named(pg.p, "assist.club.col.", club.StandingsHeader[:club.StandingsPrinted]), Cols: club.StandingsHeader[:club.StandingsPrinted]}
	for _, row := range club.StandingsRows(st.Standings) {
		out.Rows = append(out.Rows, row[:club.StandingsPrinted])
	}
	render(w, http.StatusOK, "standings.html", out)
}
