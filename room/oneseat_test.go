package room_test

import (
	"fmt"
	"testing"

	"mafia/engine"
	"mafia/room"
)

// joinAs joins as a client from an address; it returns the seat, the token
// and the refusal's code.
func (f *fixture) joinAs(name string, seat int, token, clientID, addr string) (int, string, engine.Code) {
	f.t.Helper()
	s, tok, err := f.r.Join(bg(), room.JoinRequest{Name: name, Seat: seat, Token: token, Client: clientID, Addr: addr})
	return s, tok, codeOf(err)
}

// taken counts the taken seats of the lobby.
func (f *fixture) taken() int {
	n := 0
	for _, s := range f.r.Lobby().Seats {
		if s.Taken {
			n++
		}
	}
	return n
}

func TestAJoinThatHoldsASeatIsThatSeat(t *testing.T) {
	f := newFixture(t, settings(t, 7, nil), nil)
	s, tok, code := f.joinAs("ann", 0, "", "client-a", "10.0.0.1")
	if code != "" {
		t.Fatal(code)
	}
	// Again with the seat's token (a double click, a second tab): the same
	// seat and token, not a second seat.
	for _, asked := range []int{0, s} {
		s2, tok2, code := f.joinAs("ann again", asked, tok, "client-a", "10.0.0.1")
		if code != "" || s2 != s || tok2 != tok {
			t.Errorf("a join with seat %d's token asking for %d: seat %d %v", s, asked, s2, code)
		}
	}
	if _, _, code := f.joinAs("ann", 5, tok, "client-a", "10.0.0.1"); code != room.CodeAlreadySeated {
		t.Errorf("a join with a seat's token asking for another seat: %q", code)
	}
	// The same client without the token (the table's cookie lost).
	if _, _, code := f.joinAs("ann", 0, "", "client-a", "10.0.0.2"); code != room.CodeAlreadySeated {
		t.Errorf("a second join of one client: %q", code)
	}
	// The host's token: one host seat, asked for twice.
	hs, htok, code := f.joinAs("host", 0, f.host, "client-h", "10.0.0.9")
	if code != "" || htok != f.host {
		t.Fatalf("the host's join: %d %v", hs, code)
	}
	if s2, tok2, code := f.joinAs("host", 0, f.host, "client-h2", "10.0.0.8"); code != "" || s2 != hs || tok2 != f.host {
		t.Errorf("the host's second join: seat %d %v, want seat %d", s2, code, hs)
	}
	if n := f.taken(); n != 2 {
		t.Errorf("%d seats taken, want 2", n)
	}
	if l := f.r.Lobby(); l.Seats[s-1].Name != "ann" {
		t.Errorf("a repeated join renamed the seat: %q", l.Seats[s-1].Name)
	}
}

func TestSeatsFromOneAddressAreLimited(t *testing.T) {
	f := newFixture(t, settings(t, 7, nil), nil)
	addr := "192.0.2.7"
	for i, c := range []string{"a", "b", "c"} {
		if _, _, code := f.joinAs("friend "+c, 0, "", "client-"+c, addr); code != "" {
			t.Fatalf("friend %d from one address: %q", i+1, code)
		}
	}
	for _, c := range []string{"d", ""} { // a new client, and none at all
		if _, _, code := f.joinAs("friend d", 0, "", c, addr); code != room.CodeSeatLimit {
			t.Errorf("a 4th seat from one address (client %q): %q", c, code)
		}
	}
	// The host sits whatever the address.
	if _, _, code := f.joinAs("host", 0, f.host, "client-h", addr); code != "" {
		t.Errorf("the host's join from a full address: %q", code)
	}
	// Another address is its own count; a seat given back frees one.
	if _, _, code := f.joinAs("other", 0, "", "client-o", "192.0.2.8"); code != "" {
		t.Errorf("another address: %q", code)
	}
	_, tok, _ := f.joinAs("friend a", 0, "", "client-a", addr) // refused: the seat is held
	if tok != "" {
		t.Fatal("a second seat for client a")
	}
	if n := f.taken(); n != 5 {
		t.Fatalf("%d seats taken, want 5", n)
	}
	// A room with no limit (negative) seats any number from one address.
	g := newFixture(t, settings(t, 7, nil), func(c *room.Config) { c.SeatsPerAddress = -1 })
	for i := 0; i < 7; i++ {
		if _, _, code := g.joinAs("p", 0, "", "", addr); code != "" {
			t.Fatalf("seat %d with no limit: %q", i+1, code)
		}
	}
}

func TestAKickedJoinerCannotComeStraightBack(t *testing.T) {
	f := newFixture(t, settings(t, 7, nil), nil)
	host := f.hostClient()
	s, _, _ := f.joinAs("pest", 0, "", "client-p", "198.51.100.1")
	fs, _, _ := f.joinAs("friend", 0, "", "client-f", "198.51.100.2")
	host.must(hostAction("kick", s))
	for _, c := range []struct{ what, client, addr string }{
		{"the same client and address", "client-p", "198.51.100.1"},
		{"the same client from elsewhere", "client-p", "198.51.100.9"},
		{"the same address with a new client", "client-new", "198.51.100.1"},
		{"the same address with no client", "", "198.51.100.1"},
	} {
		if _, _, code := f.joinAs("pest", 0, "", c.client, c.addr); code != room.CodeBlocked {
			t.Errorf("%s: %q, want blocked", c.what, code)
		}
	}
	if _, _, code := f.joinAs("new", 0, "", "client-n", "198.51.100.3"); code != "" {
		t.Errorf("someone else: %q", code)
	}
	// The host sits at their own table even from a blocked address.
	if _, _, code := f.joinAs("host", 0, f.host, "client-h", "198.51.100.1"); code != "" {
		t.Errorf("the host from a blocked address: %q", code)
	}
	// Each kick blocks the one kicked.
	host.must(hostAction("kick", fs))
	if _, _, code := f.joinAs("friend", 0, "", "client-f", "198.51.100.2"); code != room.CodeBlocked {
		t.Errorf("the kicked friend: %q", code)
	}
	// unblock lets the kicked sit again; only the host may.
	spec := f.attach("")
	if err := spec.send(hostAction("unblock", 0)); codeOf(err) != room.CodeNotHost {
		t.Errorf("an unblock by a spectator: %v", err)
	}
	host.must(hostAction("unblock", 0))
	if _, _, code := f.joinAs("pest", 0, "", "client-p", "198.51.100.1"); code != "" {
		t.Errorf("after unblock: %q", code)
	}
}

func TestKickingTheHostsSeatBlocksNobody(t *testing.T) {
	f := newFixture(t, settings(t, 5, nil), nil)
	host := f.hostClient()
	hs, _, _ := f.joinAs("host", 0, f.host, "client-h", "203.0.113.5")
	host.must(hostAction("kick", hs))
	if _, _, code := f.joinAs("host's friend", 0, "", "client-x", "203.0.113.5"); code != "" {
		t.Errorf("a join from the host's address after the host left their seat: %q", code)
	}
	if _, _, code := f.joinAs("host", 0, f.host, "client-h", "203.0.113.5"); code != "" {
		t.Errorf("the host sits again: %q", code)
	}
}

// TestAPersonTheirBotsAndTheirNetworkAreOneShare (issue 25, items 8 and
// 9): a person, the bot accounts they own (from any address), and the
// accounts and guests from the addresses any of them came from are one
// share of a table: the limit's seats at most (own_seat_limit when the
// join's own person sits in it, seat_limit when only its network does);
// one seat at a rated table; another owner's bot from elsewhere still
// sits; an unlimited address links by accounts only.
func TestAPersonTheirBotsAndTheirNetworkAreOneShare(t *testing.T) {
	botOf := func(id, owner int64, addr string) room.JoinRequest {
		return room.JoinRequest{Name: fmt.Sprintf("Nika %d", id), Addr: addr, Account: id, BotAccount: true, Owner: owner, OwnerName: "owner"}
	}
	join := func(f *fixture, req room.JoinRequest) engine.Code {
		t.Helper()
		_, _, err := f.r.Join(bg(), req)
		return codeOf(err)
	}
	owner := room.JoinRequest{Name: "owner", Addr: "192.0.2.1", Account: 1}
	// Unrated: the owner and two bots from another machine fill the
	// share; a third bot is refused, and so is a guest from the bots'
	// machine and a second account from the owner's.
	f := newFixture(t, settings(t, 9, nil), nil)
	if code := join(f, owner); code != "" {
		t.Fatalf("the owner: %q", code)
	}
	for id := int64(101); id <= 102; id++ {
		if code := join(f, botOf(id, 1, "192.0.2.7")); code != "" {
			t.Fatalf("bot %d of the owner: %q", id, code)
		}
	}
	for _, c := range []struct {
		req  room.JoinRequest
		want engine.Code
	}{
		{botOf(103, 1, "192.0.2.8"), room.CodeOwnSeatLimit},
		{room.JoinRequest{Name: "guest", Addr: "192.0.2.7", Client: "client-g"}, room.CodeSeatLimit},
		{room.JoinRequest{Name: "second", Addr: "192.0.2.1", Account: 5}, room.CodeSeatLimit},
		{botOf(501, 5, "192.0.2.50"), ""}, // the second account's bot, linked to nobody seated
		{botOf(201, 2, "192.0.2.9"), ""},  // another owner's bot
		{botOf(502, 5, "192.0.2.51"), ""}, // the second account's: its share of two
		{botOf(503, 5, "192.0.2.52"), ""}, // and three
		{botOf(504, 5, "192.0.2.53"), room.CodeOwnSeatLimit},
	} {
		if code := join(f, c.req); code != c.want {
			t.Errorf("%s from %s: %q, want %q", c.req.Name, c.req.Addr, code, c.want)
		}
	}
	if n := f.taken(); n != 7 {
		t.Errorf("%d seats taken, want 7", n)
	}
	// Rated: one seat per share.
	rated := settings(t, 7, nil)
	rated.Rated = true
	h := newFixture(t, rated, nil)
	if code := join(h, owner); code != "" {
		t.Fatalf("the owner: %q", code)
	}
	for _, c := range []struct {
		req  room.JoinRequest
		want engine.Code
	}{
		{botOf(101, 1, "192.0.2.7"), room.CodeOwnSeatLimit},
		{room.JoinRequest{Name: "second", Addr: "192.0.2.1", Account: 5}, room.CodeSeatLimit},
		{botOf(201, 2, "192.0.2.9"), ""},
	} {
		if code := join(h, c.req); code != c.want {
			t.Errorf("rated: %s from %s: %q, want %q", c.req.Name, c.req.Addr, code, c.want)
		}
	}
	// An unlimited address: the bots of many owners sit from it, one
	// owner's still take one share.
	u := newFixture(t, settings(t, 9, nil), nil)
	for id := int64(1); id <= 5; id++ {
		req := botOf(100+id, id, "192.0.2.99")
		req.Unlimited = true
		if code := join(u, req); code != "" {
			t.Fatalf("bot of owner %d from an unlimited address: %q", id, code)
		}
	}
	for i, want := range []engine.Code{"", "", "", room.CodeOwnSeatLimit} {
		req := botOf(int64(201+i), 77, "192.0.2.99")
		req.Unlimited = true
		if code := join(u, req); code != want {
			t.Errorf("bot %d of one owner from an unlimited address: %q, want %q", i+1, code, want)
		}
	}
}

// TestAnAccountSeenAtAnAddressIsLinkedToIt (issue 25, item 9): a person
// whose logins took seats from an address lately (Config.AddrsOf) is
// linked to it: their bot from another machine is in the share of whoever
// sits from that address (seat_limit at a rated table), while a stranger's
// bot sits.
func TestAnAccountSeenAtAnAddressIsLinkedToIt(t *testing.T) {
	rated := settings(t, 7, nil)
	rated.Rated = true
	seen := map[int64][]string{5: {"192.0.2.1"}} // the second account's login, at the farmer's
	f := newFixture(t, rated, func(c *room.Config) { c.AddrsOf = func(p int64) []string { return seen[p] } })
	join := func(req room.JoinRequest) engine.Code {
		t.Helper()
		_, _, err := f.r.Join(bg(), req)
		return codeOf(err)
	}
	if code := join(room.JoinRequest{Name: "farmer", Addr: "192.0.2.1", Account: 1}); code != "" {
		t.Fatalf("the farmer: %q", code)
	}
	if code := join(room.JoinRequest{Name: "hoe", Addr: "198.51.100.7", Account: 501, BotAccount: true, Owner: 5}); code != room.CodeSeatLimit {
		t.Errorf("the second account's bot from another machine: %q, want seat_limit", code)
	}
	if code := join(room.JoinRequest{Name: "robo", Addr: "198.51.100.8", Account: 601, BotAccount: true, Owner: 6}); code != "" {
		t.Errorf("a stranger's bot: %q", code)
	}
}
