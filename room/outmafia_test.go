package room_test

import (
	"fmt"
	"testing"
	"time"

	"mafia/engine"
	"mafia/room"
	"mafia/wire"
)

// TestAMafiosoOutReadsTheMafiasChatOnlyUpToWhenTheyLeft: a mafioso removed
// from the game (by the host's fouls) no longer takes part in the night:
// a new connection of theirs (a reconnect, a second tab) reads back, in
// the history pages, the mafia's lines said while they were in the game
// and none said after, while the Don, still in, reads them all; a
// spectator reads none. (room/history.go's rereads; docs/protocol.md,
// "Chat".)
func TestAMafiosoOutReadsTheMafiasChatOnlyUpToWhenTheyLeft(t *testing.T) {
	f := newFixture(t, settings(t, 7, nightTimings), func(c *room.Config) { c.NightTick = tick })
	cs := f.fillWithPeople(7)
	watch := f.attach("")
	host := f.hostClient()
	host.must(hostAction("start", 0))
	roles := f.truth()
	don := seatsOf(roles, is(engine.Don))[0]
	maf := seatsOf(roles, is(engine.Mafioso))[0]
	all := append([]*client{watch, host}, cs[1:]...)
	// toNight lets the clock run, nobody acting, until a night begins.
	toNight := func(which string) {
		t.Helper()
		drainAll(all...)
		for d := time.Duration(0); watch.phase() != "night"; d += tick {
			if watch.phase() == "ended" || d > time.Minute {
				t.Fatalf("no %s night after %v: the game is at %q (%v)", which, d, watch.phase(), roles)
			}
			f.advance(tick)
			drainAll(all...)
		}
	}
	// say has seat s say text in the mafia's chat, out at the next tick.
	say := func(s int, text string) {
		t.Helper()
		cs[s].must(chat("mafia", text))
		f.advance(tick)
		drainAll(all...)
	}

	toNight("first")
	say(maf, "before: let us take 5")
	say(don, "before: agreed")
	// The mafioso is removed: the host's fouls up to the limit, by day.
	for watch.phase() == "night" {
		f.advance(tick)
		drainAll(all...)
	}
	for i := 0; i < 4; i++ {
		host.must(hostAction("foul", maf))
	}
	if g := f.replay(); g.Alive().Has(engine.Seat(maf)) {
		t.Fatalf("seat %d (mafioso) is still in the game after four fouls", maf)
	}
	toNight("second")
	say(don, "after: alone now, I take 6")

	texts := func(lines []wire.ChatLine) []string {
		var out []string
		for _, l := range lines {
			if l.Channel == "mafia" {
				out = append(out, l.Text)
			}
		}
		return out
	}
	for _, c := range []struct {
		who   string
		token string
		want  []string
	}{
		{"the mafioso out of the game", f.tokens[maf], []string{"before: let us take 5", "before: agreed"}},
		{"the Don, still in", f.tokens[don], []string{"before: let us take 5", "before: agreed", "after: alone now, I take 6"}},
		{"a spectator", "", nil},
	} {
		lines, _ := readBack(f, c.token)
		if got := texts(lines); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s reads back the mafia's lines %q, want %q", c.who, got, c.want)
		}
	}
}
