package clubhttp

// This file serves a club's tournaments to their organiser (docs/club.md,
// Tournaments): made by the club's host (its code or a login of an owner or
// host), its rounds seated by the generator, each round's table linked to
// the club's game played there, the final seated after the last round,
// and the tournament closed. Reading a tournament (its seating) and its
// standings is anyone's, as a season's standings are (tournament_sheet.go).

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"

	"mafia/club"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/internal/secret"
	"mafia/store"
	"mafia/tournament"
)

// tournamentRoutes adds the tournaments' routes to the club's mux.
func (h *Handler) tournamentRoutes(m *http.ServeMux) {
	const base = "/host/api/clubs/{club}/tournaments"
	m.HandleFunc("POST "+base, h.createTournament)
	m.HandleFunc("GET "+base, h.listTournaments)
	m.HandleFunc("GET "+base+"/{t}", h.getTournament)
	m.HandleFunc("POST "+base+"/{t}/rounds", h.seatRounds)
	m.HandleFunc("PUT "+base+"/{t}/rounds/{round}/tables/{table}/game", h.linkTournamentGame)
	m.HandleFunc("DELETE "+base+"/{t}/rounds/{round}/tables/{table}/game", h.unlinkTournamentGame)
	m.HandleFunc("POST "+base+"/{t}/final", h.seatFinal)
	m.HandleFunc("POST "+base+"/{t}/close", h.closeTournament)
	m.HandleFunc("PUT "+base+"/{t}/referee", h.setReferee)
	m.HandleFunc("GET "+base+"/{t}/standings.json", h.tournamentStandingsJSON)
	m.HandleFunc("GET "+base+"/{t}/standings.csv", h.tournamentStandingsCSV)
	m.HandleFunc("GET "+base+"/{t}/games.csv", h.tournamentGamesCSV)
	m.HandleFunc("GET "+base+"/{t}/games.json", h.tournamentExport)
	m.HandleFunc("GET "+base+"/{t}/rounds/{round}/tables/{table}/export.json", h.tournamentTableExport)
	m.HandleFunc("GET /host/clubs/{club}/tournaments/{t}", h.serveTournament)
	h.onlineRoutes(m)
}

// tournamentRequest is the body of a tournament's making: zero fields take
// their defaults (tournament.Config), the scoring the club's.
type tournamentRequest struct {
	Name    string `json:"name"`
	From    string `json:"from"`
	To      string `json:"to"`
	Host    string `json:"host"`
	Referee string `json:"referee"`
	// RefereeAccount is the name of the referee's account on the site
	// (empty: none): it may give the tables' extra points (referee.go).
	RefereeAccount string   `json:"referee_account"`
	Players        []string `json:"players"`
	// Scoring is the tournament's scoring (none: the club's): a named
	// preset's numbers, each number given beside it overriding the
	// preset's (tournamentScoring).
	Scoring   json.RawMessage       `json:"scoring"`
	Tables    int                   `json:"tables"`
	Seats     int                   `json:"seats"`
	Games     int                   `json:"games"`
	Seed      uint64                `json:"seed"`
	Avoid     [][2]string           `json:"avoid"`
	Final     *tournament.Final     `json:"final"`
	TieBreaks []tournament.TieBreak `json:"tie_breaks"`
	// Online, if set, plays the rounds online (tournament.Online).
	Online *tournament.Online `json:"online"`
}

// tournamentJSON is a tournament as the API answers it: the tournament,
// the names of its players (roster id to name), its version, and for each
// round's table the assistant's setup with the table's players.
type tournamentJSON struct {
	tournament.Tournament
	Names   map[string]string `json:"names"`
	Version int               `json:"version"`
	Setup   [][]string        `json:"setup"` // Setup[r][t]: the assistant's setup for round r+1's table t+1
	// Role is who asks, as the organiser's screen shows the tournament
	// (viewerRole): "organiser", "referee" or "public".
	Role string `json:"role"`
	// HostExtra[r][t] are the extras the host of round r+1's real table
	// t+1 gave on the assistant, once its game is linked (hostExtras).
	HostExtra [][][]club.Extra `json:"host_extra"`
}

// SetupURL is the assistant's setup for one table of a tournament's round:
// the setup reads the club, the tournament, the round and the table from
// its address, seats the table's players from the roster, and the game it
// makes is linked to that round's table when the server has it.
func SetupURL(clubID, tournamentID string, round, table int) string {
	return "/host/#/new?club=" + clubID + "&tournament=" + tournamentID + "&round=" + strconv.Itoa(round) +
		"&table=" + strconv.Itoa(table)
}

// loadTournament reads a tournament of the club in the request's path (a
// tournament of another club is not found) and the club's roster.
func (h *Handler) loadTournament(ctx context.Context, clubID, id string) (store.Tournament, tournament.Tournament, *club.Roster, error) {
	st, err := h.cfg.Store.Tournament(ctx, id)
	if err != nil {
		return st, tournament.Tournament{}, nil, err
	}
	if st.ClubID != clubID {
		return st, tournament.Tournament{}, nil, store.ErrNotFound
	}
	var t tournament.Tournament
	if err := json.Unmarshal(st.Data, &t); err != nil {
		return st, t, nil, errors.Join(store.ErrDamaged, err)
	}
	people, err := h.people(ctx, clubID)
	if err != nil {
		return st, t, nil, err
	}
	return st, t, club.NewRoster(people), nil
}

func (h *Handler) tournamentOut(st store.Tournament, t tournament.Tournament, roster *club.Roster) tournamentJSON {
	out := tournamentJSON{Tournament: t, Names: map[string]string{}, Version: st.Version, Setup: [][]string{}}
	out.RefereeAccount = 0 // the account's id is the server's: its name (referee_login) shows
	for _, p := range t.Players {
		if pp, ok := roster.Person(p); ok {
			out.Names[p] = pp.Name
		}
	}
	for r, round := range t.Rounds {
		urls := make([]string, len(round.Tables))
		for n := range round.Tables {
			urls[n] = SetupURL(t.ClubID, t.ID, r+1, n+1)
		}
		out.Setup = append(out.Setup, urls)
	}
	return out
}

func (h *Handler) createTournament(w http.ResponseWriter, r *http.Request) {
	var req tournamentRequest
	c, sc, ok := h.clubChange(w, r, &req, 64<<10)
	if !ok {
		return
	}
	sc, err := tournamentScoring(req.Scoring, sc)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	people, err := h.people(r.Context(), c.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	roster := club.NewRoster(people)
	t, err := tournament.New(tournament.Config{ID: secret.Token()[:16], ClubID: c.ID, Name: req.Name, From: req.From, To: req.To,
		Host: req.Host, Referee: req.Referee, Players: req.Players, Scoring: sc, Tables: req.Tables, Seats: req.Seats,
		Games: req.Games, Seed: req.Seed, Avoid: req.Avoid, Final: req.Final, TieBreaks: req.TieBreaks, Online: req.Online}, roster)
	if err == nil && req.RefereeAccount != "" {
		err = h.nameReferee(r.Context(), &t, req.Referee, req.RefereeAccount)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	data, _ := json.Marshal(t)
	st := store.Tournament{ID: t.ID, ClubID: c.ID, Name: t.Name, State: t.State, Data: data, Version: 1, CreatedAt: h.cfg.Now().UTC(),
		RefereeAccount: t.RefereeAccount}
	if err := h.cfg.Store.CreateTournament(r.Context(), st); err != nil {
		h.fail(w, r, err)
		return
	}
	out := h.tournamentOut(st, t, roster)
	out.Role = roleOrganiser // only the club's hosts make one
	writeJSON(w, http.StatusCreated, out)
}

// tournamentScoring is the scoring a tournament's making asks for: the
// club's (sc) when none is sent; the numbers sent when they name no
// preset; a named preset's numbers, each number sent beside it
// overriding the preset's (the scoring then keeps the preset's name only
// while its numbers are the preset's). An unknown preset is refused
// bad_club naming it, as a club's is.
func tournamentScoring(raw json.RawMessage, sc club.Scoring) (club.Scoring, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return sc, nil
	}
	var s club.Scoring
	if err := json.Unmarshal(raw, &s); err != nil {
		return sc, &engine.Error{Code: httpapi.CodeBadRequest, Name: "body"}
	}
	if s.Preset == "" {
		return s, nil
	}
	p, err := s.WithPreset()
	if err != nil {
		return sc, err
	}
	_ = json.Unmarshal(raw, &p) // the numbers sent beside the preset's name; decoded above already
	if base, _ := club.PresetScoring(p.Preset); p != base {
		p.Preset = ""
	}
	return p, nil
}

// tournamentItem is one tournament of a club's list.
type tournamentItem struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	State string `json:"state"`
}

func (h *Handler) listTournaments(w http.ResponseWriter, r *http.Request) {
	out, err := h.tournamentItems(r.Context(), r.PathValue("club"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tournaments": out})
}

// tournamentItems lists a club's tournaments, oldest first.
func (h *Handler) tournamentItems(ctx context.Context, clubID string) ([]tournamentItem, error) {
	ts, err := h.cfg.Store.ClubTournaments(ctx, clubID)
	if err != nil {
		return nil, err
	}
	out := []tournamentItem{}
	for _, t := range ts {
		out = append(out, tournamentItem{ID: t.ID, Name: t.Name, State: t.State})
	}
	return out, nil
}

func (h *Handler) getTournament(w http.ResponseWriter, r *http.Request) {
	if err := h.syncOnline(r.Context(), r.PathValue("club"), r.PathValue("t")); err != nil {
		h.fail(w, r, err)
		return
	}
	st, t, roster, err := h.loadTournament(r.Context(), r.PathValue("club"), r.PathValue("t"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	c, _, err := h.loadClub(r.Context(), t.ClubID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	out := h.tournamentOut(st, t, roster)
	out.Role, out.HostExtra = viewerRole(h.accessOf(r, c), &t), h.hostExtras(r.Context(), &t)
	writeJSON(w, http.StatusOK, out)
}

// changeTournament is a change of a tournament by the club's host: refused
// from a foreign page, its body decoded into req (nil: none read), the
// club's host checked, and change applied to the tournament as kept; a
// change that lost the race with another (store.ErrConflict on the
// version) is applied again to the newer tournament, a few times. It
// reports whether the change was kept (else it answered the refusal).
func (h *Handler) changeTournament(w http.ResponseWriter, r *http.Request, req any,
	change func(ctx context.Context, t *tournament.Tournament, roster *club.Roster) error) bool {
	if h.foreign(w, r) {
		return false
	}
	if req != nil {
		if err := decode(r, req, 16<<10); err != nil {
			h.fail(w, r, err)
			return false
		}
	}
	if _, _, ok := h.clubFor(w, r); !ok {
		return false
	}
	var out tournamentJSON
	err := h.updateTournament(r.Context(), r.PathValue("club"), r.PathValue("t"),
		func(ctx context.Context, t *tournament.Tournament, roster *club.Roster) error {
			if err := change(ctx, t, roster); err != nil {
				return err
			}
			out = h.tournamentOut(store.Tournament{}, *t, roster)
			out.Role, out.HostExtra = roleOrganiser, h.hostExtras(ctx, t) // only the club's hosts change it here
			return nil
		}, &out.Version)
	if err != nil {
		h.fail(w, r, err)
		return false
	}
	writeJSON(w, http.StatusOK, out)
	return true
}

// updateTournament applies change to a club's tournament as kept and saves
// it at the version it read; a change that lost the race with another
// (store.ErrConflict on the version) is applied again to the newer
// tournament, a few times. version, when given, receives the new version.
func (h *Handler) updateTournament(ctx context.Context, clubID, id string,
	change func(ctx context.Context, t *tournament.Tournament, roster *club.Roster) error, version ...*int) error {
	for try := 0; ; try++ {
		st, t, roster, err := h.loadTournament(ctx, clubID, id)
		if err != nil {
			return err
		}
		if err := change(ctx, &t, roster); err != nil {
			return err
		}
		st.Name, st.State, st.RefereeAccount = t.Name, t.State, t.RefereeAccount
		st.Data, _ = json.Marshal(t)
		v, err := h.cfg.Store.UpdateTournament(ctx, st)
		if errors.Is(err, store.ErrConflict) && try < 4 {
			continue
		}
		if err != nil {
			return err
		}
		for _, p := range version {
			*p = v
		}
		return nil
	}
}

func (h *Handler) seatRounds(w http.ResponseWriter, r *http.Request) {
	h.changeTournament(w, r, nil, func(_ context.Context, t *tournament.Tournament, _ *club.Roster) error {
		return t.SeatRounds()
	})
}

// gameLinkRequest names the club's game played at a round's table.
type gameLinkRequest struct {
	Game string `json:"game"`
}

// linkTournamentGame links a game of the club's to a round's table: the
// game must be in the club's index and finished, its seats the table's
// players; a table played twice is refused.
func (h *Handler) linkTournamentGame(w http.ResponseWriter, r *http.Request) {
	var req gameLinkRequest
	round, err1 := strconv.Atoi(r.PathValue("round"))
	table, err2 := strconv.Atoi(r.PathValue("table"))
	if err1 != nil || err2 != nil {
		h.fail(w, r, &engine.Error{Code: tournament.CodeBadTournament, Name: "table"})
		return
	}
	h.changeTournament(w, r, &req, func(ctx context.Context, t *tournament.Tournament, roster *club.Roster) error {
		g, err := h.tournamentGame(ctx, t.ClubID, req.Game)
		if err != nil {
			return err
		}
		return t.Link(round, table, &g, roster)
	})
}

// unlinkTournamentGame takes the game off a round's table, so that another
// may be linked (a game abandoned, or linked wrongly).
func (h *Handler) unlinkTournamentGame(w http.ResponseWriter, r *http.Request) {
	round, err1 := strconv.Atoi(r.PathValue("round"))
	table, err2 := strconv.Atoi(r.PathValue("table"))
	if err1 != nil || err2 != nil {
		h.fail(w, r, &engine.Error{Code: tournament.CodeBadTournament, Name: "table"})
		return
	}
	h.changeTournament(w, r, nil, func(_ context.Context, t *tournament.Tournament, _ *club.Roster) error {
		return t.Unlink(round, table)
	})
}

// tournamentGame is a finished game of the club's index, as the club
// counts it (store.ErrNotFound for another's, an unfinished one or none).
func (h *Handler) tournamentGame(ctx context.Context, clubID, id string) (club.Game, error) {
	index, err := h.clubs().ClubGames(ctx, clubID)
	if err != nil {
		return club.Game{}, err
	}
	if id == "" || h.cfg.Games == nil || !slices.ContainsFunc(index, func(g store.ClubGame) bool { return g.TableID == id }) {
		return club.Game{}, store.ErrNotFound
	}
	g, ok := h.cfg.Games.ClubGame(ctx, id)
	if !ok || g.Winner == "" {
		return club.Game{}, store.ErrNotFound
	}
	g.ID = id
	return g, nil
}

// finalRequest names the finalists, when the organiser must (a shared
// place at the cut): nil lets the standings choose.
type finalRequest struct {
	Players []string `json:"players"`
}

func (h *Handler) seatFinal(w http.ResponseWriter, r *http.Request) {
	var req finalRequest
	if err := h.syncOnline(r.Context(), r.PathValue("club"), r.PathValue("t")); err != nil {
		h.fail(w, r, err)
		return
	}
	h.changeTournament(w, r, &req, func(ctx context.Context, t *tournament.Tournament, roster *club.Roster) error {
		games, err := h.tournamentGames(ctx, t)
		if err != nil {
			return err
		}
		return t.SeatFinal(roster, games, req.Players)
	})
}

func (h *Handler) closeTournament(w http.ResponseWriter, r *http.Request) {
	h.changeTournament(w, r, nil, func(_ context.Context, t *tournament.Tournament, _ *club.Roster) error {
		return t.Close()
	})
}

// tournamentGames reads the games linked to a tournament's tables, as the
// club counts them (a game no longer counted is left out).
func (h *Handler) tournamentGames(ctx context.Context, t *tournament.Tournament) (map[string]club.Game, error) {
	out := map[string]club.Game{}
	h.onlineGames(ctx, t, out)
	if h.cfg.Games == nil {
		return out, nil
	}
	for _, round := range t.Rounds {
		for _, tb := range round.Tables {
			if tb.Game == "" || tb.Online != "" {
				continue
			}
			if g, ok := h.cfg.Games.ClubGame(ctx, tb.Game); ok {
				g.ID, g.Extra = tb.Game, tb.Extras(g) // the screen's extras, once given, replace the host's
				out[tb.Game] = g
			}
		}
	}
	return out, ctx.Err()
}
