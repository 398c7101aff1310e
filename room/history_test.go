package room_test

import (
	"bytes"
	"fmt"
	"testing"

	"mafia/engine"
	"mafia/internal/traffictest"
	"mafia/rng"
	"mafia/room"
	"mafia/wire"
)

// TestAfterItsWelcomeANewConnectionsFramesAreTheSameForEveryCard: on a
// night after a death, once the lobby, the mafia (a line of theirs still waiting for its
// tick) and the dead have talked, a new connection of every seat opens at
// one moment and asks for its history as the web client does (the newest
// page, then the older ones to the first line), and the night goes on a
// tick. An observer of the wire sees the same frames for every seat,
// mafia, town and dead alike: welcomes of one length, then as many frames,
// of the same lengths, at the same moments; a spectator's history pages are the
// seats' too. The pages themselves differ: the mafia read the mafia's
// lines (but the one waiting), the dead the dead's.
func TestAfterItsWelcomeANewConnectionsFramesAreTheSameForEveryCard(t *testing.T) {
	const players = 7
	f := newFixture(t, settings(t, players, nightTimings), func(c *room.Config) { c.NightTick = tick })
	cs := f.fillWithPeople(players)
	host := f.hostClient()
	for i := range 70 {
		cs[1+i%players].must(chat("town", fmt.Sprintf("lobby line %d", i)))
	}
	host.must(hostAction("start", 0))
	roles := f.truth()
	rules := chatRules{roles: roles}
	src := rng.New(5)
	said := map[string]bool{}
	for step := 0; ; step++ {
		if step > 3000 {
			t.Fatal("no second night")
		}
		g := f.replay()
		rules.g = g
		if g.Ended() {
			t.Fatal("the game ended before a night after a death")
		}
		if g.Phase() == engine.PhaseNight && g.Round() >= 2 && len(g.Alive().Seats()) < players {
			break // a night after someone has died
		}
		for s := 1; s <= players; s++ {
			for _, ch := range []string{"mafia", "dead"} {
				key := fmt.Sprintf("%d %d %s", s, g.Step(), ch)
				if rules.mayPost(ch, s) && !said[key] {
					said[key] = true
					cs[s].must(chat(ch, fmt.Sprintf("%s line of %d in step %d", ch, s, g.Step())))
				}
			}
		}
		acted := false
		for _, p := range cs[1:] {
			p.drain()
			if m, ok := p.randomMove(&src); ok {
				acted = true
				p.send(m)
			}
		}
		if !acted {
			f.advance(tick)
		}
	}
	// A line of the mafia, posted now, waits for the night's next tick.
	mafia := seatsOf(roles, func(r engine.Role) bool { return r.IsMafia() })
	var poster int
	for _, s := range mafia {
		if rules.mayPost("mafia", s) {
			poster = s
		}
	}
	if poster == 0 {
		t.Fatal("no living mafioso at night")
	}
	const waiting = "a line that waits for its tick"
	cs[poster].must(chat("mafia", waiting))

	// Every seat and a spectator open a new connection now and read back.
	fresh := map[int]*client{}
	for s := 0; s <= players; s++ {
		tok := ""
		if s > 0 {
			tok = f.tokens[s]
		}
		fresh[s] = f.attach(tok)
	}
	// Each seat's connection tells the others' it is connected (a lobby
	// update): the frames are compared from the moment all are open, and
	// the welcomes apart.
	mark := map[int]int{}
	for s := 0; s <= players; s++ {
		fresh[s].drain()
		mark[s] = len(fresh[s].wire)
		if s > 1 && fresh[s].wire[0].size != fresh[1].wire[0].size {
			t.Errorf("seat %d's welcome is %d bytes, seat 1's %d", s, fresh[s].wire[0].size, fresh[1].wire[0].size)
		}
	}
	pages := map[int][]wire.ChatLine{}
	sizes := map[int][]int{}
	carried := map[int]int{} // the bytes of the pages but their padding
	for s := 0; s <= players; s++ {
		c := fresh[s]
		before := 0
		for {
			c.must(wire.ClientMessage{Type: "history", Before: before})
			fr := c.frames[len(c.frames)-1]
			pages[s] = append(pages[s], fr.msg.Lines...)
			sizes[s] = append(sizes[s], len(fr.raw))
			carried[s] += len(bytes.TrimRight(fr.raw, " "))
			if before = fr.msg.Before; before == 0 {
				break
			}
		}
	}
	f.advance(tick) // the waiting line goes out
	drainAll(append([]*client{host}, fresh[0])...)
	for s := 1; s <= players; s++ {
		fresh[s].drain()
	}
	observed := func(s int) []traffictest.Frame {
		var out []traffictest.Frame
		for _, w := range fresh[s].wire[mark[s]:] {
			out = append(out, traffictest.Frame{At: w.at, Size: w.size})
		}
		return out
	}
	g := f.replay()
	deadSeen, mafiaSeen := false, false
	for s := 1; s <= players; s++ {
		if err := traffictest.Differ(observed(1), observed(s)); err != nil {
			t.Errorf("seat 1 (%v) and seat %d (%v) got different frames after their welcomes: %v", roles[1], s, roles[s], err)
		}
		if fmt.Sprint(sizes[s]) != fmt.Sprint(sizes[0]) {
			t.Errorf("seat %d's (%v) history pages are %v bytes, a spectator's %v", s, roles[s], sizes[s], sizes[0])
		}
		channels := map[string]int{}
		for _, l := range pages[s] {
			channels[l.Channel]++
			if l.Text == waiting {
				t.Errorf("seat %d read a line still waiting for its tick", s)
			}
		}
		alive := g.Alive().Has(engine.Seat(s))
		switch {
		case roles[s].IsMafia() && channels["mafia"] == 0:
			t.Errorf("seat %d (%v) reads back none of the mafia's lines", s, roles[s])
		case !roles[s].IsMafia() && channels["mafia"] > 0:
			t.Errorf("seat %d (%v) reads back the mafia's lines", s, roles[s])
		case alive && channels["dead"] > 0:
			t.Errorf("seat %d, alive, reads back the dead's lines", s)
		case !alive && channels["dead"] == 0:
			t.Errorf("seat %d, dead, reads back none of the dead's lines", s)
		}
		deadSeen = deadSeen || !alive
		mafiaSeen = mafiaSeen || channels["mafia"] > 0
		total := 0
		for _, n := range sizes[s] {
			total += n
		}
		t.Logf("seat %d (%v, alive %v): %v in %d pages, %d bytes of which %d padding", s, roles[s], alive, channels, len(sizes[s]), total, total-carried[s])
	}
	if !deadSeen || !mafiaSeen || len(sizes[0]) < 2 {
		t.Fatalf("the game gave no dead seat, no mafia line or one page only: the test says little")
	}
	for _, s := range mafia {
		if g.Alive().Has(engine.Seat(s)) && !fresh[s].heard("mafia", waiting) {
			t.Errorf("the living mafioso %d's new connection did not get the waiting line at its tick", s)
		}
	}
}

// heard reports whether the client was sent a chat line with text in
// channel.
func (c *client) heard(channel, text string) bool {
	for _, fr := range c.frames {
		if fr.msg.Type == "chat" && fr.msg.Channel == channel && fr.msg.Text == text {
			return true
		}
	}
	return false
}
