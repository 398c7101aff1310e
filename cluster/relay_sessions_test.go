package cluster

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/wire"
)

// TestTwoTablesRelayedAtOnceNeverCrossFrames pins the relay's session ids
// (RelayFor): two tables of one owner, each played to its end by a seat
// whose WebSocket is on the same relaying node at the same time, each get
// their own table's frames only: exactly those a direct connection of the
// same seat gets (types and seqs, in order), and every lobby they are sent
// is their own table's. Sessions that shared an id would share their
// subjects, and one table's frames would reach the other's client.
func TestTwoTablesRelayedAtOnceNeverCrossFrames(t *testing.T) {
	ctx := within(t, 90*time.Second)
	p := startPair(ctx, t)
	type table struct {
		id              string
		direct, relayed *client.Conn
		seen            chan [][]byte
		played          [][]byte
		err             error
	}
	tables := make([]*table, 2)
	var ids, tokens []string
	for i := range tables {
		created, err := p.direct.Create(ctx, client.CreateRequest{Name: fmt.Sprint("relayed ", i+1), TimingsMS: fastTimings, Pace: "instant"})
		if err != nil {
			t.Fatal(err)
		}
		j, err := p.direct.Join(ctx, created.Table, "ნინო", 1, created.HostToken)
		if err != nil {
			t.Fatal(err)
		}
		tables[i] = &table{id: created.Table, seen: make(chan [][]byte, 1)}
		ids, tokens = append(ids, created.Table), append(tokens, j.Token)
	}
	p.owned.set(ids...)
	p.b.Announce()
	meet(ctx, t, p.a, p.b)
	for _, tb := range tables {
		if got := p.a.Owner(tb.id); got != "b" {
			t.Fatalf("a thinks table %s is %q's, want b's", tb.id, got)
		}
	}
	for i, tb := range tables {
		var err error
		if tb.direct, err = p.direct.Dial(ctx, tb.id, tokens[i], 0); err != nil {
			t.Fatal(err)
		}
		defer tb.direct.CloseNow()
		if tb.relayed, err = p.relayed.Dial(ctx, tb.id, tokens[i], 0); err != nil {
			t.Fatalf("dial table %d through a: %v", i+1, err)
		}
		defer tb.relayed.CloseNow()
		if tb.relayed.Seat != 1 {
			t.Fatalf("table %d: the relayed welcome is for seat %d, want 1", i+1, tb.relayed.Seat)
		}
		// The relayed connection's arrival is news to the direct one.
		if m, err := tb.direct.Read(ctx); err != nil || m.Type != "update" || m.Lobby == nil || m.Lobby.Table != tb.id {
			t.Fatalf("table %d: the direct connection's news of the relayed one: %+v %v", i+1, m, err)
		}
	}
	if n := p.a.sessionCount(); n != 2 {
		t.Fatalf("a relays %d sessions, want 2 at once", n)
	}
	// Both games at once, each through its own session on a.
	var wg sync.WaitGroup
	for i, tb := range tables {
		go func() {
			var frames [][]byte
			for tb.direct.View == nil || tb.direct.View.Phase != "ended" {
				data, err := tb.direct.ReadRaw(ctx)
				if err != nil {
					break
				}
				frames = append(frames, data)
				_, _ = tb.direct.Absorb(data)
			}
			tb.seen <- frames
		}()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, a := range []string{"add_bots", "start"} {
				if _, err := tb.relayed.Send(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
					tb.err = err
					return
				}
			}
			tb.played, tb.err = play(ctx, tb.relayed, uint64(7+i))
		}()
	}
	wg.Wait()
	for i, tb := range tables {
		if tb.err != nil {
			t.Fatalf("table %d: playing through a: %v", i+1, tb.err)
		}
		seen := <-tb.seen
		got, want := broadcastKeys(t, tb.played), broadcastKeys(t, seen)
		if !slices.Equal(got, want) {
			t.Errorf("table %d: through a the seat got %d frames %v\nb's direct connection got %d: %v", i+1, len(got), got, len(want), want)
		}
		if len(got) < 10 {
			t.Errorf("table %d: a game of %d frames: too short to show anything", i+1, len(got))
		}
		for _, data := range tb.played {
			var m wire.ServerMessage
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			if m.Lobby != nil && m.Lobby.Table != tb.id {
				t.Errorf("table %d's seat, relayed, was sent the lobby of table %s", i+1, m.Lobby.Table)
			}
		}
	}
}

// TestARelayedBrowserKeepsItsSeatByItsCookie pins that a relay passes the
// client's Cookie on (forwarded): a browser holds its seat by the table's
// token cookie, not a bearer token, and through another node it must come
// back to its seat, not as a spectator.
func TestARelayedBrowserKeepsItsSeatByItsCookie(t *testing.T) {
	ctx := within(t, 60*time.Second)
	p := startPair(ctx, t)
	created, err := p.direct.Create(ctx, client.CreateRequest{Name: "cookie", TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	p.own(ctx, t, created.Table)
	j, err := p.direct.Join(ctx, created.Table, "გიო", 3, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, by := range []struct{ name, base string }{{"directly", p.bHTTP.URL}, {"through a", p.aHTTP.URL}} {
		h := http.Header{}
		h.Set("Cookie", "mafia_"+created.Table+"="+j.Token)
		u := "ws" + by.base[len("http"):] + "/api/tables/" + created.Table + "/ws?since=0"
		c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
		if err != nil {
			t.Fatalf("%s: dial: %v", by.name, err)
		}
		c.SetReadLimit(1 << 20)
		_, data, err := c.Read(ctx)
		c.CloseNow()
		if err != nil {
			t.Fatalf("%s: the welcome: %v", by.name, err)
		}
		var m wire.ServerMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type != "welcome" || m.Seat != 3 {
			t.Errorf("%s, with the table's cookie: a %s for seat %d, want the welcome of seat 3", by.name, m.Type, m.Seat)
		}
	}
}

// TestRelayedSaysWhichNodePassedARequestOn pins Relayed: a request with
// HopHeader was passed on by the node it names; one without was not.
func TestRelayedSaysWhichNodePassedARequestOn(t *testing.T) {
	for _, tc := range []struct {
		header string
		from   string
		ok     bool
	}{{"", "", false}, {"n1", "n1", true}, {"node-b", "node-b", true}} {
		r, err := http.NewRequest("GET", "http://x/api/tables/t/ws", nil)
		if err != nil {
			t.Fatal(err)
		}
		if tc.header != "" {
			r.Header.Set(HopHeader, tc.header)
		}
		if from, ok := Relayed(r); from != tc.from || ok != tc.ok {
			t.Errorf("Relayed with %s %q: %q %v, want %q %v", HopHeader, tc.header, from, ok, tc.from, tc.ok)
		}
	}
}
