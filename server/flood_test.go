package server

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/room"
	"mafia/wire"
)

// handled waits until the server has dealt with n client frames in all
// (accepted or refused): a barrier for frames that get no answer.
func handled(t *testing.T, ts *testServer, n int) {
	t.Helper()
	ctx := within(t, 30*time.Second)
	got := func() float64 { return scrape(ctx, t, ts.ops.URL)["mafia_frames_received_total"] }
	if !waitFor(20*time.Second, func() bool { return got() >= float64(n) }) {
		t.Fatalf("the server dealt with %v client frames, want %d (were connections dropped?)", got(), n)
	}
}

// pongsUntil reads until the pong of id, counting the other pongs.
func pongsUntil(ctx context.Context, t *testing.T, c *wsConn, id int64) (pongs map[int64]bool) {
	t.Helper()
	pongs = map[int64]bool{}
	for {
		_, m, err := c.read(ctx)
		if err != nil {
			t.Fatalf("waiting for pong %d: %v", id, err)
		}
		if m.Type == "pong" {
			if m.ID == id {
				return pongs
			}
			pongs[m.ID] = true
		}
	}
}

func ping(ctx context.Context, t *testing.T, c *wsConn, id int64) {
	t.Helper()
	if _, err := c.send(ctx, wire.ClientMessage{Type: "ping", ID: id}); err != nil {
		t.Fatal(err)
	}
}

// lobbyTable makes a 5-seat table that stays in the lobby.
func lobbyTable(ctx context.Context, t *testing.T, ts *testServer) *table {
	t.Helper()
	return newTable(ctx, t, ts.api, client.CreateRequest{Name: "flood", Players: 5, TimingsMS: longTimings}, []int{1}, 1)
}

// TestLimiter_BurstAndRatePinned pins a connection's message limit with a
// fake clock, exactly: 40 at one instant, then one more each 50 ms (20 a
// second). Doubling the burst or the rate fails it.
func TestLimiter_BurstAndRatePinned(t *testing.T) {
	const burst, every = 40, 50 * time.Millisecond
	var clk *room.FakeClock
	ts := startServerWith(t, "", fakeClocked(&clk))
	ctx := within(t, 60*time.Second)
	tb := lobbyTable(ctx, t, ts)
	c := open(ctx, t, ts.api.Base, tb.id, "", dialOpts{})
	defer c.close()

	// Twice the burst at one instant: exactly the burst is answered.
	for i := int64(0); i < 2*burst; i++ {
		ping(ctx, t, c, 1000+i)
	}
	handled(t, ts, 2*burst)
	clk.Advance(every) // one message's worth
	ping(ctx, t, c, 9000)
	if got := len(pongsUntil(ctx, t, c, 9000)); got != burst {
		t.Errorf("%d pings at one instant got %d pongs, want the burst, %d", 2*burst, got, burst)
	}
	// The bucket is empty again: the next is refused until 50 ms later.
	ping(ctx, t, c, 9001)
	handled(t, ts, 2*burst+2)
	clk.Advance(every)
	ping(ctx, t, c, 9002)
	if pongs := pongsUntil(ctx, t, c, 9002); pongs[9001] {
		t.Errorf("a ping right after the bucket was emptied got its pong: the rate is over 1 per %v", every)
	}
}

// TestLimiter_RunsOnTheLimitClockNotTheGames: a connection's limit runs on
// Config.LimitClock, not on the games' clock: a test (or anything else)
// that holds the games' clock still while a page sends on its own timers
// does not empty a bucket that never fills again, and a game's clock moved
// on gives a flood nothing. (The browser tests failed so: their pages'
// pings and the night's beat, one a second of real time, took the burst
// from a frozen clock, and a seat's move was refused as rate_limited.)
func TestLimiter_RunsOnTheLimitClockNotTheGames(t *testing.T) {
	const burst, every = 40, 50 * time.Millisecond
	var game *room.FakeClock
	limit := room.NewFakeClock(time.Unix(1_900_000_000, 0))
	ts := startServerWith(t, "", both(fakeClocked(&game), func(c *Config) { c.LimitClock = limit }))
	ctx := within(t, 60*time.Second)
	tb := lobbyTable(ctx, t, ts)
	c := open(ctx, t, ts.api.Base, tb.id, "", dialOpts{})
	defer c.close()

	// The burst and five more (refused, but not a flood).
	for i := int64(0); i < burst+5; i++ {
		ping(ctx, t, c, 1000+i)
	}
	handled(t, ts, burst+5)
	game.Advance(time.Second) // twenty messages' worth, on the games' clock: nothing
	ping(ctx, t, c, 9000)
	handled(t, ts, burst+6)
	limit.Advance(every) // the limit's clock gives one message
	ping(ctx, t, c, 9001)
	// 9001's pong comes (pongsUntil waits for it); before it, the burst's.
	if pongs := pongsUntil(ctx, t, c, 9001); len(pongs) != burst || pongs[9000] {
		t.Errorf("%d pongs before the limit's clock moved (9000 answered: %v): want the burst of %d, none after only the games' clock moved",
			len(pongs), pongs[9000], burst)
	}
}

// TestFrames_EveryKindCountsAgainstTheLimit: binary, oversized and
// malformed frames each take their place from the rate like any other (they
// used to skip it, and one socket sending them burned a core): after a
// burst of them, a ping is refused too.
func TestFrames_EveryKindCountsAgainstTheLimit(t *testing.T) {
	const burst, every = 40, 50 * time.Millisecond
	var clk *room.FakeClock
	ts := startServerWith(t, "", fakeClocked(&clk))
	ctx := within(t, 60*time.Second)
	tb := lobbyTable(ctx, t, ts)
	big := []byte(`{"v":1,"type":"chat","channel":"town","text":"` + strings.Repeat("x", 4500) + `"}`)
	sent := 0
	for i, c := range []struct {
		name string
		typ  websocket.MessageType
		data []byte
	}{
		{"binary", websocket.MessageBinary, []byte(`{"v":1,"type":"ping"}`)},
		{"oversized", websocket.MessageText, big},
		{"malformed", websocket.MessageText, []byte(`{"v":1,"type":`)},
	} {
		// Each from an address of its own: the address's limit is not
		// what this is about.
		conn := open(ctx, t, ts.api.Base, tb.id, "", dialOpts{http: fromAddr(fmt.Sprintf("127.0.1.%d", i+1))})
		for j := 0; j < burst; j++ {
			if err := conn.sendRaw(ctx, c.typ, c.data); err != nil {
				t.Fatal(err)
			}
		}
		ping(ctx, t, conn, 1)
		sent += burst + 1
		handled(t, ts, sent)
		clk.Advance(every)
		ping(ctx, t, conn, 2)
		sent++
		if pongs := pongsUntil(ctx, t, conn, 2); pongs[1] {
			t.Errorf("%s: after %d %s frames a ping still got its pong: they skipped the limit", c.name, burst, c.name)
		}
		conn.close()
	}
}

// TestFrames_AFloodIsClosedWithItsReason: a connection that keeps sending
// frames that are refused gets a last error frame (flood, in its language)
// and is closed with 1008 "flood".
func TestFrames_AFloodIsClosedWithItsReason(t *testing.T) {
	var clk *room.FakeClock
	ts := startServerWith(t, "", both(localized, fakeClocked(&clk)))
	ctx := within(t, 60*time.Second)
	tb := lobbyTable(ctx, t, ts)
	c := open(ctx, t, ts.api.Base, tb.id, "", dialOpts{query: url.Values{"lang": {"ka"}}})
	defer c.close()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // until the server closes it
		defer wg.Done()
		for i := 0; i < 1000; i++ {
			if c.sendRaw(ctx, websocket.MessageBinary, make([]byte, 4096)) != nil {
				return
			}
		}
	}()
	var last string
	for {
		_, m, err := c.read(ctx)
		if err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation || ce.Reason != "flood" {
				t.Fatalf("the flood ended with %v, want a close 1008 \"flood\"", err)
			}
			break
		}
		if m.Type == "error" {
			last = m.Code
			if m.Code == "flood" {
				checkSentence(t, "flood", "ka", m.Code, m.Message)
			}
		}
	}
	wg.Wait()
	if last != "flood" {
		t.Errorf("the last error before the close was %q, want flood", last)
	}
	if n := scrape(ctx, t, ts.ops.URL)["mafia_floods_closed_total"]; n != 1 {
		t.Errorf("mafia_floods_closed_total = %v", n)
	}
}

// TestFrames_OneAddressSharesOneLimit: the frames of all of one address's
// connections share one limit (AddrBurst here), beside each connection's.
func TestFrames_OneAddressSharesOneLimit(t *testing.T) {
	const addrBurst, conns, each = 50, 4, 20 // each is under a connection's own burst of 40
	var clk *room.FakeClock
	ts := startServerWith(t, "", both(fakeClocked(&clk), func(c *Config) { c.Limits.AddrBurst, c.Limits.AddrRate = addrBurst, 10 }))
	ctx := within(t, 60*time.Second)
	tb := lobbyTable(ctx, t, ts)
	var cs []*wsConn
	for i := 0; i < conns; i++ {
		c := open(ctx, t, ts.api.Base, tb.id, "", dialOpts{http: fromAddr("127.0.2.1")})
		defer c.close()
		cs = append(cs, c)
	}
	for _, c := range cs {
		for j := int64(0); j < each; j++ {
			ping(ctx, t, c, 100+j)
		}
	}
	handled(t, ts, conns*each)
	total := 0
	for i, c := range cs {
		clk.Advance(100 * time.Millisecond) // one frame's worth of the address's 10 a second
		ping(ctx, t, c, 9000+int64(i))
		total += len(pongsUntil(ctx, t, c, 9000+int64(i)))
	}
	if total != addrBurst {
		t.Errorf("%d connections of one address sent %d pings each at one instant: %d pongs, want the address's burst %d",
			conns, each, total, addrBurst)
	}
}

// TestChat_ATableLimitProtectsTheSeated: ten spectators and three seats
// flood a table's chat at one instant; a seated player hears at most the
// table's burst (20), at most a seat's share (6) from each seat and at most
// the spectators' share (5) from all of them together. The floods are
// refused with chat_busy, and the seat stays connected.
func TestChat_ATableLimitProtectsTheSeated(t *testing.T) {
	const lines = 40
	var clk *room.FakeClock
	ts := startServerWith(t, "", fakeClocked(&clk))
	ctx := within(t, 90*time.Second)
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "chat", Players: 5, TimingsMS: longTimings}, []int{1, 2, 3, 4}, 1)
	listener := tb.players[0]
	if _, err := listener.connect(ctx); err != nil {
		t.Fatal(err)
	}
	var senders []*wsConn
	for _, p := range tb.players[1:] {
		senders = append(senders, open(ctx, t, ts.api.Base, tb.id, p.token, dialOpts{http: fromAddr(fmt.Sprintf("127.0.3.%d", p.seat))}))
	}
	for i := 0; i < 10; i++ {
		senders = append(senders, open(ctx, t, ts.api.Base, tb.id, "", dialOpts{http: fromAddr(fmt.Sprintf("127.0.4.%d", i+1))}))
	}
	for _, c := range senders {
		defer c.close()
	}
	drain(ctx, t, listener.c) // the lobby frames of the seats' connections
	for _, c := range senders {
		for j := 0; j < lines; j++ {
			if _, err := c.send(ctx, wire.ClientMessage{Type: "chat", Channel: "town", Text: "spam"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	handled(t, ts, len(senders)*lines)
	id, err := listener.c.send(ctx, wire.ClientMessage{Type: "ping"})
	if err != nil {
		t.Fatal(err)
	}
	from := map[int]int{}
	heard := 0
	for {
		_, m, err := listener.c.read(ctx)
		if err != nil {
			t.Fatalf("the seated listener: %v", err)
		}
		if m.Type == "chat" {
			heard++
			from[m.From]++
		}
		if m.Type == "pong" && m.ID == id {
			break
		}
	}
	t.Logf("the seated listener heard %d lines: %v by seat (0: spectators)", heard, from)
	if heard > 20 {
		t.Errorf("the listener heard %d lines at one instant, want at most the table's burst of 20", heard)
	}
	for seat, n := range from {
		if seat == 0 && n > 5 {
			t.Errorf("the spectators together got %d lines through, want at most 5", n)
		}
		if seat != 0 && n > 6 {
			t.Errorf("seat %d got %d lines through, want at most 6", seat, n)
		}
	}
	// A sender hears why.
	busy := false
	for j := 0; j < lines+2 && !busy; j++ {
		_, m, err := senders[0].read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		busy = m.Type == "error" && m.Code == "chat_busy"
	}
	if !busy {
		t.Error("a flooding seat was never told chat_busy")
	}
	if l, _ := ts.api.Table(ctx, tb.id); !l.Seats[0].Connected {
		t.Error("the seated listener was dropped")
	}
	clk.Advance(time.Second) // the table's chat comes back
	if err := listener.call(ctx, wire.ClientMessage{Type: "chat", Channel: "town", Text: "hello"}); err != nil {
		t.Errorf("a line a second later: %v", err)
	}
}

// TestFrames_PingControlFramesCountToo: WebSocket pings (control frames,
// which the library would answer by itself) take their place from the
// rate like any frame: 40 are answered at one instant, and a flood of them
// is closed as one.
func TestFrames_PingControlFramesCountToo(t *testing.T) {
	var clk *room.FakeClock
	ts := startServerWith(t, "", fakeClocked(&clk))
	ctx := within(t, 60*time.Second)
	tb := lobbyTable(ctx, t, ts)
	c := open(ctx, t, ts.api.Base, tb.id, "", dialOpts{})
	defer c.close()
	var mu sync.Mutex
	pongs := 0
	var wg sync.WaitGroup
	for i := 0; i < 300; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			if c.ws.Ping(pctx) == nil {
				mu.Lock()
				pongs++
				mu.Unlock()
			}
		}()
	}
	for {
		if _, _, err := c.read(ctx); err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation || ce.Reason != "flood" {
				t.Fatalf("a ping flood ended with %v, want a close 1008 \"flood\"", err)
			}
			break
		}
	}
	wg.Wait()
	if pongs > 40 {
		t.Errorf("%d pings at one instant got %d pongs, want at most the burst, 40", 300, pongs)
	}
}
