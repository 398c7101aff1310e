package room_test

import (
	"fmt"
	"testing"
	"time"

	"mafia/engine"
	"mafia/store"
)

// runToEnd moves the clock tick by tick until watch sees the end of the
// game; limit bounds the game's length in clock time.
func (f *fixture) runToEnd(watch *client, limit time.Duration) {
	f.t.Helper()
	for d := time.Duration(0); ; d += tick {
		watch.drain()
		if watch.ended() {
			return
		}
		if d > limit {
			f.t.Fatalf("no end after %v of play (%q)", limit, watch.phase())
		}
		f.advance(tick)
	}
}

// checkEnded checks that the store holds an ended game whose log replays to
// the result watch was shown.
func (f *fixture) checkEnded(watch *client) *engine.Game {
	f.t.Helper()
	g := f.replay()
	if !g.Ended() {
		f.t.Fatal("the stored log does not replay to an ended game")
	}
	evs := f.events()
	if last := evs[len(evs)-1]; last.Kind != engine.EvGameEnded {
		f.t.Errorf("the log ends with %v", last.Kind)
	}
	tb, _ := f.storedTable()
	if tb.Status != store.StatusEnded || tb.Winner != g.Winner().String() {
		f.t.Errorf("stored table: status %q winner %q, the log says %q", tb.Status, tb.Winner, g.Winner())
	}
	if watch.view.Winner != g.Winner().String() {
		f.t.Errorf("the watcher was shown winner %q, the log says %q", watch.view.Winner, g.Winner())
	}
	if l := f.r.Lobby(); l.Status != string(store.StatusEnded) {
		f.t.Errorf("lobby status %q", l.Status)
	}
	return g
}

func TestBotsInEverySeatPlayWholeGamesOnTheClockAlone(t *testing.T) {
	cases := []struct {
		players int
		delay   time.Duration
		games   int
		bots    string // the table's level of bots (Settings.Bots)
	}{
		{7, 0, 3, ""},
		{10, 0, 1, ""},
		{11, 0, 2, ""}, // with a maniac
		{8, 200 * time.Millisecond, 2, ""},
		{11, 0, 3, "smart"},
		{9, 0, 2, "town=smart,mafia=random"},
	}
	for _, c := range cases {
		for i := 0; i < c.games; i++ {
			t.Run(fmt.Sprintf("%d players, bot delay %v, bots %q, game %d", c.players, c.delay, c.bots, i), func(t *testing.T) {
				t.Parallel()
				set := settings(t, c.players, fastTimings)
				set.BotDelay = c.delay
				set.Bots = c.bots
				f := newFixture(t, set, nil)
				host := f.hostClient()
				watch := f.attach("")
				host.must(hostAction("add_bots", 0))
				for s, st := range f.r.Lobby().Seats {
					if !st.Bot || !st.Taken {
						t.Fatalf("seat %d after add_bots: %+v", s+1, st)
					}
				}
				host.must(hostAction("start", 0))
				// From here on only the clock moves the game.
				f.runToEnd(watch, time.Hour)
				g := f.checkEnded(watch)
				if l := f.r.Lobby(); l.Bots != c.bots {
					t.Errorf("the lobby says the bots are %q, want %q", l.Bots, c.bots)
				}
				t.Logf("%s won after %d events, %v of play", g.Winner(), len(f.events()), f.clk.Now().Sub(t0))
			})
		}
	}
}
