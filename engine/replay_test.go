package engine_test

import (
	"testing"

	"mafia/engine"
)

// Replay is a fold of the recorded events (doc.go): it must rebuild the
// live game, and refuse a log that cannot be a game's with CodeBadLog and
// the index of the bad event.

func TestReplay_EqualsTheLiveGameAtEveryEvent(t *testing.T) {
	x := newGame(t, deal8m, "first_night=meeting", "reveal_on_death=role")
	x.next(1)
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 6})
	x.until(engine.PhaseVote, 0)
	x.voteAndClose(nil)
	x.untilNight(2)
	x.kill(1, 7)
	x.shoot(3, 8)
	x.heal(5, 8)
	x.check(4, 1)
	x.foul(2)
	x.next(1)
	// x.do has compared a replay with the live game after every command;
	// here the final state is also checked against a fresh fold.
	g, err := engine.Replay(x.log)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Equal(x.g) {
		t.Fatal("the replayed game differs from the live one")
	}
	if g.Round() != x.g.Round() || g.Phase() != x.g.Phase() || g.Alive() != x.g.Alive() || g.Fouls(2) != 1 {
		t.Errorf("replayed: round %d phase %s alive %v fouls %d", g.Round(), g.Phase(), g.Alive().Seats(), g.Fouls(2))
	}
	// a prefix replays to a different (earlier) game
	if p, err := engine.Replay(x.log[:len(x.log)-1]); err != nil || p.Equal(x.g) {
		t.Errorf("a shorter log replays to the same game (err %v)", err)
	}
}

func TestReplay_RefusesBadLogs(t *testing.T) {
	x := newGame(t, deal7)
	x.kill(1, 5)
	x.next(1)
	good := append([]engine.Event(nil), x.log...)
	if _, err := engine.Replay(good); err != nil {
		t.Fatalf("a good log refused: %v", err)
	}
	edit := func(i int, f func(*engine.Event)) []engine.Event {
		log := append([]engine.Event(nil), good...)
		f(&log[i])
		return log
	}
	for _, tc := range []struct {
		name string
		log  []engine.Event
		n    int
	}{
		{"empty", nil, 0},
		{"does not start with game_started", good[1:], 0},
		{"too few players", edit(0, func(e *engine.Event) { e.Count = 2 }), 0},
		{"too many players", edit(0, func(e *engine.Event) { e.Count = engine.MaxSeats + 1 }), 0},
		{"a card that is no role", edit(0, func(e *engine.Event) { e.PerSeat[3] = 99 }), 0},
		{"a setup the rules refuse", edit(0, func(e *engine.Event) { e.PerSeat[5] = uint8(engine.Don) }), 0},
		{"an invalid ruleset", edit(0, func(e *engine.Event) { e.Rules.SecondTie = 9 }), 0},
		{"a second game_started", edit(2, func(e *engine.Event) { *e = good[0] }), 2},
		{"an unknown kind", edit(2, func(e *engine.Event) { e.Kind = 200 }), 2},
		{"no kind", edit(2, func(e *engine.Event) { e.Kind = engine.EvNone }), 2},
		{"a target off the table", edit(2, func(e *engine.Event) { e.Target = 8 }), 2},
		{"an actor off the table", edit(2, func(e *engine.Event) { e.Actor = 8 }), 2},
		{"a night action by nobody", edit(2, func(e *engine.Event) { e.Actor = 0 }), 2},
		{"a set off the table", edit(3, func(e *engine.Event) { e.Set = engine.SetOf(9) }), 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := engine.Replay(tc.log)
			e := wantCode(t, err, engine.CodeBadLog)
			if e.N != tc.n {
				t.Errorf("bad_log N = %d, want %d", e.N, tc.n)
			}
		})
	}
}
