package clubhttp

// This file plays a club's tournament online (docs/club.md, Online
// tournaments): the organiser opens a round online and the server opens
// each of its tables with each seat held for its player's account (the
// roster entry's linked account); the organiser sees each table's state
// (waiting for whom, playing, finished) and may start a table before its
// wait is over; a player logged in sees their table and the link to sit.
// A table's game, once ended, is linked to its round's table at its end
// or the next read of the tournament (syncOnline), with the seats the
// server's bot played for a player who did not come; it counts with its
// first victim's best move (made at the table) and the extra points the
// organiser gives its seats once it is over (setTableExtra, table_extra.go).

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"mafia/club"
	"mafia/engine"
	"mafia/store"
	"mafia/tournament"
	"mafia/wire"
)

// OnlineTables are the server's tables with seats held for accounts, which
// an online tournament opens (server.Server offers them; cmd/mafia wires
// them with ServeOnline).
type OnlineTables interface {
	// OpenReservedFor opens a table whose seat s is held for
	// accounts[s-1], rated or not, that starts when each is at it or at
	// startBy with bots in the seats still free, with the steps' times
	// timings; owner is kept with it (ReservedOwner).
	OpenReservedFor(ctx context.Context, owner, name string, accounts []int64, rated bool, startBy time.Time, timings map[string]int64) (string, error)
	// ReservedOwner is the owner a table was opened with, on any node.
	ReservedOwner(ctx context.Context, id string) (string, error)
	// StartReserved starts such a table now, bots in the free seats.
	StartReserved(ctx context.Context, id string) error
	// ReservedTable is the table's lobby row: its status and seats.
	ReservedTable(ctx context.Context, id string) (wire.Lobby, error)
	// ClubGame is the table's finished game as a club counts it.
	ClubGame(ctx context.Context, id string) (club.Game, bool)
	// OnEnded has f called with a table's id once its game has ended
	// (beside the table, not in its goroutine).
	OnEnded(f func(id string))
}

// onlinePlay is the handler's online tables, and the tournament each table
// it opened belongs to (by the table's id: club and tournament), so that
// a game's end links it at once; a table not among them (opened before a
// restart, or by another node's handler) is found by the owner it was
// opened with (ReservedOwner).
type onlinePlay struct {
	tables OnlineTables
	mu     sync.Mutex
	opened map[string][2]string
}

// linkTimeout bounds the link of an online game at its end.
const linkTimeout = 30 * time.Second

// ServeOnline lets the club's tournaments be played online on tables
// (before the handler serves; without it a round opened online is refused
// as a tournament played at real tables).
func (h *Handler) ServeOnline(tables OnlineTables) {
	h.online = &onlinePlay{tables: tables, opened: map[string][2]string{}}
	tables.OnEnded(h.onlineEnded)
}

// ownerOf is the owner an online tournament's table is opened with: its
// club and tournament.
func ownerOf(clubID, id string) string { return "tournament:" + clubID + "/" + id }

// parseOwner reads ownerOf's owner.
func parseOwner(owner string) (clubID, id string, ok bool) {
	rest, ok := strings.CutPrefix(owner, "tournament:")
	if !ok {
		return "", "", false
	}
	clubID, id, ok = strings.Cut(rest, "/")
	return clubID, id, ok && clubID != "" && id != ""
}

// onlineEnded links the ended game of a tournament's table to its round's
// table at once (syncOnline): a table this handler opened, or, in a
// cluster, one another node's handler opened that ended here (its owner,
// kept with the table in the shared store, names the tournament); a
// failure is logged, and the next read of the tournament links it.
func (h *Handler) onlineEnded(id string) {
	o := h.online
	o.mu.Lock()
	at, ok := o.opened[id]
	o.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), linkTimeout)
	defer cancel()
	if !ok {
		owner, err := o.tables.ReservedOwner(ctx, id)
		if err != nil {
			h.cfg.Log.Warn("an ended table's owner not read: a tournament's game is linked at the next read", "table", id, "err", err)
			return
		}
		if at[0], at[1], ok = parseOwner(owner); !ok {
			return // not a tournament's table
		}
	}
	if err := h.syncOnline(ctx, at[0], at[1]); err != nil {
		h.cfg.Log.Warn("an online tournament's game not linked at its end: linked at the next read", "table", id, "err", err)
		return
	}
	o.mu.Lock()
	delete(o.opened, id)
	o.mu.Unlock()
}

// onlineRoutes adds the online tournaments' routes.
func (h *Handler) onlineRoutes(m *http.ServeMux) {
	const base = "/host/api/clubs/{club}/tournaments/{t}"
	m.HandleFunc("POST "+base+"/rounds/{round}/online", h.openRoundOnline)
	m.HandleFunc("GET "+base+"/rounds/{round}/online", h.roundOnline)
	m.HandleFunc("POST "+base+"/rounds/{round}/tables/{table}/start", h.startOnlineTable)
	m.HandleFunc("PUT "+base+"/rounds/{round}/tables/{table}/extra", h.setTableExtra)
	m.HandleFunc("GET "+base+"/mine", h.myTournamentTable)
}

// onlineSeat is one seat of a table opened online, as the organiser sees
// it: the tournament's player there, whether they are at the table
// (connected), and whether the server's bot plays it for them (absent).
type onlineSeat struct {
	Seat    int    `json:"seat"`
	Person  string `json:"person"`
	Name    string `json:"name"`
	Present bool   `json:"present"`
	Absent  bool   `json:"absent,omitempty"`
}

// The states of a table opened online.
const (
	onlineWaiting  = "waiting"  // in the lobby: waiting for its players
	onlinePlaying  = "playing"  // its game is on
	onlineFinished = "finished" // its game is over
)

// onlineTable is one table of a round opened online: its state, the
// players it waits for, its seats, and its link (/t/{id}: a player sits,
// anyone watches).
type onlineTable struct {
	Table   int          `json:"table"`
	Online  string       `json:"online"`
	Link    string       `json:"link"`
	State   string       `json:"state"`
	Waiting []string     `json:"waiting"` // the roster ids not at the table yet
	Seats   []onlineSeat `json:"seats"`
	Game    string       `json:"game,omitempty"` // linked once finished
	Winner  string       `json:"winner,omitempty"`
	Extra   []club.Extra `json:"extra,omitempty"` // the organiser's extra points, once finished
}

// onlineRound answers a round's online state.
type onlineRound struct {
	Round  int           `json:"round"`
	Tables []onlineTable `json:"tables"`
}

// TableLink is where a player sits at (and anyone watches) an online
// table.
func TableLink(id string) string { return "/t/" + id }

func pathInts(r *http.Request, names ...string) ([]int, error) {
	out := make([]int, len(names))
	for i, n := range names {
		v, err := strconv.Atoi(r.PathValue(n))
		if err != nil {
			return nil, &engine.Error{Code: tournament.CodeBadTournament, Name: "table"}
		}
		out[i] = v
	}
	return out, nil
}

// accountsOf gives each of the club's roster entries linked to an account
// that account (entry id to account id).
func (h *Handler) accountsOf(ctx context.Context, clubID string) (map[string]int64, error) {
	ps, err := h.clubs().People(ctx, clubID)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, p := range ps {
		if p.AccountID == nil {
			continue
		}
		if id, err := strconv.ParseInt(*p.AccountID, 10, 64); err == nil {
			out[p.ID] = id
		}
	}
	return out, nil
}

// openRoundOnline serves POST .../rounds/{round}/online: each table of the
// round is opened on the server, each seat held for its player's account,
// and the round's tables recorded; the answer is the round's state.
func (h *Handler) openRoundOnline(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	c, _, ok := h.clubFor(w, r)
	if !ok {
		return
	}
	n, err := pathInts(r, "round")
	if err != nil {
		h.fail(w, r, err)
		return
	}
	round, ctx, id := n[0], r.Context(), r.PathValue("t")
	if err := h.syncOnline(ctx, c.ID, id); err != nil {
		h.fail(w, r, err)
		return
	}
	_, t, roster, err := h.loadTournament(ctx, c.ID, id)
	if err == nil {
		err = t.CanOpen(round)
	}
	if err == nil && h.online == nil {
		err = &engine.Error{Code: tournament.CodeOffline}
	}
	var accts map[string]int64
	if err == nil {
		accts, err = h.accountsOf(ctx, c.ID)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	seats := make([][]int64, len(t.Rounds[round-1].Tables))
	for n, tb := range t.Rounds[round-1].Tables {
		for _, p := range tb.Players {
			a := accts[p]
			if a == 0 {
				name := p
				if pp, ok := roster.Person(p); ok {
					name = pp.Name
				}
				h.fail(w, r, &engine.Error{Code: tournament.CodeNoAccount, Value: name})
				return
			}
			seats[n] = append(seats[n], a)
		}
	}
	startBy := h.cfg.Now().Add(time.Duration(t.Online.Wait) * time.Second)
	ids := make([]string, len(seats))
	for n, accounts := range seats {
		name := t.Name + " · " + strconv.Itoa(round) + "/" + strconv.Itoa(n+1)
		if ids[n], err = h.online.tables.OpenReservedFor(ctx, ownerOf(c.ID, id), name, accounts, t.Online.Rated, startBy, t.Online.TimingsMS); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	h.online.mu.Lock()
	for _, tid := range ids {
		h.online.opened[tid] = [2]string{c.ID, id}
	}
	h.online.mu.Unlock()
	err = h.updateTournament(ctx, c.ID, id, func(_ context.Context, t *tournament.Tournament, _ *club.Roster) error {
		return t.Open(round, ids)
	})
	if err != nil {
		// The tables opened stay in the lobby until their wait is over:
		// another organiser opened the round at the same moment.
		h.fail(w, r, err)
		return
	}
	h.writeRound(w, r, c.ID, id, round)
}

// roundOnline serves GET .../rounds/{round}/online: each table's state.
func (h *Handler) roundOnline(w http.ResponseWriter, r *http.Request) {
	n, err := pathInts(r, "round")
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if err := h.syncOnline(r.Context(), r.PathValue("club"), r.PathValue("t")); err != nil {
		h.fail(w, r, err)
		return
	}
	h.writeRound(w, r, r.PathValue("club"), r.PathValue("t"), n[0])
}

// writeRound answers a round's online state as the server has it now.
func (h *Handler) writeRound(w http.ResponseWriter, r *http.Request, clubID, id string, round int) {
	ctx := r.Context()
	_, t, roster, err := h.loadTournament(ctx, clubID, id)
	if err == nil && (round < 1 || round > len(t.Rounds)) {
		err = &engine.Error{Code: tournament.CodeBadTournament, Name: "table"}
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	out := onlineRound{Round: round, Tables: []onlineTable{}}
	for n, tb := range t.Rounds[round-1].Tables {
		if tb.Online == "" {
			continue
		}
		ot, err := h.tableState(ctx, tb, roster)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		ot.Table = n + 1
		out.Tables = append(out.Tables, ot)
	}
	writeJSON(w, http.StatusOK, out)
}

// tableState is one online table's state as the server has it.
func (h *Handler) tableState(ctx context.Context, tb tournament.Table, roster *club.Roster) (onlineTable, error) {
	ot := onlineTable{Online: tb.Online, Link: TableLink(tb.Online), Waiting: []string{}, Game: tb.Game, Extra: tb.Extra}
	if h.online == nil {
		return ot, &engine.Error{Code: tournament.CodeOffline}
	}
	l, err := h.online.tables.ReservedTable(ctx, tb.Online)
	if err != nil {
		return ot, err
	}
	switch l.Status {
	case string(store.StatusLobby):
		ot.State = onlineWaiting
	case string(store.StatusEnded):
		ot.State = onlineFinished
	default:
		ot.State = onlinePlaying
	}
	for i, p := range tb.Players {
		s := onlineSeat{Seat: i + 1, Person: p}
		if pp, ok := roster.Person(p); ok {
			s.Name = pp.Name
		}
		if i < len(l.Seats) {
			ls := l.Seats[i]
			s.Absent = ls.Bot && !ls.BotAccount
			s.Present = ls.Taken && ls.Connected && !s.Absent
		}
		if ot.State == onlineWaiting && !s.Present {
			ot.Waiting = append(ot.Waiting, p)
		}
		ot.Seats = append(ot.Seats, s)
	}
	if ot.State == onlineFinished && h.online != nil {
		if g, ok := h.online.tables.ClubGame(ctx, tb.Online); ok {
			ot.Winner = g.Winner
		}
	}
	return ot, nil
}

// startOnlineTable serves POST .../rounds/{round}/tables/{table}/start:
// the organiser starts a table before its wait is over; the seats still
// free take the server's bots, their players scored by the no-show rule.
func (h *Handler) startOnlineTable(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	c, _, ok := h.clubFor(w, r)
	if !ok {
		return
	}
	n, err := pathInts(r, "round", "table")
	if err != nil {
		h.fail(w, r, err)
		return
	}
	_, t, _, err := h.loadTournament(r.Context(), c.ID, r.PathValue("t"))
	if err == nil && (n[0] < 1 || n[0] > len(t.Rounds) || n[1] < 1 || n[1] > len(t.Rounds[n[0]-1].Tables) ||
		t.Rounds[n[0]-1].Tables[n[1]-1].Online == "") {
		err = &engine.Error{Code: tournament.CodeBadTournament, Name: "table"}
	}
	if err == nil && h.online == nil {
		err = &engine.Error{Code: tournament.CodeOffline}
	}
	if err == nil {
		err = h.online.tables.StartReserved(r.Context(), t.Rounds[n[0]-1].Tables[n[1]-1].Online)
		var e *engine.Error
		if errors.As(err, &e) && e.Code == "already_started" { // the room's code (room.CodeAlreadyStarted)
			err = &engine.Error{Code: tournament.CodeTableStarted, N: n[0], Seat: engine.Seat(n[1])}
		}
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.writeRound(w, r, c.ID, t.ID, n[0])
}

// syncOnline links each table opened online whose game has ended to its
// round's table, with the seats the server's bot played for the absent
// (one write for all of them; none when there is nothing to link).
func (h *Handler) syncOnline(ctx context.Context, clubID, id string) error {
	if h.online == nil {
		return nil
	}
	_, t, _, err := h.loadTournament(ctx, clubID, id)
	if err != nil {
		return err
	}
	type done struct {
		r, n   int
		absent []int
	}
	var ended []done
	for r, round := range t.Rounds {
		for n, tb := range round.Tables {
			if tb.Online == "" || tb.Game != "" {
				continue
			}
			l, err := h.online.tables.ReservedTable(ctx, tb.Online)
			if err != nil || l.Status != string(store.StatusEnded) {
				continue // read again at the next read
			}
			d := done{r: r + 1, n: n + 1}
			for _, s := range l.Seats {
				if s.Bot && !s.BotAccount {
					d.absent = append(d.absent, s.Seat)
				}
			}
			ended = append(ended, d)
		}
	}
	if len(ended) == 0 {
		return nil
	}
	return h.updateTournament(ctx, clubID, id, func(_ context.Context, t *tournament.Tournament, _ *club.Roster) error {
		for _, d := range ended {
			if tb := t.Rounds[d.r-1].Tables[d.n-1]; tb.Game != "" {
				continue // linked by another read meanwhile
			}
			if err := t.LinkOnline(d.r, d.n, d.absent); err != nil {
				return err
			}
		}
		return nil
	})
}

// myTable answers a player's own table in a tournament.
type myTable struct {
	Tournament string      `json:"tournament"`
	Person     string      `json:"person"`
	Round      int         `json:"round"`
	Table      int         `json:"table"`
	Seat       int         `json:"seat"`
	Link       string      `json:"link"`
	State      onlineTable `json:"state"`
}

// myTournamentTable serves GET .../mine: the logged-in account's table in
// the latest round opened online (its roster entry linked to the
// account), the link to sit there and the table's state; bad_token to a
// request with no login, tournament_no_table to an account that has none.
func (h *Handler) myTournamentTable(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	acct := h.loggedIn(r)
	if acct == 0 {
		h.fail(w, r, errBadToken)
		return
	}
	clubID, id := r.PathValue("club"), r.PathValue("t")
	if err := h.syncOnline(ctx, clubID, id); err != nil {
		h.fail(w, r, err)
		return
	}
	_, t, roster, err := h.loadTournament(ctx, clubID, id)
	var accts map[string]int64
	if err == nil {
		accts, err = h.accountsOf(ctx, clubID)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	for _, p := range t.Players {
		if accts[p] != acct {
			continue
		}
		round, table, seat, ok := t.Seat(p)
		if !ok {
			break
		}
		tb := t.Rounds[round-1].Tables[table-1]
		st, err := h.tableState(ctx, tb, roster)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		st.Table = table
		writeJSON(w, http.StatusOK, myTable{Tournament: t.ID, Person: p, Round: round, Table: table, Seat: seat,
			Link: TableLink(tb.Online), State: st})
		return
	}
	h.fail(w, r, &engine.Error{Code: tournament.CodeNoTable})
}

// onlineGames adds to games the finished games of the tables opened online
// and linked (the server's), as the club counts them.
func (h *Handler) onlineGames(ctx context.Context, t *tournament.Tournament, games map[string]club.Game) {
	if h.online == nil {
		return
	}
	for _, round := range t.Rounds {
		for _, tb := range round.Tables {
			if tb.Online == "" || tb.Game != tb.Online {
				continue
			}
			if g, ok := h.online.tables.ClubGame(ctx, tb.Game); ok {
				g.ID, g.Extra = tb.Game, tb.Extra
				games[tb.Game] = g
			}
		}
	}
}
