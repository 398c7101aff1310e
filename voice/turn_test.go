package voice_test

import (
	"crypto/rand"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pion/turn/v5"
	"github.com/pion/webrtc/v4"

	"mafia/engine"
	"mafia/rng"
	"mafia/voice"
	"mafia/wire"
)

// loopTURN starts a TURN server on loopback that relays only to the
// unit's loopback address, with a fresh secret; it returns the server, its
// URL and the secret.
func loopTURN(t *testing.T, perSeat int, now func() time.Time) (*voice.TURN, string, []byte) {
	t.Helper()
	secret := make([]byte, 32)
	rand.Read(secret)
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := voice.NewTURN(voice.TURNConfig{UDP: udp, RelayIP: net.IPv4(127, 0, 0, 1), RelayBind: "127.0.0.1",
		Secret: secret, Peers: []net.IP{net.IPv4(127, 0, 0, 1)}, PerSeat: perSeat, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, "turn:" + udp.LocalAddr().String() + "?transport=udp", secret
}

// TestVoice_ARelayOnlyPeerHearsTheFloorThroughTheBuiltInTURN: the unit's
// offer names the built-in TURN server with a credential of the seat's own;
// a pion peer whose ICE policy is relay-only (a phone behind a NAT that
// lets no direct path through) connects through it, is heard by every
// other seat in the lobby and hears them, and in the game hears exactly
// the floor.
func TestVoice_ARelayOnlyPeerHearsTheFloorThroughTheBuiltInTURN(t *testing.T) {
	const n = 5
	srv, url, secret := loopTURN(t, 0, nil)
	r := newRigWith(t, true, func(c *voice.Config) { c.ICE = voice.ICEConfig{URLs: []string{url}, Secret: secret} })
	id, host, tokens := r.createOn(t, r.hs.URL, n, "seats", 1000)
	tb := &table{t: t, r: r, id: id, seats: make([]*player, n+1)}
	for s := 1; s <= n; s++ {
		tb.seats[s] = r.dial(t, id, tokens[s], s)
		tb.seats[s].relay = s == n
		if a := tb.seats[s].answer(tb.seats[s].joinVoice(true)); a != "" {
			t.Fatalf("seat %d's join refused: %s", s, a)
		}
	}
	tb.host = r.dial(t, id, host, 0)
	if a := tb.host.answer(tb.host.joinVoice(false)); a != "" {
		t.Fatalf("the host's join refused: %s", a)
	}
	tb.spe = tb.host
	for _, p := range tb.listeners() {
		p.connected()
	}
	relayed := tb.seats[n]
	relayed.mu.Lock()
	offer := relayed.offers[0]
	relayed.mu.Unlock()
	if len(offer.ICEServers) != 1 || offer.ICEServers[0].URLs[0] != url || !strings.Contains(offer.ICEServers[0].Username, fmt.Sprintf("%s.%d.", id, n)) ||
		offer.ICEServers[0].Credential == "" {
		t.Fatalf("the offer's ICE servers: %+v, want %s with a credential of seat %d", offer.ICEServers, url, n)
	}
	pair, err := relayed.pc.GetTransceivers()[0].Sender().Transport().ICETransport().GetSelectedCandidatePair()
	if err != nil || pair == nil || pair.Local.Typ != webrtc.ICECandidateTypeRelay {
		t.Fatalf("seat %d's path: %v (%v), want a relay", n, pair, err)
	}
	if srv.Allocations() < 1 {
		t.Fatalf("the TURN server has %d allocations", srv.Allocations())
	}
	all := []int{1, 2, 3, 4, 5}
	tb.waitHeard(all)
	tb.warmUp(all)
	tb.checkBurst(all, "the lobby, seat 5 relayed")

	tb.host.send(wire.ClientMessage{Type: "host", Action: "start"})
	seed := rng.New(3)
	src := &seed
	for range 100 {
		tb.host.waitFor("a game's view", func() bool { return tb.host.view != nil })
		tb.host.mu.Lock()
		v := *tb.host.view
		tb.host.mu.Unlock()
		if v.Speaker != 0 && v.Speaker != n && v.Winner == "" {
			tb.waitHeard([]int{v.Speaker})
			tb.checkBurst([]int{v.Speaker}, fmt.Sprintf("seat %d's speech, heard by seat 5 through the relay", v.Speaker))
			return
		}
		tb.advance(v.Step, src)
	}
	t.Fatal("no speech of another seat than 5")
}

// TestTURN_OnlyTheUnitsCredentialsAllocateAndOnlyToTheUnit: the built-in
// TURN server allocates a relay only for a credential the unit handed out
// and not yet expired, only a few per seat (a seat's joins again share the
// quota; another seat has its own), and relays only to the unit's address.
func TestTURN_OnlyTheUnitsCredentialsAllocateAndOnlyToTheUnit(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1_800_000_000, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	_, url, secret := loopTURN(t, 2, clock)
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "turn:"), "?transport=udp")
	ice := voice.ICEConfig{URLs: []string{url}, Secret: secret, TTL: time.Hour, Now: clock}
	cred := func(seat engine.Seat) wire.VoiceICEServer { return ice.Servers("T1", seat)[0] }
	allocate := func(user, pass string) (*turn.Client, net.PacketConn, error) {
		t.Helper()
		conn, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		c, err := turn.NewClient(&turn.ClientConfig{TURNServerAddr: addr, STUNServerAddr: addr, Username: user, Password: pass,
			Realm: "mafia", Conn: conn})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Listen(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(); conn.Close() })
		relay, err := c.Allocate()
		if err == nil {
			t.Cleanup(func() { relay.Close() })
		}
		return c, relay, err
	}

	good := cred(1)
	forged := ice
	forged.Secret = []byte("not the server's secret, guessed by a client")
	for _, tc := range []struct{ name, user, pass string }{
		{"no credential", "", ""},
		{"a static name", "admin", "admin"},
		{"a wrong password", good.Username, "AAAA" + good.Credential[4:]},
		{"a credential signed with another secret", forged.Servers("T1", 1)[0].Username, forged.Servers("T1", 1)[0].Credential},
		{"another user's name with this password", strings.Replace(good.Username, "T1.1.", "T1.2.", 1), good.Credential},
	} {
		if _, _, err := allocate(tc.user, tc.pass); err == nil {
			t.Errorf("%s: allocated", tc.name)
		}
	}

	c, _, err := allocate(good.Username, good.Credential)
	if err != nil {
		t.Fatalf("a good credential: %v", err)
	}
	if err := c.CreatePermission(&net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9}); err != nil {
		t.Errorf("a permission to the unit's address: %v", err)
	}
	if err := c.CreatePermission(&net.UDPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 9}); err == nil {
		t.Error("a permission to another address was granted")
	}

	// Seat 1 joins again: its second credential allocates (2 a seat), a
	// third is refused; seat 2 still allocates.
	again := cred(1)
	if again.Username == good.Username {
		t.Fatal("two joins got the same credential")
	}
	if _, _, err := allocate(again.Username, again.Credential); err != nil {
		t.Fatalf("seat 1's second allocation: %v", err)
	}
	third := cred(1)
	if _, _, err := allocate(third.Username, third.Credential); err == nil {
		t.Error("seat 1's third allocation was granted (2 a seat)")
	}
	{
		c2 := cred(2)
		if _, _, err := allocate(c2.Username, c2.Credential); err != nil {
			t.Errorf("seat 2's allocation: %v", err)
		}
	}

	// An hour later, seat 3's credential of now has expired.
	late := cred(3)
	mu.Lock()
	now = now.Add(time.Hour + time.Second)
	mu.Unlock()
	if _, _, err := allocate(late.Username, late.Credential); err == nil {
		t.Error("an expired credential allocated")
	}
}
