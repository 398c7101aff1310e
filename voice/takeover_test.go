package voice_test

import (
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/engine"
	"mafia/internal/pgtest"
	"mafia/locale"
	"mafia/room"
	"mafia/server"
	"mafia/store/postgres"
	"mafia/voice"
	"mafia/wire"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// voiceCluster is n nodes of a cluster on one fresh PostgreSQL database,
// in this process, each with its own forwarding unit on a loopback UDP
// port: each tells the others when it lets a lease go (as the server's
// own cluster tests do).
func voiceCluster(ctx context.Context, t *testing.T, n int) []*rig {
	t.Helper()
	url := pgtest.URL(t)
	rigs := make([]*rig, n)
	var mu sync.Mutex // guards rigs while they start
	for i := range rigs {
		node := fmt.Sprintf("n%d", i+1)
		db, err := postgres.Open(ctx, url, postgres.Shared())
		if err != nil {
			t.Fatal(err)
		}
		udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		hub, err := voice.New(voice.Config{UDP: udp, Loopback: true})
		if err != nil {
			t.Fatal(err)
		}
		r := &rig{hub: hub}
		cl := &server.Cluster{Node: node, URL: "https://" + node + ".mafia.test", TTL: time.Hour, Scan: time.Hour,
			Free: func(string) {
				mu.Lock()
				defer mu.Unlock()
				for _, o := range rigs {
					if o != nil && o != r && o.srv != nil {
						o.srv.Nudge()
					}
				}
			}}
		srv := server.New(server.Config{Store: db, SeatsPerAddress: -1, Pace: room.PaceInstant, Cluster: cl, Voice: hub,
			DealSeed: func() uint64 { return 3 },
			Render: func(lang string, err error) string {
				l, ok := locale.Parse(lang)
				if !ok {
					l = locale.En
				}
				return locale.New(l).Refusal(err)
			}})
		if _, err := srv.Resume(ctx); err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewUnstartedServer(nil)
		hs.Config = srv.HTTPServer(srv.Handler())
		hs.Listener = srv.Listener(hs.Listener)
		hs.Start()
		r.srv, r.hs, r.api = srv, hs, &client.API{Base: hs.URL}
		mu.Lock()
		rigs[i] = r
		mu.Unlock()
		t.Cleanup(func() {
			hs.CloseClientConnections()
			hs.Close()
			srv.Close()
			hub.Close()
			db.Close()
		})
	}
	return rigs
}

// TestVoice_ATakeoverCarriesTheAudioToTheNewOwner: a voice table in a
// speech on node n1 of a cluster, every seat a pion peer talking into its
// microphone; a listener hears the floor through n1's unit. n1 drains and
// hands the table over to n2; every connection is told its voice closed
// (table_moved), then is closed 1012 table_moved; each client does what the page does, dials again (at the
// table's owner, now n2) and joins the voice again, and the listener hears
// the floor again, through n2's unit, which alone forwards it now.
func TestVoice_ATakeoverCarriesTheAudioToTheNewOwner(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	nodes := voiceCluster(ctx, t, 2)
	n1, n2 := nodes[0], nodes[1]
	const n = 5
	id, host, tokens := n1.createOn(t, n1.hs.URL, n, "seats", 150)

	// join connects every seat at node r, joins the voice with its
	// microphone and has it talk until stop.
	join := func(r *rig, stop chan struct{}) []*player {
		seats := make([]*player, n+1)
		for s := 1; s <= n; s++ {
			seats[s] = r.dial(t, id, tokens[s], s)
			if a := seats[s].answer(seats[s].joinVoice(true)); a != "" {
				t.Fatalf("%s: seat %d's join refused: %s", r.hs.URL, s, a)
			}
		}
		for s := 1; s <= n; s++ {
			seats[s].connected()
			go seats[s].talk(stop)
		}
		return seats
	}
	stop1 := make(chan struct{})
	before := join(n1, stop1)
	hp := n1.dial(t, id, host, 0)
	hp.send(wire.ClientMessage{Type: "host", Action: "start"})
	hp.waitFor("a speech", func() bool { return hp.view != nil && hp.view.Speaker != 0 })
	_, x := now(hp)
	l := 1
	if x == 1 {
		l = 2
	}
	// heard waits until listener p has n more packets of the floor's seat.
	heard := func(p *player, what string, more int) {
		t.Helper()
		p.mu.Lock()
		from := countFrom(p.got, x)
		p.mu.Unlock()
		p.waitFor(what, func() bool { return countFrom(p.got, x) >= from+more })
	}
	heard(before[l], fmt.Sprintf("seat %d hears the floor (seat %d) through n1", l, x), 10)

	n1.srv.Drain()
	if err := n1.srv.Handover(ctx); err != nil {
		t.Fatalf("the hand-over: %v (n2 owns %v)", err, n2.srv.Owned())
	}
	// n2 takes the lease n1 let go (told by n1's Free): the table is its.
	for !slices.Contains(n2.srv.Owned(), id) {
		select {
		case <-ctx.Done():
			t.Fatalf("n2 never ran the table after the hand-over: %v", n2.srv.Owned())
		case <-time.After(20 * time.Millisecond): // polling the node: no event to wait on
		}
	}
	// Every seat's connection at n1 is closed 1012 table_moved: its
	// client dials again.
	for s := 1; s <= n; s++ {
		before[s].waitFor("the connection closed", func() bool { return before[s].endErr != nil })
		if c := websocket.CloseStatus(before[s].endErr); c != 1012 {
			t.Errorf("seat %d's connection at n1 ended %v, want 1012 table_moved", s, before[s].endErr)
		}
		// Told to join the voice again before the close (the page tears
		// its audio down at once, and joins again on the new welcome).
		if c := before[s].closedCode; c != string(room.CodeMoved) {
			t.Errorf("seat %d was told voice closed %q before the 1012, want %q", s, c, room.CodeMoved)
		}
	}
	close(stop1)
	stop2 := make(chan struct{})
	defer close(stop2)
	after := join(n2, stop2)
	heard(after[l], fmt.Sprintf("seat %d hears the floor (seat %d) again through n2", l, x), 10)
	if st := n2.hub.Stats(id); !st.Heard.Has(engine.Seat(x)) {
		t.Errorf("n2's unit hears %v, want the floor's seat %d", st.Heard, x)
	}
	if st := n1.hub.Stats(id); len(st.Listeners) != 0 {
		t.Errorf("n1's unit still has the table's audio: %d connections", len(st.Listeners))
	}
}

// countFrom is how many of got came on seat x's track.
func countFrom(got []rx, x int) int {
	n := 0
	for _, r := range got {
		if r.from == x {
			n++
		}
	}
	return n
}
