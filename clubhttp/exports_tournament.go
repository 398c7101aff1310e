package clubhttp

// This file answers a tournament's games in the export formats
// (club.Formats), as exports.go does a club's: the tournament's finished
// games, or one round's table's. A table played online is no game of the
// club's index, so these are its only JSON: built from the online game's
// record as the standings count it (the same club.Game: rules code, best
// move, the organiser's extras, fouls), each seat's player from the
// round's seating.

import (
	"net/http"
	"slices"
	"strconv"

	"mafia/club"
	"mafia/engine"
	"mafia/store"
	"mafia/tournament"
)

// tournamentGame is one finished game of a tournament and where it was
// played (round and table from 1).
type tournamentGame struct {
	Round, Table int
	Game         club.Game
}

// tournamentGameList is the tournament's finished games in the order of
// its rounds and tables. A game played online has each seat's player from
// the round's seating (an absent seat left without one).
func (h *Handler) tournamentGameList(r *http.Request) (tournament.Tournament, *club.Roster, []tournamentGame, error) {
	_, _, t, roster, err := h.tournamentStandingsOf(r)
	if err != nil {
		return t, roster, nil, err
	}
	games, err := h.tournamentGames(r.Context(), &t)
	if err != nil {
		return t, roster, nil, err
	}
	var list []tournamentGame
	for ri, round := range t.Rounds {
		for ti, tb := range round.Tables {
			g, ok := games[tb.Game]
			if !ok || tb.Game == "" || g.Winner == "" {
				continue
			}
			if tb.Online != "" {
				g.Seats = slices.Clone(g.Seats)
				for i := range g.Seats {
					if i < len(tb.Players) && !slices.Contains(tb.Absent, i+1) {
						g.Seats[i].Person = tb.Players[i]
					}
				}
			}
			list = append(list, tournamentGame{Round: ri + 1, Table: ti + 1, Game: g})
		}
	}
	return t, roster, list, nil
}

// exportable is a tournament's game as the export formats lay it out: what
// the online game's record does not say is the tournament's (its name, the
// table's number, the round as the game's number, the referee); a game
// made by the assistant keeps its own.
func exportable(t *tournament.Tournament, tg tournamentGame) club.Game {
	g := tg.Game
	if g.ID == "" {
		g.ID = t.Rounds[tg.Round-1].Tables[tg.Table-1].Game
	}
	if g.Name == "" {
		g.Name = t.Name
	}
	if g.Table == "" {
		g.Table = strconv.Itoa(tg.Table)
	}
	if g.Number == 0 {
		g.Number = tg.Round
	}
	if g.Referee == "" {
		g.Referee = t.Referee
	}
	return g
}

// tournamentExport serves GET …/tournaments/{t}/games.json[?format=]: the
// tournament's finished games in a format of club.Formats (ours when
// absent; ours counts each seat's points under the tournament's scoring).
func (h *Handler) tournamentExport(w http.ResponseWriter, r *http.Request) {
	format, err := formatOf(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	t, _, list, err := h.tournamentGameList(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	games := make([]club.Game, 0, len(list))
	for _, tg := range list {
		games = append(games, exportable(&t, tg))
	}
	writeJSON(w, http.StatusOK, map[string]any{"format": format, "tournament": t.ID,
		"games": exported(format, t.ClubID, t.Scoring, games)})
}

// tournamentTableExport serves GET
// …/tournaments/{t}/rounds/{round}/tables/{table}/export.json[?format=]:
// the game of one round's table, online or at a real table, once it is
// over and linked (not_found before; a round or table that is no number,
// bad_tournament).
func (h *Handler) tournamentTableExport(w http.ResponseWriter, r *http.Request) {
	format, err := formatOf(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	round, err1 := strconv.Atoi(r.PathValue("round"))
	table, err2 := strconv.Atoi(r.PathValue("table"))
	if err1 != nil || err2 != nil {
		h.fail(w, r, &engine.Error{Code: tournament.CodeBadTournament, Name: "table"})
		return
	}
	t, _, list, err := h.tournamentGameList(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	i := slices.IndexFunc(list, func(tg tournamentGame) bool { return tg.Round == round && tg.Table == table })
	if i < 0 {
		h.fail(w, r, store.ErrNotFound)
		return
	}
	g := exportable(&t, list[i])
	writeJSON(w, http.StatusOK, map[string]any{"format": format, "tournament": t.ID, "round": round, "table": table,
		"game": exported(format, t.ClubID, t.Scoring, []club.Game{g})[0]})
}
