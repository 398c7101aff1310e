package room_test

import (
	"context"
	"errors"
	"testing"

	"mafia/room"
	"mafia/store"
)

// rowlessStore refuses every UpdateTable, the write a room made apart from
// its events; the rest goes to the real store.
type rowlessStore struct{ room.Store }

func (rowlessStore) UpdateTable(context.Context, store.Table) error {
	return errors.New("refused: the status must travel with the events")
}

// TestTheStatusTravelsWithTheEventsThatChangeIt: a game's start and its end
// reach the store's table row with the events that make them (one write),
// not in a write of their own: with every separate table write refused, the
// stored table is still playing with the game's seed after the start, and
// ended with the winner after the end.
func TestTheStatusTravelsWithTheEventsThatChangeIt(t *testing.T) {
	f := newFixture(t, settings(t, 7, fastTimings), func(c *room.Config) {
		c.Store = rowlessStore{c.Store}
	})
	host := f.hostClient()
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	tb, _ := f.storedTable()
	if g := f.replay(); tb.Status != store.StatusPlaying || tb.Seed != g.Seed() {
		t.Fatalf("after the start the stored table is %q with seed %d; want playing with %d", tb.Status, tb.Seed, g.Seed())
	}
	for i := 0; i < 2000 && !host.ended(); i++ {
		f.ticks(tick)
		host.drain()
	}
	if !host.ended() {
		t.Fatal("the game did not end")
	}
	tb, _ = f.storedTable()
	if g := f.replay(); tb.Status != store.StatusEnded || tb.Winner != g.Winner().String() {
		t.Fatalf("after the end the stored table is %q won by %q; want ended, won by %s", tb.Status, tb.Winner, g.Winner())
	}
}
