package room_test

import (
	"testing"
	"time"

	"mafia/room"
)

// TestComingsAndGoingsKeepOneWatchOnATable pins that a table's watch on who
// is at it (the lobby's expiry, a frozen game's linger) is one timer, moved
// by every join, leave and closed connection: not one more timer for each,
// every one of them alive for half an hour, and that the watch counts from
// the last of them.
func TestComingsAndGoingsKeepOneWatchOnATable(t *testing.T) {
	t.Run("a lobby's joins and leaves", func(t *testing.T) {
		f := newFixture(t, settings(t, 5, nil), nil)
		f.sync()
		before := f.clk.Pending()
		for i := 0; i < 50; i++ {
			f.clk.Advance(time.Second)
			_, tok := f.join("Nino", 1)
			if err := f.r.Leave(bg(), tok); err != nil {
				t.Fatal(err)
			}
		}
		f.sync()
		if n := f.clk.Pending(); n > before {
			t.Errorf("%d timers pending after 50 joins and leaves, %d before", n, before)
		}
		if f.stoppedAfter(room.DefaultEmptyLobbyExpiry - time.Second) {
			t.Fatal("expired before EmptyLobbyExpiry had passed since the last leave")
		}
		if !f.stoppedAfter(time.Second) {
			t.Fatal("not expired")
		}
	})
	t.Run("a frozen game's spectators", func(t *testing.T) {
		a := newAbandoned(t)
		f := a.f
		a.leave()
		f.ticks(room.DefaultFreezeAfter)
		if l := f.r.Lobby(); l.PauseReason != "no_players" {
			t.Fatalf("not frozen: %+v", l)
		}
		f.r.Detach(a.watch.sub)
		f.sync()
		before := f.clk.Pending()
		// Over more than Linger, a spectator comes and goes every 5 s.
		for i := 0; i < 50; i++ {
			f.clk.Advance(5 * time.Second)
			if !up(t, f) {
				t.Fatal("the frozen room stopped though its last connection closed only 5 s ago")
			}
			w := f.attach("")
			f.r.Detach(w.sub)
			f.sync()
		}
		if n := f.clk.Pending(); n > before {
			t.Errorf("%d timers pending after 50 spectators came and went, %d before", n, before)
		}
		// The linger counts from the last connection's close.
		f.clk.Advance(linger - time.Second)
		if !up(t, f) {
			t.Fatal("the frozen room stopped before Linger had passed since its last connection closed")
		}
		f.clk.Advance(time.Second)
		if up(t, f) {
			t.Fatal("the frozen room is still up Linger after its last connection closed")
		}
	})
}

// up reports, after a round trip through the room, whether it still runs.
func up(t *testing.T, f *fixture) bool {
	t.Helper()
	err := f.r.Leave(bg(), "a token nobody holds")
	switch codeOf(err) {
	case room.CodeStopped:
		return false
	case room.CodeBadToken, room.CodeAlreadyStarted:
		return true
	}
	t.Fatalf("a round trip: %v", err)
	return false
}

// linger is room.Config.Linger's default.
const linger = 2 * time.Minute
