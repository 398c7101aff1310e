package room_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"mafia/engine"
	"mafia/rng"
)

// attachSince connects a client with token ("" for a spectator) that
// already has since events.
func (f *fixture) attachSince(token string, since int) *client {
	f.t.Helper()
	sub, err := f.r.Attach(bg(), token, since)
	if err != nil {
		f.t.Fatalf("attach: %v", err)
	}
	c := &client{f: f, sub: sub, seat: int(sub.Seat)}
	c.drain()
	return c
}

// eventsOf is every event a client was sent, in order.
func eventsOf(c *client) []json.RawMessage {
	var out []json.RawMessage
	for _, fr := range c.frames {
		out = append(out, fr.events...)
	}
	return out
}

func rawsOf(evs []json.RawMessage) [][]byte {
	out := make([][]byte, len(evs))
	for i, e := range evs {
		out[i] = e
	}
	return out
}

// rejoined is a connection made with a since, and where in its seat's
// events it must start.
type rejoined struct {
	c     *client
	of    *client // the seat's connection that never dropped
	start int
	since int
}

// TestWelcomeSinceBoundaries: a connection made with ?since= gets exactly
// the events its seat was sent after the first since of them (all of them
// when since is negative or past the count), with seq the count, and from
// then on exactly what a connection that never dropped gets: nothing lost,
// nothing twice. At night, events waiting for the tick are not in a
// welcome (the seq counts only what was sent) and come at the tick. The
// seats' welcomes from the same point have one length. It holds for seats
// and spectators, at night and by day, and across a restart (Resume) with
// events still waiting.
func TestWelcomeSinceBoundaries(t *testing.T) {
	f := newFixture(t, settings(t, 7, nightTimings), nil)
	cs := f.fillWithPeople(7)
	watch := f.attach("")
	host := f.hostClient()
	host.must(hostAction("start", 0))
	roles := f.truth()
	token := func(c *client) string {
		if c.seat == 0 {
			return ""
		}
		return f.tokens[c.seat]
	}
	stay := append([]*client{watch}, cs[1:]...)
	var rejoins []rejoined
	check := func(where string) {
		t.Helper()
		drainAll(stay...)
		for _, r := range rejoins {
			r.c.drain()
			got, want := eventsOf(r.c), eventsOf(r.of)[r.start:]
			if i, ok := sameEvents(got, rawsOf(want)); !ok {
				t.Errorf("%s: seat %d connected with since=%d differs from the connection that stayed at event %d: %d events against %d",
					where, r.c.seat, r.since, i, len(got), len(want))
			}
		}
		lengths := map[int]map[int]int{} // since kind → seat → welcome length
		for _, c := range stay {
			have := eventsOf(c)
			n := len(have)
			for kind, since := range []int{0, n - 1, n, n + 1, -1, -n - 5} {
				if since == n-1 && n == 0 {
					continue
				}
				nc := f.attachSince(token(c), since)
				w := nc.frames[0]
				start := since
				if since < 0 || since > n {
					start = 0
				}
				if w.msg.Type != "welcome" || w.msg.Seq != n {
					t.Errorf("%s: seat %d since=%d (has %d): a %s with seq %d", where, c.seat, since, n, w.msg.Type, w.msg.Seq)
				}
				if i, ok := sameEvents(w.events, rawsOf(have[start:])); !ok {
					t.Errorf("%s: seat %d since=%d (has %d): the welcome's events differ at %d (%d events, want %d)",
						where, c.seat, since, n, i, len(w.events), n-start)
				}
				if c.seat != 0 && since != n-1 {
					if lengths[kind] == nil {
						lengths[kind] = map[int]int{}
					}
					lengths[kind][c.seat] = len(w.raw)
				}
				rejoins = append(rejoins, rejoined{c: nc, of: c, start: start, since: since})
			}
		}
		for kind, bySeat := range lengths {
			one := 0
			for seat, n := range bySeat {
				if one == 0 {
					one = n
				} else if n != one {
					t.Errorf("%s: welcomes from the same point (kind %d) are %v bytes by seat (%v): seat %d differs",
						where, kind, bySeat, roles, seat)
					break
				}
			}
		}
	}
	check("the night begins")
	don := seatsOf(roles, is(engine.Don))[0]
	maf := seatsOf(roles, is(engine.Mafioso))[0]
	det := seatsOf(roles, is(engine.Detective))[0]
	doc := seatsOf(roles, is(engine.Doctor))[0]
	cs[maf].must(command("kill", det))
	cs[don].must(command("kill", det))
	cs[det].must(command("check", don))
	check("the night, its events waiting for the tick")
	for _, c := range stay {
		for _, fr := range c.frames {
			for _, e := range fr.msg.Events {
				if e.Kind == "mafia_chose" || e.Kind == "checked" {
					t.Fatalf("seat %d was sent %s before the tick", c.seat, e.Kind)
				}
			}
		}
	}
	f.advance(time.Second)
	check("the night, after its first tick")
	cs[doc].must(command("heal", doc))
	f.advance(time.Second) // the last tick and the morning
	check("the morning")
	for i := 0; i < 3 && watch.phase() != "night"; i++ {
		cs[watch.view.Speaker].must(command("pass", 0))
		check(fmt.Sprintf("the day, pass %d", i))
	}

	// Across a restart with events still waiting: whoever comes back with
	// the count it had gets them in its welcome.
	// On to the next night, tick by tick, whatever the deal: the detective
	// is dead, the doctor healed himself, nobody nominates, so the day ends
	// without a vote and two mafia against four cannot end the game first.
	for d := time.Duration(0); watch.phase() != "night"; d += tick {
		if watch.phase() == "ended" || d > time.Minute {
			t.Fatalf("no second night after %v: the game is at %q (%v)", d, watch.phase(), roles)
		}
		f.advance(tick)
		drainAll(stay...)
	}
	src := rng.New(7)
	for _, c := range cs[1:] {
		if m, ok := c.randomMove(&src); ok {
			c.send(m)
		}
	}
	drainAll(stay...)
	had := map[int]int{}
	for _, c := range stay {
		had[c.seat] = len(eventsOf(c))
	}
	s := f.crash(f.clk.Now())
	f.restart(s, f.clk.Now())
	for _, c := range stay {
		share := shareOf(t, s.log, c.seat)
		n := had[c.seat]
		for _, since := range []int{0, n - 1, n, n + 1, -1} {
			nc := f.attachSince(token(c), since)
			w := nc.frames[0]
			start := since
			if since < 0 || since > len(share) {
				start = 0
			}
			if w.msg.Seq != len(share) {
				t.Errorf("after the restart: seat %d since=%d: seq %d, its share of the log is %d", c.seat, since, w.msg.Seq, len(share))
			}
			if i, ok := sameEvents(w.events, share[start:]); !ok {
				t.Errorf("after the restart: seat %d since=%d: the welcome differs from its share of the log at %d", c.seat, since, i)
			}
		}
	}
}
