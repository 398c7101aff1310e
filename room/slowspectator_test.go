package room_test

import (
	"testing"

	"mafia/room"
)

// TestADroppedSpectatorCostsTheSeatsNoFrame: spectators too slow to read
// are dropped, and the seats hear nothing of it. A spectator is not in the
// lobby (only seats' connections are), so its drop is no lobby news: were
// it, a crowd of slow spectators dropping one after another would fill a
// seat's queue with lobby frames and cost the seat its connection.
func TestADroppedSpectatorCostsTheSeatsNoFrame(t *testing.T) {
	const spectators = 20
	f := newFixture(t, settings(t, 5, fastTimings), func(c *room.Config) { c.SendBuffer = 8 })
	seats := make([]*client, 6)
	for s := 1; s <= 5; s++ {
		_, tok := f.join("person", s)
		seats[s] = f.attach(tok)
		drainAll(seats...) // each attach is lobby news to the seats before it
	}
	for i := 0; i < spectators; i++ {
		if _, err := f.r.Attach(bg(), "", 0); err != nil { // never read
			t.Fatal(err)
		}
	}
	host := f.hostClient()
	host.must(hostAction("start", 0))
	drainAll(seats...)
	host.drain()
	before := make([]int, len(seats))
	for s := 1; s < len(seats); s++ {
		before[s] = len(seats[s].frames)
	}
	for steps := 0; f.dropped.Load() < spectators; steps++ {
		if steps > 1000 {
			t.Fatalf("only %d of %d slow spectators were dropped", f.dropped.Load(), spectators)
		}
		f.advance(tick)
		drainAll(seats...)
		host.drain()
	}
	for s := 1; s < len(seats); s++ {
		if seats[s].closed {
			t.Fatalf("seat %d was dropped", s)
		}
		for _, fr := range seats[s].frames[before[s]:] {
			if fr.msg.Lobby != nil && len(fr.msg.Events) == 0 {
				t.Errorf("seat %d got a lobby frame while spectators were dropped: %s", s, fr.raw)
			}
		}
	}
	if f.dropped.Load() != spectators {
		t.Errorf("%d drops, want the %d spectators", f.dropped.Load(), spectators)
	}
}
