package server

// This file rates a rated table's game once it has ended (docs/ratings.md):
// the room says the game ended (room.Config.Ended), and the server reads
// the table, its seats and its log back from the store, where the end
// already is, and calls store.Ratings.RateGame with each seat's account.
// RateGame rates a game once, so a game rated twice (the hook and a
// restart) counts once; and a game whose rating a crash or a failing store
// lost is rated when the server starts again (rateLeftOver).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"mafia/rating"
	"mafia/room"
	"mafia/store"
)

// rateTimeout bounds one game's rating.
const rateTimeout = 30 * time.Second

// rateRetries are the waits before each new try of a game's rating that
// failed (a store failing for a while: a full disk, a database restarting),
// about ten minutes in all; a game still unrated after them, or when the
// server stops, is rated at the next start (rateLeftOver). Tests shorten
// them.
var rateRetries = []time.Duration{time.Second, 5 * time.Second, 30 * time.Second, 2 * time.Minute, 8 * time.Minute}

// gameEnded is the rooms' Ended hook: it rates the game beside the room
// (never in its goroutine), unless the server is shutting down (the game
// is then rated when it starts again).
func (s *Server) gameEnded(id string) {
	if s.closing.Load() {
		return
	}
	s.rates.Add(1)
	go func() {
		defer s.rates.Done()
		s.tellEnded(id)
		for try := 0; ; try++ {
			ctx, cancel := context.WithTimeout(context.Background(), rateTimeout)
			err := s.rateTable(ctx, id)
			cancel()
			if err == nil {
				return
			}
			if try == len(rateRetries) {
				s.log.Error("rate a game: left to the next start", "table", id, "tries", try+1, "err", err)
				return
			}
			s.log.Warn("rate a game: will try again", "table", id, "err", err, "in", rateRetries[try].String())
			t := time.NewTimer(rateRetries[try])
			select {
			case <-s.stop:
				t.Stop()
				return // rated at the next start
			case <-t.C:
			}
		}
	}()
}

// rateLeftOver rates every ended rated game not rated yet: those a crash
// between the end and the rating left.
func (s *Server) rateLeftOver(ctx context.Context) {
	ids, err := s.cfg.Store.UnratedEnded(ctx)
	if err != nil {
		s.log.Error("list the games left to rate", "err", err)
		return
	}
	for _, id := range ids {
		if err := s.rateTable(ctx, id); err != nil {
			s.log.Error("rate a game left over", "table", id, "err", err)
		}
	}
}

// rateTable rates the ended game of table id if the table is rated; a game
// rated already is no error.
func (s *Server) rateTable(ctx context.Context, id string) error {
	rs := s.cfg.Store
	t, seats, err := s.cfg.Store.Table(ctx, store.KindOnline, id)
	if err != nil {
		return err
	}
	var set room.Settings
	if err := json.Unmarshal(t.Data, &set); err != nil {
		return fmt.Errorf("%w: settings: %w", store.ErrDamaged, err)
	}
	if !set.Rated || set.Sandbox != nil || t.Status != store.StatusEnded {
		return nil
	}
	ids := make([]string, len(seats))
	for _, st := range seats {
		if st.Seat < 1 || st.Seat > len(ids) || st.Account == 0 {
			if len(set.Reserved) > 0 && st.Bot {
				// A reserved table's no-show played by the server's bot
				// (reserved.go): the game changes no rating.
				s.log.Info("a rated game not rated: a reserved seat was played by the server's bot", "table", id, "seat", st.Seat)
				return nil
			}
			// A rated table seats accounts only (room.CodeRatedTable).
			return fmt.Errorf("seat %d of a rated table has no account", st.Seat)
		}
		ids[st.Seat-1] = strconv.FormatInt(st.Account, 10)
	}
	log, err := s.cfg.Store.Events(ctx, id)
	if err != nil {
		return err
	}
	rseats, res, err := rating.FromLog(log, ids, nil)
	if err != nil {
		return err
	}
	if side, ok := playedByStandIns(set.Played, rseats); ok {
		// Not rated (docs/ratings.md, "What stops a farm"); the game is
		// looked at again at each start (rateLeftOver), to the same end.
		s.log.Info("a rated game not rated: played by stand-ins", "table", id, "side", side.String())
		return nil
	}
	_, err = rs.RateGame(ctx, store.RatedGame{Game: id, At: t.UpdatedAt, Seats: rseats, Result: res})
	if errors.Is(err, store.ErrAlreadyRated) {
		return nil
	}
	return err
}

// playedByStandIns returns a side whose seats the game's stand-ins played
// mostly (room.Played.MostlyStandIns), if any: such a game changes no
// rating, so that a farmer's accounts nobody plays earn none.
func playedByStandIns(p *room.Played, seats []rating.Seat) (rating.Side, bool) {
	if p == nil {
		return 0, false
	}
	for _, side := range []rating.Side{rating.Town, rating.Mafia, rating.Maniac} {
		in, any := func(i int) bool { return i < len(seats) && seats[i].Side == side }, false
		for i := range seats {
			any = any || in(i)
		}
		if any && p.MostlyStandIns(in) {
			return side, true
		}
	}
	return 0, false
}
