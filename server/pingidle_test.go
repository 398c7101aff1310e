package server

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/wire"
)

// TestPing_AConnectionWrittenToIsNotPinged: the server's ping is for a
// connection that has heard nothing for pingEvery (docs/protocol.md, "Take
// a silent server as a lost connection"); one the server writes to more
// often than that, and that speaks itself, gets no ping: on a busy table a
// ping every 2 s was a system call, a wake-up and a pong to read for each
// seat, beside its frames. Here a client sends a protocol ping every 200
// ms (each answered by a pong frame) for 6.5 s: the server used to ping it
// three times (at 2, 4 and 6 s); now it needs none. (One is let pass, for
// a stall of the machine of 2 s.) That a quiet connection is still pinged
// is TestASilentServerIsALostConnection's.
func TestPing_AConnectionWrittenToIsNotPinged(t *testing.T) {
	t.Parallel() // 6.5 s of writing on the wall clock, its own server (main_test.go)
	ts := startServer(t, "")
	ctx := within(t, 60*time.Second)
	tb := lobbyTable(ctx, t, ts)

	var pings atomic.Int32
	ws, _, err := websocket.Dial(ctx, wsURL(ts.api.Base, tb.id, 0, nil), &websocket.DialOptions{
		OnPingReceived: func(context.Context, []byte) bool { pings.Add(1); return true },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(4 << 20)
	rctx, stopReading := context.WithCancel(ctx)
	defer stopReading()
	pongs := make(chan struct{}, 64)
	go func() {
		for {
			_, data, err := ws.Read(rctx)
			if err != nil {
				return
			}
			if bytes.Contains(data, []byte(`"type":"pong"`)) {
				pongs <- struct{}{}
			}
		}
	}()

	const window, every = 6500 * time.Millisecond, 200 * time.Millisecond
	end := time.Now().Add(window)
	sent := 0
	for time.Now().Before(end) {
		if err := ws.Write(ctx, websocket.MessageText, []byte(`{"v":1,"type":"ping","id":7}`)); err != nil {
			t.Fatal(err)
		}
		sent++
		time.Sleep(every) // the client's own pace, not a wait for the server
	}
	for range sent { // every ping answered: the connection was written to all along
		select {
		case <-pongs:
		case <-ctx.Done():
			t.Fatal("the pongs never came")
		}
	}
	if got := pings.Load(); got > 1 {
		t.Fatalf("a connection written to every %v and speaking as often got %d WebSocket pings from the server in %v, want none", every, got, window)
	}
}

// TestPing_AConnectionThatLeavesThePingUnansweredIsEnded: a connection the
// server has not written to for pingEvery (or heard from for heardEvery)
// is pinged, and one that does not answer within Timeouts.WebSocket is
// ended: here a spectator that never reads (a WebSocket answers pings only
// while it reads). The harness sets that deadline beyond any test's time
// (unstarved); here it is a second, so that the end comes about 3 s after
// the spectator's welcome (13 s at the default). What is waited for is the
// end itself (mafia_connections back to 0), not a time: how long it took
// is logged, not checked.
func TestPing_AConnectionThatLeavesThePingUnansweredIsEnded(t *testing.T) {
	t.Parallel() // about 3 s of waiting on the wall clock, its own server (main_test.go)
	ts := startServerWith(t, "", func(c *Config) { c.Timeouts.WebSocket = time.Second })
	ctx := within(t, 60*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "unanswered", Players: 5, TimingsMS: longTimings})
	if err != nil {
		t.Fatal(err)
	}
	ws, _, err := websocket.Dial(ctx, wsURL(ts.api.Base, created.Table, 0, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	dialled := time.Now()
	open := func() float64 { return scrape(ctx, t, ts.ops.URL)["mafia_connections"] }
	// The count shows the spectator a moment after its upgrade, and its
	// end at least pingEvery and the second later.
	for _, want := range []float64{1, 0} {
		for n := open(); n != want; n = open() {
			if n > 1 {
				t.Fatalf("%v connections open, want the spectator's alone", n)
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%v connections open, want %v: a connection that never answers the server's ping was not ended", n, want)
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	t.Logf("the spectator that never read was ended %v after it connected", time.Since(dialled).Round(time.Millisecond))
	// Its end is the server's: read now, what was sent before it, then the
	// socket's end.
	for {
		if _, _, err := ws.Read(ctx); err != nil {
			if ctx.Err() != nil {
				t.Fatalf("the ended connection is still open: %v", err)
			}
			break
		}
	}
}

// TestPing_AQuietConnectionThatAnswersIsPingedAndKept: a connection the
// server neither writes to nor hears from is pinged every pingEvery, and
// its pong (the answer is any frame heard after the ping) keeps it open
// however many pings pass, each of them beyond Timeouts.WebSocket (here a
// second) after the one before. Every ping is the same 2 bytes: no
// payload. What is waited for is the fourth ping itself; the connection
// must still be there after it.
func TestPing_AQuietConnectionThatAnswersIsPingedAndKept(t *testing.T) {
	t.Parallel() // about 8 s of pings on the wall clock, its own server (main_test.go)
	ts := startServerWith(t, "", func(c *Config) { c.Timeouts.WebSocket = time.Second })
	ctx := within(t, 60*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "quiet", Players: 5, TimingsMS: longTimings})
	if err != nil {
		t.Fatal(err)
	}
	pinged := make(chan []byte, 16)
	ws, _, err := websocket.Dial(ctx, wsURL(ts.api.Base, created.Table, 0, nil), &websocket.DialOptions{
		OnPingReceived: func(_ context.Context, p []byte) bool {
			pinged <- bytes.Clone(p)
			return true // the library answers
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(4 << 20)
	ended := make(chan error, 1)
	go func() { // reads (so that the pings are answered) until the end
		for {
			if _, _, err := ws.Read(ctx); err != nil {
				ended <- err
				return
			}
		}
	}()
	for i := range 4 {
		select {
		case p := <-pinged:
			if len(p) != 0 {
				t.Fatalf("ping %d carried %q, want no payload", i+1, p)
			}
		case err := <-ended:
			t.Fatalf("the connection ended after %d pings answered: %v", i, err)
		case <-ctx.Done():
			t.Fatalf("%d pings came to a quiet connection, want 4", i)
		}
	}
	if n := scrape(ctx, t, ts.ops.URL)["mafia_connections"]; n != 1 {
		t.Fatalf("%v connections open after four pings answered, want the quiet one", n)
	}
}

// TestPing_AQuietSeatWrittenToGetsItsPingWithTheFrames: a connection the
// server writes to (here a spectator of a table whose seat chats every
// 300 ms) but has not heard from for heardEvery is owed a ping, and the
// ping rides in the next batch of the room's frames rather than in a
// write of its own (mafia_pings_sent_total{how="with_frames"}); the
// spectator answers it and stays. The seat chats until that ping has
// come, at its own pace; what is waited for is the ping and the count.
func TestPing_AQuietSeatWrittenToGetsItsPingWithTheFrames(t *testing.T) {
	t.Parallel() // heardEvery (6 s) of chat on the wall clock, its own server (main_test.go)
	ts := startServerWith(t, "", func(c *Config) {
		c.Limits.ChatRate, c.Limits.ChatBurst = 1e3, 1e3
		c.Limits.SeatChatRate, c.Limits.SeatChatBurst = 1e3, 1e3
	})
	ctx := within(t, 60*time.Second)
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "ride", Players: 6, TimingsMS: longTimings}, seatsUpTo(1), 1)
	p := tb.players[0]
	if _, err := p.connect(ctx); err != nil {
		t.Fatal(err)
	}
	pinged := make(chan struct{}, 16)
	ws, _, err := websocket.Dial(ctx, wsURL(ts.api.Base, tb.id, 0, nil), &websocket.DialOptions{
		OnPingReceived: func(context.Context, []byte) bool {
			pinged <- struct{}{}
			return true
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(4 << 20)
	ended := make(chan error, 1)
	go func() {
		for {
			if _, _, err := ws.Read(ctx); err != nil {
				ended <- err
				return
			}
		}
	}()
	line := wire.ClientMessage{Type: "chat", Channel: "town", Text: "a line to write"}
	rode := func() float64 {
		return scrape(ctx, t, ts.ops.URL)[`mafia_pings_sent_total{how="with_frames"}`]
	}
	for pings := 0; ; {
		select {
		case <-pinged:
			pings++
			if rode() > 0 {
				t.Logf("the quiet spectator's ping came with the frames after %d pings", pings)
				select {
				case err := <-ended:
					t.Fatalf("the spectator's connection ended: %v", err)
				default:
				}
				return
			}
		case err := <-ended:
			t.Fatalf("the spectator's connection ended: %v", err)
		case <-ctx.Done():
			t.Fatalf("no ping came with the frames to a spectator written to every 300 ms (%d pings alone)", pings)
		case <-time.After(300 * time.Millisecond): // the seat's own pace, not a wait for the server
			if err := p.call(ctx, line); err != nil {
				t.Fatal(err)
			}
		}
	}
}
