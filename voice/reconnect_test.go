package voice_test

import (
	"testing"
)

// TestVoice_AReconnectedSeatIsHeardAgainAndASeatWithoutAMicListens: at a
// table in its lobby (everyone heard), a seat that joined without a
// microphone hears every other seat and sends nothing; a seat whose
// connection drops and comes back (a new WebSocket, a new peer, a new
// stream) is heard again, and every listener's track of it runs on with
// no gap in its numbers, its drop closed with silence and its return
// opened with the marker, as if it had paused.
func TestVoice_AReconnectedSeatIsHeardAgainAndASeatWithoutAMicListens(t *testing.T) {
	const n = 5
	r := newRig(t, true)
	id, host, tokens := r.create(t, n, "seats")
	tb := &table{t: t, r: r, id: id, seats: make([]*player, n+1)}
	for s := 1; s <= n; s++ {
		tb.seats[s] = r.dial(t, id, tokens[s], s)
		if a := tb.seats[s].answer(tb.seats[s].joinVoice(s != n)); a != "" {
			t.Fatalf("seat %d's join refused: %s", s, a)
		}
	}
	tb.host = r.dial(t, id, host, 0)
	if a := tb.host.answer(tb.host.joinVoice(false)); a != "" {
		t.Fatalf("the host's join refused: %s", a)
	}
	tb.spe = tb.host // no spectator at a players' table: the host twice
	for _, p := range tb.listeners() {
		p.connected()
	}
	talkers := []int{1, 2, 3, 4}
	tb.waitHeard([]int{1, 2, 3, 4, 5})
	tb.warmUp(talkers)
	tb.checkBurstFrom(talkers, "before the drop")

	// Seat 2 drops and comes back.
	old := tb.seats[2]
	old.conn.CloseNow()
	old.pc.Close()
	tb.waitServer("seat 2's audio gone", func(st voiceStats) bool { return len(st.Listeners) == n })
	back := r.dial(t, id, tokens[2], 2)
	back.seq, back.ts = 40000, 123456789 // a new microphone's own numbers
	if a := back.answer(back.joinVoice(true)); a != "" {
		t.Fatalf("seat 2's join again refused: %s", a)
	}
	back.connected()
	tb.seats[2] = back
	tb.warmUp(talkers)
	tb.checkBurstFrom(talkers, "after seat 2 came back")
	for _, p := range tb.listeners() {
		if p == old {
			continue
		}
		p.mu.Lock()
		checkTracks(t, p, func(seat int) bool { return seat == 2 })
		p.mu.Unlock()
	}
	st := tb.stats()
	for _, l := range st.Listeners {
		if l.Seat != 0 && l.Packets[n] != 0 {
			t.Errorf("seat %d was sent %d packets of seat %d, which has no microphone", l.Seat, l.Packets[n], n)
		}
	}
	if st.In[n] != 0 {
		t.Errorf("the unit read %d packets of seat %d, which has no microphone", st.In[n], n)
	}
}
