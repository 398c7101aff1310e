package room_test

import (
	"bytes"
	"testing"
	"time"

	"mafia/room"
)

// quiet fails the test if any client was sent an event since its last
// drain: what the store did not commit, nobody may see.
func quiet(t *testing.T, what string, cs ...*client) {
	t.Helper()
	for _, c := range cs {
		for _, fr := range c.drain() {
			if len(fr.events) > 0 {
				t.Errorf("%s: seat %d was sent events the store never committed: %s", what, c.seat, fr.raw)
			}
		}
	}
}

// TestAStoreThatCannotWriteAcknowledgesNothing makes the real store unable
// to write (SQLite's read-only mode, as a read-only file or a full disk
// refuses every write) at each point of a table's life, and checks that
// nothing it did not commit is acknowledged: a join gets no seat and no
// token, bots are not seated, a start and a host's foul are refused as
// internal, a pause is refused (a restart would run the clock), the
// clock's timeouts are retried; no seat, spectator or host is sent an
// event, and the game is where the store has it. Once the store writes
// again, the game goes on from the last committed event to its end, and
// every seat was sent exactly its share of the stored log.
func TestAStoreThatCannotWriteAcknowledgesNothing(t *testing.T) {
	f := newFixture(t, settings(t, 7, fastTimings), nil)
	readOnly := func(on bool) {
		t.Helper()
		if err := f.db.SetReadOnly(bg(), on); err != nil {
			t.Fatal(err)
		}
	}
	_, tok2 := f.join("person", 2)
	host, spec, p2 := f.hostClient(), f.attach(""), f.attach(tok2)
	all := []*client{host, spec, p2}

	readOnly(true)
	if s, tok, err := f.r.Join(bg(), room.JoinRequest{Name: "late", Seat: 5}); codeOf(err) != room.CodeInternal || tok != "" || s != 0 {
		t.Fatalf("a join the store cannot record: seat %d, token %q, %v; want %s and no seat", s, tok, err, room.CodeInternal)
	}
	if err := host.send(hostAction("add_bots", 0)); codeOf(err) != room.CodeInternal {
		t.Fatalf("add_bots the store cannot record: %v, want %s", err, room.CodeInternal)
	}
	if l := f.r.Lobby(); l.Seats[4].Taken || l.Seats[0].Taken {
		t.Fatalf("the lobby shows seats the store does not have: %+v", l.Seats)
	}
	if _, seats := f.storedTable(); seats[4].Name != "" || seats[0].Bot {
		t.Fatalf("stored seats changed: %+v", seats)
	}
	readOnly(false)
	_, tok5 := f.join("person", 5)
	p5 := f.attach(tok5)
	all = append(all, p5)
	host.must(hostAction("add_bots", 0))

	readOnly(true)
	if err := host.send(hostAction("start", 0)); codeOf(err) != room.CodeInternal {
		t.Fatalf("a start the store cannot record: %v, want %s", err, room.CodeInternal)
	}
	quiet(t, "a refused start", all...)
	if host.view != nil || len(f.events()) != 0 {
		t.Fatal("the game started without a stored event")
	}
	if tb, _ := f.storedTable(); tb.Status != "lobby" {
		t.Fatalf("stored status %q after a refused start", tb.Status)
	}
	readOnly(false)
	host.must(hostAction("start", 0))
	for i := 0; i < 17; i++ {
		f.advance(tick)
	}
	drainAll(all...)
	if host.ended() {
		t.Fatal("the game ended too soon for the test")
	}
	before, stored := mustJSON(t, host.view), len(f.events())

	readOnly(true)
	target := 0
	for _, st := range host.view.Seats {
		if st.Alive {
			target = st.Seat
			break
		}
	}
	if err := host.send(hostAction("foul", target)); codeOf(err) != room.CodeInternal {
		t.Fatalf("a foul the store cannot record: %v, want %s", err, room.CodeInternal)
	}
	if err := host.send(hostAction("pause", 0)); codeOf(err) != room.CodeInternal {
		t.Fatalf("a pause the store cannot record: %v, want %s", err, room.CodeInternal)
	}
	for i := 0; i < 30; i++ { // deadlines fall due, and are retried every second
		f.advance(tick)
	}
	quiet(t, "while the store cannot write", all...)
	if n := len(f.events()); n != stored {
		t.Fatalf("the log grew from %d to %d events while the store could not write", stored, n)
	}
	if got := mustJSON(t, host.view); !bytes.Equal(got, before) {
		t.Fatalf("the host's view moved while the store could not write:\n%s\n%s", before, got)
	}
	if h := f.db.WriteHealth(); !h.Failing(time.Now(), 0) || h.Reason != "read-only" {
		t.Errorf("the store's health while it cannot write: %+v", h)
	}

	readOnly(false)
	f.runToEnd(host, time.Hour)
	drainAll(all...)
	if g := f.checkEnded(host); !g.Ended() {
		t.Fatal("not ended")
	}
	log := f.events()
	if len(log) <= stored {
		t.Fatalf("the log did not go on after event %d", stored)
	}
	for _, c := range all {
		if i, ok := sameEvents(eventsOf(c), shareOf(t, log, c.seat)); !ok {
			t.Errorf("seat %d was sent %d events, not its share of the stored log (%d); first difference at %d",
				c.seat, len(eventsOf(c)), len(shareOf(t, log, c.seat)), i)
		}
	}
}
