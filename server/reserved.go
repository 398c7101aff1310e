package server

// This file opens tables whose seats are held for accounts (room.Settings
// .Reserved): what a club's online tournament asks of the server for each
// table of a round (docs/club.md, Online tournaments). The server opens
// the table as an online table (rated or not), each seat held for its
// account; the room starts it when every player is at it, or at its
// StartBy with the server's bots in the seats still free; the organiser
// may start it early (StartReserved). The game, once over, is read back as
// a club counts a game (ClubGame). The server knows nothing of
// tournaments: the club's handler (package clubhttp) keeps them.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"mafia/club"
	"mafia/engine"
	"mafia/room"
	"mafia/store"
	"mafia/wire"
)

// OpenReserved opens an online table named name whose seat s is held for
// accounts[s-1] (the table has as many seats as accounts, dealt by the
// club's preset for that many), rated or not, that starts when each
// account is at its seat, or at startBy with the server's bots in the
// seats still free (zero: only when they are all there, or when
// StartReserved says), its steps' times timings (docs/protocol.md's
// timings_ms; nil: the defaults). It returns the table's id.
func (s *Server) OpenReserved(ctx context.Context, name string, accounts []int64, rated bool, startBy time.Time, timings map[string]int64) (string, error) {
	return s.OpenReservedFor(ctx, "", name, accounts, rated, startBy, timings)
}

// OpenReservedFor is OpenReserved with the table's owner (room.Settings
// .Owner: what is told of its end, on whichever node; ReservedOwner).
func (s *Server) OpenReservedFor(ctx context.Context, owner, name string, accounts []int64, rated bool, startBy time.Time, timings map[string]int64) (string, error) {
	if s.closing.Load() || s.draining.Load() {
		return "", &engine.Error{Code: CodeDraining}
	}
	p, err := engine.Preset(len(accounts))
	if err != nil {
		return "", err
	}
	set := room.Settings{Name: strings.TrimSpace(name), Setup: p, TimingMS: timings, Pace: s.cfg.Pace, StandIn: room.DefaultStandIn,
		Rated: rated, Reserved: append([]int64(nil), accounts...), StartBy: startBy, Owner: owner}
	for _, a := range accounts {
		if a == 0 {
			return "", &engine.Error{Code: room.CodeBadRequest, Name: "reserved"}
		}
	}
	rm, _, err := room.Create(ctx, s.createConfig(), set)
	if err != nil {
		return "", err
	}
	s.stops.started()
	s.add(rm)
	return rm.ID(), nil
}

// ReservedOwner is the owner a table of reserved seats was opened with
// (OpenReservedFor), read from the store, so that any node of a cluster
// finds it ("": none).
func (s *Server) ReservedOwner(ctx context.Context, id string) (string, error) {
	t, _, err := s.cfg.Store.Table(ctx, store.KindOnline, id)
	if err != nil {
		return "", err
	}
	var set room.Settings
	if err := json.Unmarshal(t.Data, &set); err != nil {
		return "", fmt.Errorf("%w: %v", store.ErrDamaged, err)
	}
	return set.Owner, nil
}

// StartReserved starts a table with reserved seats now: the seats still
// free take the server's bots (room.Room.StartNow).
func (s *Server) StartReserved(ctx context.Context, id string) error {
	rm, err := s.room(ctx, id)
	if err != nil {
		return err
	}
	return rm.StartNow(ctx)
}

// ReservedTable is a table's lobby row (who sits, who is connected, its
// status), as GET /api/tables/{id} answers it.
func (s *Server) ReservedTable(ctx context.Context, id string) (wire.Lobby, error) {
	rm, err := s.room(ctx, id)
	if err != nil {
		return wire.Lobby{}, err
	}
	return s.owned(rm.Lobby()), nil
}

// ClubGame is an online table's finished game as a club counts it
// (club.Game: its rules code, each seat's name, card and exit, the winner,
// and the first night's victim's best move as they made it in their last
// words; no roster ids and no extra points: the club adds those), and whether
// it counts (false for a table not found, not finished, or that cannot be
// read: logged).
func (s *Server) ClubGame(ctx context.Context, id string) (club.Game, bool) {
	g, err := s.clubGame(ctx, id)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.Warn("an online game cannot be read as a club's", "table", id, "err", err)
		}
		return club.Game{}, false
	}
	return g, g.Winner != ""
}

func (s *Server) clubGame(ctx context.Context, id string) (club.Game, error) {
	t, seats, err := s.cfg.Store.Table(ctx, store.KindOnline, id)
	if err != nil {
		return club.Game{}, err
	}
	g := club.Game{ID: id, Date: t.CreatedAt.UTC().Format(club.DateLayout), Name: t.Name}
	if t.Status != store.StatusEnded {
		return g, nil
	}
	log, err := s.cfg.Store.Events(ctx, id)
	if err != nil {
		return g, err
	}
	var end *engine.Event
	out := map[engine.Seat]engine.Event{}
	order := map[engine.Seat]int{}
	for i, e := range log {
		switch e.Kind {
		case engine.EvGameStarted:
			g.Rules = engine.RulesCode(e.Rules)
		case engine.EvStatement:
			if e.Verb == engine.BestMove && g.BestMove == nil {
				b := &club.BestMove{Seat: int(e.Actor)}
				for _, s := range e.Set.Seats() {
					b.Guess = append(b.Guess, int(s))
				}
				g.BestMove = b
			}
		case engine.EvGameEnded:
			end = &log[i]
		case engine.EvPlayerOut:
			if _, ok := out[e.Target]; !ok {
				out[e.Target] = e
				order[e.Target] = len(order) + 1
			}
		}
	}
	if end == nil {
		return g, fmt.Errorf("%w: an ended table with no end in its log", store.ErrDamaged)
	}
	names := make([]string, len(seats)+1)
	for _, st := range seats {
		if st.Seat >= 1 && st.Seat < len(names) {
			names[st.Seat] = st.Name
		}
	}
	for i := 1; i < len(names); i++ {
		seat := engine.Seat(i)
		cs := club.Seat{Seat: i, Name: names[i], Role: end.RoleOf(seat).String()}
		if e, ok := out[seat]; ok {
			cs.Out, cs.OutOrder, cs.OutRound = e.Cause.String(), order[seat], int(e.Round)
		}
		g.Seats = append(g.Seats, cs)
	}
	g.Winner = end.Winner.String()
	if g.BestMove != nil {
		if err := g.CheckBestMove(*g.BestMove); err != nil {
			// the engine takes only the club's best move: a log that says
			// otherwise is damaged, and the game counts without it
			s.log.Warn("an online game's best move is not the club's: left out", "table", id, "err", err)
			g.BestMove = nil
		}
	}
	return g, nil
}

// OnEnded has f called with a table's id once its game has ended and the
// end is stored (beside the room, never in its goroutine; not while the
// server shuts down): an online tournament links the game then.
func (s *Server) OnEnded(f func(id string)) {
	s.mu.Lock()
	s.endedHooks = append(s.endedHooks, f)
	s.mu.Unlock()
}

// tellEnded calls the OnEnded hooks with a table's id.
func (s *Server) tellEnded(id string) {
	s.mu.Lock()
	hooks := s.endedHooks
	s.mu.Unlock()
	for _, f := range hooks {
		f(id)
	}
}
