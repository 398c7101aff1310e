package clubhttp

// This file serves two pages of a season besides its printable standings:
// a player's page (their line and their games and wins by role) and the
// wall sheet (the standings on one A4 page, for the club's wall).

import (
	"net/http"
	"strconv"

	"mafia/club"
	"mafia/engine"
	"mafia/locale"
	"mafia/store"
)

// personPage is one player's page of a season.
type personPage struct {
	page
	ClubID, Club string
	Season       club.Season
	Standing     club.Standing
	Roles        []roleRow
}

// roleRow is one row of a player's statistics by role, as the page shows it.
type roleRow struct {
	Role, Name string
	Games      int
	Wins       int
	WinRate    string // "67%", or "—" with no games
}

// roleName names a row of club.RoleRows in the printer's language: the
// sides by their team's name, the others by their card's.
func roleName(p *locale.Printer, row string) string {
	switch row {
	case "town":
		return p.Team(engine.TeamTown)
	case "mafia":
		return p.Team(engine.TeamMafia)
	}
	r, _ := engine.ParseRole(row)
	return p.Role(r)
}

// servePerson serves a player's page of a season: their place, points,
// games and average, and their games, wins and win rate by role.
func (h *Handler) servePerson(w http.ResponseWriter, r *http.Request) {
	st, roster, _, err := h.standingsOf(r.Context(), r.PathValue("club"), r.PathValue("season"))
	var line *club.Standing
	if err == nil {
		id := roster.Resolve(r.PathValue("person"))
		for i := range st.Standings {
			if st.Standings[i].Person == id && id != "" {
				line = &st.Standings[i]
			}
		}
		if line == nil {
			err = store.ErrNotFound
		}
	}
	if err != nil {
		_, status := h.resp.Refusal(r, err)
		render(w, status, "missing.html", h.newPage(r))
		return
	}
	pg := h.newPage(r)
	out := personPage{page: pg, ClubID: r.PathValue("club"), Club: st.Club, Season: st.Season, Standing: *line}
	for _, x := range line.ByRole {
		rate := "—"
		if x.Games > 0 {
			rate = strconv.Itoa(x.WinRate) + "%"
		}
		out.Roles = append(out.Roles, roleRow{Role: x.Role, Name: roleName(pg.p, x.Role), Games: x.Games, Wins: x.Wins, WinRate: rate})
	}
	render(w, http.StatusOK, "person.html", out)
}

// WallColumns are the wall sheet's columns (ids of club.StandingsHeader):
// what a player looks for on the club's wall.
var WallColumns = []string{"place", "name", "points", "games", "average", "wins"}

// wallPage is the wall sheet of a season.
type wallPage struct {
	page
	ClubID, Club string
	Season       club.Season
	Games        int
	Header       []string
	Cols         []string
	Rows         [][]string
	// Size is the sheet's type size class: wall-30 for up to 30 rows, and
	// smaller steps for more, so that every row fits one A4 page.
	Size string
}

// wallSize picks the type size class for n rows (print.css: .wall-30 …).
func wallSize(n int) string {
	for _, s := range []int{30, 40, 50, 60, 80} {
		if n <= s {
			return "wall-" + strconv.Itoa(s)
		}
	}
	return "wall-100"
}

// serveWall serves a season's standings as the wall sheet: one A4 page,
// portrait, in large type (30 rows fit at the largest size).
func (h *Handler) serveWall(w http.ResponseWriter, r *http.Request) {
	st, _, _, err := h.standingsOf(r.Context(), r.PathValue("club"), r.PathValue("season"))
	if err != nil {
		_, status := h.resp.Refusal(r, err)
		render(w, status, "missing.html", h.newPage(r))
		return
	}
	pg := h.newPage(r)
	idx := make([]int, len(WallColumns))
	for i, c := range WallColumns {
		for j, id := range club.StandingsHeader {
			if id == c {
				idx[i] = j
			}
		}
	}
	all := club.StandingsRows(st.Standings)
	rows := make([][]string, len(all))
	for k, row := range all {
		rows[k] = make([]string, len(idx))
		for i, j := range idx {
			rows[k][i] = row[j]
		}
	}
	out := wallPage{page: pg, ClubID: r.PathValue("club"), Club: st.Club, Season: st.Season, Games: st.Games,
		Header: named(pg.p, "assist.club.col.", WallColumns), Cols: WallColumns, Rows: rows, Size: wallSize(len(rows))}
	render(w, http.StatusOK, "wall.html", out)
}
