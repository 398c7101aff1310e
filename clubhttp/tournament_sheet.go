package clubhttp

// This file serves a tournament's public sheet: its standings as JSON, as
// CSV (translated headers, or the columns' ids for machines), and the
// printable page of the standings and of every round's seating, each table
// with a link that opens the assistant's setup with its players.

import (
	"net/http"
	"slices"
	"strconv"

	"mafia/club"
	"mafia/locale"
	"mafia/store"
	"mafia/tournament"
)

// tournamentStandings is a tournament's standings as the API answers them.
type tournamentStandings struct {
	Club       string                `json:"club"`
	Tournament string                `json:"tournament"`
	Name       string                `json:"name"`
	State      string                `json:"state"`
	TieBreaks  []tournament.TieBreak `json:"tie_breaks"`
	Final      tournament.Final      `json:"final"`
	Standings  []tournament.Standing `json:"standings"`
	Games      int                   `json:"games"` // the linked games counted
}

func (h *Handler) tournamentStandingsOf(r *http.Request) (*tournamentStandings, store.Tournament, tournament.Tournament, *club.Roster, error) {
	ctx := r.Context()
	if err := h.syncOnline(ctx, r.PathValue("club"), r.PathValue("t")); err != nil {
		return nil, store.Tournament{}, tournament.Tournament{}, nil, err
	}
	st, t, roster, err := h.loadTournament(ctx, r.PathValue("club"), r.PathValue("t"))
	if err != nil {
		return nil, st, t, roster, err
	}
	games, err := h.tournamentGames(ctx, &t)
	if err != nil {
		return nil, st, t, roster, err
	}
	n := 0
	for _, g := range games {
		if g.Winner != "" {
			n++
		}
	}
	return &tournamentStandings{Club: t.ClubID, Tournament: t.ID, Name: t.Name, State: t.State, TieBreaks: t.TieBreaks,
		Final: t.Final, Standings: t.Standings(roster, games), Games: n}, st, t, roster, nil
}

func (h *Handler) tournamentStandingsJSON(w http.ResponseWriter, r *http.Request) {
	out, _, _, _, err := h.tournamentStandingsOf(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (h *Handler) tournamentStandingsCSV(w http.ResponseWriter, r *http.Request) {
	out, _, _, _, err := h.tournamentStandingsOf(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	p := locale.New(langOf(r))
	writeCSV(w, csvName(r, "tournament-"+out.Tournament), header(r, p, "tournament.col.", tournament.StandingsHeader),
		tournament.StandingsRows(out.Standings))
}

// tournamentGamesCSV serves GET …/tournaments/{t}/games.csv[?header=ids]:
// the tournament's games, in the order of its rounds and tables, one row a
// seat under club.CSVHeader as the club's games' CSV writes them (the rules
// code, the best move, the extras and the points under the tournament's
// scoring); a table played online has its seats' players from the round's
// seating.
func (h *Handler) tournamentGamesCSV(w http.ResponseWriter, r *http.Request) {
	t, roster, games, err := h.tournamentGameList(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	list := make([]club.Game, 0, len(games))
	for _, tg := range games {
		list = append(list, tg.Game)
	}
	p := locale.New(langOf(r))
	writeCSV(w, csvName(r, "tournament-games-"+t.ID), header(r, p, "assist.club.csv.", club.CSVHeader), t.Scoring.Rows(roster, list))
}

// tournamentPage is the printable page of a tournament.
type tournamentPage struct {
	page
	ClubID string
	Tour   tournament.Tournament
	Games  int
	Header []string
	Cols   []string
	Rows   [][]string
	Rounds []roundView
	// RoleHeader names club.RoleRows; RoleRows are each player's wins of
	// games per role ("2/3", or "—" with none).
	RoleHeader []string
	RoleRows   []roleCells
}

// roleCells is one player's line of the page's table by role.
type roleCells struct {
	Name  string
	Cells []string
}

// roundView is one round of the page: its title and its tables.
type roundView struct {
	Title  string
	Tables []tableView
}

// tableView is one table of a round: its title, its players by seat, its
// game (if linked) and the assistant's setup for it.
type tableView struct {
	Title string
	Seats []seatLine
	Game  string
	Setup string
	// Online: the table was opened online; Setup is then its table's
	// page, where its players sit and anyone watches.
	Online bool
	// Export is the address of its game's JSON (exports_tournament.go),
	// once linked.
	Export string
}

// seatLine is one seat of a table on the page: its number and its player.
type seatLine struct {
	N    int
	Name string
}

// serveTournament serves a tournament's printable page.
func (h *Handler) serveTournament(w http.ResponseWriter, r *http.Request) {
	out, _, t, roster, err := h.tournamentStandingsOf(r)
	if err != nil {
		_, status := h.resp.Refusal(r, err)
		render(w, status, "missing.html", h.newPage(r))
		return
	}
	pg := h.newPage(r)
	view := tournamentPage{page: pg, ClubID: t.ClubID, Tour: t, Games: out.Games,
		Header: named(pg.p, "tournament.col.", pageColumns), Cols: pageColumns, Rows: pageRows(out.Standings)}
	for _, r := range club.RoleRows {
		view.RoleHeader = append(view.RoleHeader, roleName(pg.p, r))
	}
	for _, s := range out.Standings {
		rc := roleCells{Name: s.Name}
		for _, l := range s.ByRole {
			c := "—"
			if l.Games > 0 {
				c = strconv.Itoa(l.Wins) + "/" + strconv.Itoa(l.Games)
			}
			rc.Cells = append(rc.Cells, c)
		}
		view.RoleRows = append(view.RoleRows, rc)
	}
	final := 0
	for r, round := range t.Rounds {
		rv := roundView{Title: pg.p.T("tournament.round", map[string]any{"N": r + 1})}
		if round.Final {
			final++
			rv.Title = pg.p.T("tournament.final_game", map[string]any{"N": final})
		}
		for n, tb := range round.Tables {
			tv := tableView{Title: pg.p.T("tournament.table", map[string]any{"N": n + 1}), Game: tb.Game,
				Setup: SetupURL(t.ClubID, t.ID, r+1, n+1)}
			if tb.Online != "" {
				tv.Setup, tv.Online = TableLink(tb.Online), true
			}
			if tb.Game != "" {
				tv.Export = "/host/api/clubs/" + t.ClubID + "/tournaments/" + t.ID + "/rounds/" + strconv.Itoa(r+1) +
					"/tables/" + strconv.Itoa(n+1) + "/export.json"
			}
			for i, p := range tb.Players {
				name := p
				if pp, ok := roster.Person(p); ok {
					name = pp.Name
				}
				tv.Seats = append(tv.Seats, seatLine{N: i + 1, Name: name})
			}
			rv.Tables = append(rv.Tables, tv)
		}
		view.Rounds = append(view.Rounds, rv)
	}
	render(w, http.StatusOK, "tournament.html", view)
}

// pageColumns are the standings' columns the page shows (all of them are in
// the CSV): few enough for a phone's 360 px.
var pageColumns = []string{"place", "name", "points", "final"}

// pageRows are the standings' rows in pageColumns' order.
func pageRows(st []tournament.Standing) [][]string {
	all := tournament.StandingsRows(st)
	idx := make([]int, len(pageColumns))
	for i, c := range pageColumns {
		idx[i] = slices.Index(tournament.StandingsHeader, c)
	}
	out := make([][]string, len(all))
	for r, row := range all {
		out[r] = make([]string, len(idx))
		for i, j := range idx {
			out[r][i] = row[j]
		}
	}
	return out
}
