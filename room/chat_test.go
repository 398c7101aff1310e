package room_test

import (
	"fmt"
	"testing"

	"mafia/engine"
	"mafia/rng"
	"mafia/room"
)

// chatRules is the chat as docs/rules.md and docs/protocol.md ("Chat") say,
// written apart from the room's code: who may post in a channel, and who
// reads a line posted now. g is nil before the start.
type chatRules struct {
	g     *engine.Game
	roles []engine.Role
}

func (c chatRules) running() bool { return c.g != nil && !c.g.Ended() }

func (c chatRules) alive(seat int) bool { return c.g.Alive().Has(engine.Seat(seat)) }

func (c chatRules) mayPost(channel string, seat int) bool {
	if seat == 0 {
		return false // spectators post nowhere
	}
	switch channel {
	case "town":
		if !c.running() {
			return true // the lobby and the game's end talk freely
		}
		switch c.g.Phase() {
		case engine.PhaseSpeech, engine.PhaseDefence, engine.PhaseTieSpeech, engine.PhaseLastWords:
			return int(c.g.Speaker()) == seat
		}
		return false
	case "mafia":
		return c.running() && c.g.Phase() == engine.PhaseNight && c.alive(seat) && c.roles[seat].IsMafia()
	case "dead":
		return c.running() && !c.alive(seat)
	}
	return false
}

func (c chatRules) reads(channel string, seat int) bool {
	switch channel {
	case "town":
		return true
	case "mafia":
		return seat != 0 && c.running() && c.alive(seat) && c.roles[seat].IsMafia()
	case "dead":
		return seat != 0 && c.running() && !c.alive(seat)
	}
	return false
}

// TestChatReachesExactlyItsAudience plays random games with a person in
// every seat, a second connection for some seats, two spectators and the
// host without a seat. At every step of the game, and before the start and
// after the end, every connection tries every channel: it must be accepted
// exactly when chatRules says, and each accepted line must reach exactly
// the connections chatRules says (a mafia line at the night's next tick,
// the others at once), nobody else.
func TestChatReachesExactlyItsAudience(t *testing.T) {
	games := []struct {
		players int
		seed    uint64
	}{{5, 1}, {7, 2}, {9, 3}, {11, 4}, {11, 5}}
	if testing.Short() {
		games = games[2:4]
	}
	for _, gm := range games {
		t.Run(fmt.Sprintf("%d players seed %d", gm.players, gm.seed), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, settings(t, gm.players, fastTimings), func(c *room.Config) { c.NightTick = tick })
			cs := f.fillWithPeople(gm.players)
			src := rng.New(gm.seed)
			conns := append([]*client(nil), cs[1:]...)
			// A seat's own second connection is that seat, not a spectator.
			conns = append(conns, f.attachSeat(cs[1+src.Intn(gm.players)]), f.attachSeat(cs[1+src.Intn(gm.players)]))
			host := f.hostClient()
			conns = append(conns, f.attach(""), f.attach(""), host)
			rules := chatRules{}
			posted := map[string]int{}
			line := 0
			// try has every connection try every channel, and checks who
			// was sent each accepted line.
			try := func(where string) {
				t.Helper()
				drainAll(conns...)
				mafiaSent := false
				for _, from := range conns {
					for _, ch := range []string{"town", "mafia", "dead"} {
						want := rules.mayPost(ch, from.seat)
						if ch == "mafia" && want && mafiaSent {
							continue // one mafia line a tick: the rest would wait in the queue
						}
						line++
						text := fmt.Sprintf("%s line %d", ch, line)
						marks := mark(conns)
						err := from.send(chat(ch, text))
						switch {
						case want && err != nil:
							t.Fatalf("%s: seat %d may post in %s, was refused: %v", where, from.seat, ch, err)
						case !want && codeOf(err) != room.CodeChatClosed:
							t.Fatalf("%s: seat %d may not post in %s, got %v", where, from.seat, ch, err)
						case !want:
							continue
						}
						posted[ch]++
						if ch == "mafia" {
							mafiaSent = true
							checkReaders(t, conns, marks, text, func(int) bool { return false }, where+" (before the tick)")
							readers := map[int]bool{}
							for _, c := range conns {
								readers[c.seat] = rules.reads(ch, c.seat)
							}
							f.advance(tick) // the next tick (the night may end with it)
							checkReaders(t, conns, marks, text, func(s int) bool { return readers[s] }, where+" (at the tick)")
							rules.g = f.replay()
							continue
						}
						checkReaders(t, conns, marks, text, func(s int) bool { return rules.reads(ch, s) }, where)
					}
				}
			}
			try("the lobby")
			host.must(hostAction("start", 0))
			rules.roles = f.truth()
			for step := 0; ; step++ {
				rules.g = f.replay()
				if rules.g.Ended() {
					break
				}
				if step > 5000 {
					t.Fatal("no end")
				}
				try(fmt.Sprintf("step %d (%v, round %d)", step, rules.g.Phase(), rules.g.Round()))
				rules.g = f.replay()
				acted := false
				for _, p := range cs[1:] {
					p.drain()
					if m, ok := p.randomMove(&src); ok {
						acted = true
						p.send(m) // may be refused: the step may have moved on
					}
				}
				if !acted {
					f.advance(tick)
				}
			}
			try("the end")
			for _, ch := range []string{"town", "mafia", "dead"} {
				if posted[ch] == 0 {
					t.Errorf("no line was posted in %s: the game did not exercise it", ch)
				}
			}
			t.Logf("lines posted by channel: %v", posted)
		})
	}
}

// attachSeat opens another connection of c's seat, with its token.
func (f *fixture) attachSeat(c *client) *client {
	f.t.Helper()
	extra := f.attach(f.tokens[c.seat])
	if extra.seat != c.seat {
		f.t.Fatalf("a second connection of seat %d is seat %d", c.seat, extra.seat)
	}
	return extra
}

// mark is how many frames each connection has had so far.
func mark(conns []*client) map[*client]int {
	m := map[*client]int{}
	for _, c := range conns {
		m[c] = len(c.frames)
	}
	return m
}

// checkReaders checks that exactly the connections whose seat reads got
// the chat line text, once, since marks.
func checkReaders(t *testing.T, conns []*client, marks map[*client]int, text string, reads func(seat int) bool, where string) {
	t.Helper()
	for _, c := range conns {
		c.drain()
		got := 0
		for _, fr := range c.frames[marks[c]:] {
			if fr.msg.Type == "chat" && fr.msg.Text == text {
				got++
			}
		}
		if want := reads(c.seat); (got == 1) != want || got > 1 {
			t.Errorf("%s: %q reached seat %d %d times (reads: %v)", where, text, c.seat, got, want)
		}
	}
}
