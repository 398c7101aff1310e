package room_test

import (
	"fmt"
	"testing"

	"mafia/engine"
	"mafia/room"
)

// TestOnlyTheHostsConnectionHasTheHostsPowers: every host action from a
// seat's connection or a spectator's (a kick above all) is refused with
// not_host and changes nothing: the kicked seat is still taken, its
// connection still open, the table not started.
func TestOnlyTheHostsConnectionHasTheHostsPowers(t *testing.T) {
	f := newFixture(t, settings(t, 5, nil), nil)
	_, nino := f.join("Nino", 1)
	_, gio := f.join("Gio", 2)
	seat1, seat2 := f.attach(nino), f.attach(gio)
	watch := f.attach("")
	before := f.r.Lobby()
	for who, c := range map[string]*client{"seat 1": seat1, "a spectator": watch} {
		for _, m := range []struct {
			action string
			target int
		}{{"kick", 2}, {"kick", 1}, {"add_bots", 0}, {"unblock", 0}, {"start", 0}, {"pause", 0}} {
			if err := c.send(hostAction(m.action, m.target)); codeOf(err) != room.CodeNotHost {
				t.Errorf("%s's %s %d: %v, want %s", who, m.action, m.target, err, room.CodeNotHost)
			}
		}
	}
	f.sync()
	after := f.r.Lobby()
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("refused host actions changed the lobby:\n%+v\n%+v", before, after)
	}
	if !after.Seats[1].Taken || !after.Seats[1].Connected {
		t.Errorf("seat 2 after a seat's kick: %+v, want taken and connected", after.Seats[1])
	}
	if seat2.drain(); seat2.closed {
		t.Errorf("seat 2's connection was closed (%s) by a kick that was not the host's", seat2.sub.Why())
	}
	if _, seats := f.storedTable(); len(seats) < 2 || seats[1].TokenHash == "" {
		t.Errorf("the store let seat 2 go after a seat's kick: %+v", seats)
	}
	// The host's own kick is obeyed: the refusals above were the sender's.
	f.hostClient().must(hostAction("kick", 2))
	if f.r.Lobby().Seats[1].Taken {
		t.Error("the host's kick left seat 2 taken")
	}
}

// TestAJoinWithAnotherTablesHostTokenGetsAnOrdinarySeat: a join that
// carries another table's host token is a join like any other: its seat has
// a token of its own (neither table's host token), its connection is not
// the host's, and its host actions are refused with not_host.
func TestAJoinWithAnotherTablesHostTokenGetsAnOrdinarySeat(t *testing.T) {
	a := newFixture(t, settings(t, 5, nil), nil)
	b := newFixture(t, settings(t, 5, nil), nil)
	a.join("Gio", 2)
	s, tok, err := a.r.Join(bg(), room.JoinRequest{Name: "Eve", Seat: 3, Token: b.host})
	if err != nil {
		t.Fatal(err)
	}
	if s != 3 || tok == b.host || tok == a.host || tok == "" {
		t.Errorf("a join with B's host token: seat %d, given B's host token %v, A's %v", s, tok == b.host, tok == a.host)
	}
	if c, err := a.r.Attach(bg(), b.host, 0); codeOf(err) != room.CodeBadToken {
		t.Errorf("an attach with B's host token at A: %v (host %v), want %s", err, c != nil && c.Host, room.CodeBadToken)
	}
	eve := a.attach(tok)
	if eve.sub.Host || eve.seat != 3 {
		t.Errorf("the seat joined with B's host token: seat %d, host %v", eve.seat, eve.sub.Host)
	}
	if w := eve.frames[0].msg; w.Host {
		t.Error("its welcome says it is the host")
	}
	if err := eve.send(hostAction("kick", 2)); codeOf(err) != room.CodeNotHost {
		t.Errorf("its kick: %v, want %s", err, room.CodeNotHost)
	}
	if err := eve.send(hostAction("add_bots", 0)); codeOf(err) != room.CodeNotHost {
		t.Errorf("its add_bots: %v, want %s", err, room.CodeNotHost)
	}
	a.sync()
	if l := a.r.Lobby(); !l.Seats[1].Taken || l.Seats[0].Bot {
		t.Errorf("A's seats after its host actions: %+v", l.Seats)
	}
	// B's host is B's still.
	if !b.hostClient().sub.Host {
		t.Error("B's host token no longer makes B's host")
	}
}

// TestEveryTableIsDealtFromASeedOfItsOwn: tables started one after the
// other are dealt from different seeds (a constant seed would deal every
// table the same cards), and among a dozen tables of seven (four under
// -short, the race step's run: more tables of the same add time, not
// interleavings) the deals are not all the same.
func TestEveryTableIsDealtFromASeedOfItsOwn(t *testing.T) {
	tables := 12
	if testing.Short() {
		tables = 4
	}
	seeds := map[uint64]int{}
	deals := map[string]int{}
	for i := 0; i < tables; i++ {
		f := newFixture(t, settings(t, 7, nil), nil)
		host := f.hostClient()
		host.must(hostAction("add_bots", 0))
		host.must(hostAction("start", 0))
		tb, _ := f.storedTable()
		if j, ok := seeds[tb.Seed]; ok {
			t.Errorf("tables %d and %d were dealt from the same seed %d", j, i, tb.Seed)
		}
		seeds[tb.Seed] = i
		var deal []engine.Role
		for _, r := range f.truth()[1:] {
			deal = append(deal, r)
		}
		if g := f.replay(); g.Seed() != tb.Seed {
			t.Errorf("table %d: stored seed %d, its game's %d", i, tb.Seed, g.Seed())
		}
		deals[fmt.Sprint(deal)]++
		f.r.Stop()
	}
	if len(deals) < 2 {
		t.Errorf("all %d tables were dealt the same cards: %v", tables, deals)
	}
}
