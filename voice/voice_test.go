package voice_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"mafia/client"
	"mafia/engine"
	"mafia/rng"
	"mafia/voice"
	"mafia/wire"
)

// burstLen is the packets of each burst a seat sends.
const burstLen = 5

// table is a voice table in play: its seats' players (index = seat), the
// host and a spectator, all joined to its audio.
type table struct {
	t         *testing.T
	r         *rig
	id        string
	seats     []*player
	host, spe *player
	burst     int
	in        [engine.MaxSeats + 1]int64 // the server's count of each seat's packets at the last burst
}

// listeners is every connection that listens: the seats, the host, the
// spectator.
func (tb *table) listeners() []*player {
	return append(append([]*player(nil), tb.seats[1:]...), tb.host, tb.spe)
}

func openTable(t *testing.T, n int) *table {
	r := newRig(t, true)
	id, host, tokens := r.create(t, n, "everyone")
	tb := &table{t: t, r: r, id: id, seats: make([]*player, n+1)}
	for s := 1; s <= n; s++ {
		tb.seats[s] = r.dial(t, id, tokens[s], s)
	}
	tb.host = r.dial(t, id, host, 0)
	tb.spe = r.dial(t, id, "", 0)
	for s := 1; s <= n; s++ {
		if a := tb.seats[s].answer(tb.seats[s].joinVoice(true)); a != "" {
			t.Fatalf("seat %d's join refused: %s", s, a)
		}
	}
	for _, p := range []*player{tb.host, tb.spe} {
		if a := p.answer(p.joinVoice(false)); a != "" {
			t.Fatalf("a listener's join refused: %s", a)
		}
	}
	for _, p := range tb.listeners() {
		p.connected()
	}
	return tb
}

// stats is the unit's counts of the table.
func (tb *table) stats() voice.Stats { return tb.r.hub.Stats(tb.id) }

// voiceStats is the unit's counts.
type voiceStats = voice.Stats

// waitServer waits until the unit's counts satisfy cond.
func (tb *table) waitServer(what string, cond func(voice.Stats) bool) voice.Stats {
	tb.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := tb.stats()
		if cond(st) {
			return st
		}
		if time.Now().After(deadline) {
			tb.t.Fatalf("timed out waiting for the unit: %s (%+v)", what, st.In)
		}
		time.Sleep(5 * time.Millisecond) // polling the unit's counters: no event to wait on
	}
}

// waitHeard waits until the unit and every connection say that exactly
// want are heard.
func (tb *table) waitHeard(want []int) {
	tb.t.Helper()
	var set engine.SeatSet
	for _, s := range want {
		set = set.With(engine.Seat(s))
	}
	tb.waitServer(fmt.Sprintf("heard %v", want), func(st voice.Stats) bool { return st.Heard == set })
	for _, p := range tb.listeners() {
		p.waitFor(fmt.Sprintf("heard %v", want), func() bool { return p.hasHeard && slices.Equal(p.heard, want) })
	}
}

// listenerStats is the unit's counts for one connection.
func listenerStats(st voice.Stats, seat engine.Seat, n int) []voice.ListenerStats {
	var out []voice.ListenerStats
	for _, l := range st.Listeners {
		if l.Seat == seat {
			out = append(out, l)
		}
	}
	return out
}

// sendBurst has every seat send a burst and waits until the unit has read
// all of it (and so decided, packet by packet, whom it goes to).
func (tb *table) sendBurst() int {
	tb.t.Helper()
	tb.burst++
	for s := 1; s < len(tb.seats); s++ {
		if tb.seats[s].mic == nil {
			continue
		}
		tb.seats[s].burst(tb.burst, burstLen)
		tb.in[s] += burstLen
	}
	tb.waitServer("every seat's burst read", func(st voice.Stats) bool {
		for s := 1; s < len(tb.seats); s++ {
			if st.In[s] < tb.in[s] {
				return false
			}
		}
		return true
	})
	return tb.burst
}

// warmUpBurst marks the packets of warmUp.
const warmUpBurst = 250

// warmUp sends one-packet bursts from every microphone until every
// listener has had one from each seat in talkers: a peer just connected
// may lose its first packets while its receiver starts, which the exact
// checks after it must not count.
func (tb *table) warmUp(talkers []int) {
	tb.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		for s := 1; s < len(tb.seats); s++ {
			if tb.seats[s].mic != nil {
				tb.seats[s].burst(warmUpBurst, 1)
				tb.in[s]++
			}
		}
		tb.waitServer("the warm-up read", func(st voice.Stats) bool {
			for s := 1; s < len(tb.seats); s++ {
				if st.In[s] < tb.in[s] {
					return false
				}
			}
			return true
		})
		time.Sleep(50 * time.Millisecond) // the packets on their way: a warm-up only, no assertion
		ready := true
		for _, p := range tb.listeners() {
			p.mu.Lock()
			got := p.from(warmUpBurst)
			p.mu.Unlock()
			for _, s := range talkers {
				if s != p.seat && got[s] == 0 {
					ready = false
				}
			}
		}
		if ready {
			return
		}
		if time.Now().After(deadline) {
			tb.t.Fatal("the peers never heard each other")
		}
	}
}

// from counts the packets of burst b a connection got from each seat.
func (p *player) from(b int) map[int]int {
	out := map[int]int{}
	for _, r := range p.got {
		if r.burst == b {
			out[r.from]++
		}
	}
	return out
}

// checkBurst sends a burst and checks that each connection receives
// exactly the packets of the seats in want (but its own), and that the
// unit sent nothing else.
func (tb *table) checkBurst(want []int, label string) { tb.t.Helper(); tb.checkBurstFrom(want, label) }

// checkBurstFrom is checkBurst; want names the seats with microphones heard.
func (tb *table) checkBurstFrom(want []int, label string) {
	tb.t.Helper()
	before := tb.stats()
	b := tb.sendBurst()
	for _, p := range tb.listeners() {
		p.waitFor(label+": the floor's packets", func() bool {
			got := p.from(b)
			for _, s := range want {
				if s != p.seat && got[s] < burstLen {
					return false
				}
			}
			return true
		})
	}
	after := tb.stats()
	for _, p := range tb.listeners() {
		p.mu.Lock()
		got := p.from(b)
		p.mu.Unlock()
		for s := 1; s < len(tb.seats); s++ {
			n := 0
			if slices.Contains(want, s) && s != p.seat {
				n = burstLen
			}
			if got[s] != n {
				tb.t.Errorf("%s: connection of seat %d got %d packets of seat %d's burst, want %d", label, p.seat, got[s], s, n)
			}
		}
	}
	// The unit's own counts: nothing went to anyone from a seat not heard.
	for i, l := range after.Listeners {
		var prev voice.ListenerStats
		for _, pl := range before.Listeners {
			if pl.Seat == l.Seat {
				prev = pl
			}
		}
		_ = i
		for s := 1; s < len(tb.seats); s++ {
			d := l.Packets[s] - prev.Packets[s]
			if !slices.Contains(want, s) && d != 0 {
				tb.t.Errorf("%s: the unit sent %d packets of seat %d to seat %d's connection", label, d, s, l.Seat)
			}
		}
	}
}

// TestVoice_TheRulesDecideWhoIsHeard plays a whole game at a voice table of
// five pion peers (each seat's microphone a distinct marked stream), a host
// and a spectator listening: in the lobby everyone is heard; in each
// speech, defence, tie speech or last words exactly the floor's seat; a
// floor change switches the source; a foul cuts the floor; in a vote and
// at night nobody, and every seat's night traffic is the same whatever its
// card; after the end everyone. Each listener's track of a seat runs on
// with no gap in its numbers across floors, starts each run with the
// marker, ends it with silence frames, and carries no header extension.
func TestVoice_TheRulesDecideWhoIsHeard(t *testing.T) {
	const n = 5
	tb := openTable(t, n)
	all := []int{1, 2, 3, 4, 5}
	tb.waitHeard(all)
	tb.warmUp(all)
	tb.checkBurst(all, "lobby")

	tb.host.send(wire.ClientMessage{Type: "host", Action: "start"})
	src := rng.New(11)
	srcp := &src
	var speeches, floorChanges, nights, votes int
	fouled, ended := false, false
	lastSpeaker := 0
	nightRoles := map[string]bool{}
	for range 400 {
		tb.host.waitFor("a game's view", func() bool { return tb.host.view != nil })
		tb.host.mu.Lock()
		v := *tb.host.view
		tb.host.mu.Unlock()
		if v.Winner != "" {
			tb.waitHeard(all)
			tb.checkBurst(all, "after the end")
			ended = true
			break
		}
		var want []int
		if v.Speaker != 0 {
			want = []int{v.Speaker}
		}
		label := fmt.Sprintf("step %d (%s %d, floor %d)", v.Step, v.Phase, v.Round, v.Speaker)
		tb.waitHeard(want)
		before := tb.stats()
		tb.checkBurst(want, label)
		switch {
		case v.Speaker != 0:
			speeches++
			if lastSpeaker != 0 && lastSpeaker != v.Speaker {
				floorChanges++
			}
			lastSpeaker = v.Speaker
			if !fouled && v.Phase == "speech" {
				// The host's foul cuts the floor until it moves.
				tb.host.answer(tb.host.send(wire.ClientMessage{Type: "host", Action: "foul", Target: v.Speaker}))
				tb.waitHeard(nil)
				tb.checkBurst(nil, label+" after a foul")
				fouled = true
			}
		case v.Phase == "night":
			nights++
			after := tb.stats()
			// Every seat's traffic of the night: the same (nothing), by card.
			for s := 1; s <= n; s++ {
				for _, l := range listenerStats(after, engine.Seat(s), n) {
					var sum, bytes int64
					for _, pl := range listenerStats(before, engine.Seat(s), n) {
						for f := range l.Packets {
							sum += l.Packets[f] - pl.Packets[f] + l.Silence[f] - pl.Silence[f]
							bytes += l.Bytes[f] - pl.Bytes[f]
						}
					}
					if sum != 0 || bytes != 0 {
						t.Errorf("night %d: seat %d was sent %d packets (%d bytes)", v.Round, s, sum, bytes)
					}
				}
				tb.seats[s].mu.Lock()
				if sv := tb.seats[s].view; sv != nil {
					nightRoles[sv.Role] = true
				}
				tb.seats[s].mu.Unlock()
			}
		default:
			votes++
		}
		tb.advance(v.Step, srcp)
	}
	if !ended || speeches < 2 || floorChanges < 1 || nights < 1 || votes < 1 || !fouled {
		t.Fatalf("the game covered too little: ended %v, %d speeches, %d floor changes, %d nights, %d votes, fouled %v",
			ended, speeches, floorChanges, nights, votes, fouled)
	}
	t.Logf("covered: %d speeches, %d floor changes, %d nights (cards %v), %d votes, a foul, the end", speeches, floorChanges, nights, nightRoles, votes)
	if !nightRoles["mafia"] && !nightRoles["don"] || len(nightRoles) < 2 {
		t.Errorf("the nights checked seats of too few cards: %v", nightRoles)
	}
	for _, p := range tb.listeners() {
		p.mu.Lock()
		checkTracks(t, p, func(int) bool { return true })
		p.mu.Unlock()
	}
}

// checkTracks checks each of a connection's tracks: its numbers run on
// with no gap across runs, each run opens with the marker, no packet
// carries a header extension, and a run that ended is followed by silence.
func checkTracks(t *testing.T, p *player, silenced func(seat int) bool) {
	t.Helper()
	bySeat := map[int][]rx{}
	for _, r := range p.got {
		bySeat[r.from] = append(bySeat[r.from], r)
	}
	for s, rs := range bySeat {
		silences := 0
		for i, r := range rs {
			if r.ext {
				t.Errorf("connection of seat %d: a packet of seat %d carries a header extension", p.seat, s)
			}
			if r.burst < 0 {
				silences++
			}
			if i == 0 {
				continue
			}
			prev := rs[i-1]
			if r.seq != prev.seq+1 {
				t.Errorf("connection of seat %d, track of seat %d: sequence %d after %d", p.seat, s, r.seq, prev.seq)
			}
			if int32(r.ts-prev.ts) <= 0 {
				t.Errorf("connection of seat %d, track of seat %d: timestamp %d after %d", p.seat, s, r.ts, prev.ts)
			}
			if prev.burst < 0 && r.burst >= 0 && !r.mark {
				t.Errorf("connection of seat %d, track of seat %d: a run opens without the marker", p.seat, s)
			}
		}
		if silences == 0 && silenced(s) {
			t.Errorf("connection of seat %d, track of seat %d: no run ended with silence", p.seat, s)
		}
	}
}

// advance plays the step on: the floor's seat passes, every seat with a
// move makes one, until the host's view shows a later step.
func (tb *table) advance(step int, src *rng.Source) {
	tb.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		tb.host.mu.Lock()
		cur := tb.host.view.Step
		tb.host.mu.Unlock()
		if cur > step {
			return
		}
		if time.Now().After(deadline) {
			tb.host.mu.Lock()
			v := *tb.host.view
			tb.host.mu.Unlock()
			for s := 1; s < len(tb.seats); s++ {
				p := tb.seats[s]
				p.mu.Lock()
				tb.t.Logf("seat %d: step %d legal %+v errs %v", s, p.view.Step, p.view.Legal, p.errs)
				p.mu.Unlock()
			}
			tb.t.Fatalf("the game stuck at step %d: %+v", step, v.Phase)
		}
		for s := 1; s < len(tb.seats); s++ {
			p := tb.seats[s]
			p.mu.Lock()
			v := p.view
			p.mu.Unlock()
			if v == nil || v.Step != step {
				continue
			}
			m, ok := client.RandomMove(v, src)
			if !ok && v.Legal.Pass {
				m, ok = wire.ClientMessage{Type: "command", Verb: "pass", Step: v.Step}, true
			}
			if ok {
				p.send(m)
			}
		}
		select {
		case <-tb.host.changed:
		case <-time.After(100 * time.Millisecond):
		}
	}
}
