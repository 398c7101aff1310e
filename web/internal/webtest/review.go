package webtest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"mafia/client"
	"mafia/engine"
	"mafia/wire"
)

// A game for the review: seat 1 is a person played from Go (the host,
// "Nino"), the other seats the server's smart bots (instant pace: they talk,
// in statements). The host says
// a line in the lobby, starts the game and stays at the table, idle, so
// that the game goes on as long as the test wants (the host's speech holds
// the floor); once the host leaves, a stand-in bot plays the seat (after 1
// ms) and the game runs to its end.
type reviewTable struct {
	t     *testing.T
	ts    *TestServer
	api   *client.API
	ID    string
	Host  string // the host's token (seat 1's)
	conn  *client.Conn
	Said  string // the host's line in the lobby
	Frame struct {
		sync.Mutex
		Host, Spectator [][]byte // every WebSocket frame each was sent
	}
}

// maxDeals bounds the deals a test makes until one gives it its case: a
// test never skips for a deal that missed it, it deals again (the server
// deals from a random seed of its own).
const maxDeals = 40

// ReviewPlayers is the review game's size: a preset with a Don, a
// mafioso, a Detective and a Doctor.
const ReviewPlayers = 7

// NewReviewTable makes the review's game, held at the host's first
// speech: day 1's speeches come before any vote, so a host alive in the
// morning holds the floor before the game can end. A deal whose night 1
// kills the host is played away and another table made (about one deal
// in seven; maxDeals of them in a row, less than once in 10^30 runs).
func NewReviewTable(ctx context.Context, t *testing.T, ts *TestServer, name string, public bool) *reviewTable {
	t.Helper()
	for try := 1; ; try++ {
		rt := tryReviewTable(ctx, t, ts, name, public)
		evs, _ := ts.DB.Events(ctx, rt.ID)
		if !slices.ContainsFunc(evs, func(e engine.Event) bool { return e.Kind == engine.EvPlayerOut && e.Target == 1 }) {
			return rt
		}
		rt.Leave()
		if try == maxDeals {
			t.Fatalf("%d deals in a row killed the host on night 1", maxDeals)
		}
	}
}

func tryReviewTable(ctx context.Context, t *testing.T, ts *TestServer, name string, public bool) *reviewTable {
	t.Helper()
	rt := &reviewTable{t: t, ts: ts, Said: "Hello, town: a good game to all"}
	rt.api = &client.API{Base: ts.URL}
	standIn := int64(1)
	created, err := rt.api.Create(ctx, client.CreateRequest{Name: name, Players: ReviewPlayers, Public: public, Bots: "smart",
		Options:   map[string]string{"reveal_on_death": "none"},
		TimingsMS: map[string]int64{"night": 150, "speech": 600_000, "defence": 1500, "tie_speech": 1500, "last_words": 1500, "vote": 1000},
		StandInMS: &standIn})
	if err != nil {
		t.Fatal(err)
	}
	rt.ID, rt.Host = created.Table, created.HostToken
	if _, err := rt.api.Join(ctx, rt.ID, "Nino", 1, rt.Host); err != nil {
		t.Fatal(err)
	}
	tap := *rt.api
	tap.Tap = func(_ *client.Conn, sent bool, frame []byte) {
		if !sent {
			rt.Frame.Lock()
			rt.Frame.Host = append(rt.Frame.Host, bytes.Clone(frame))
			rt.Frame.Unlock()
		}
	}
	if rt.conn, err = tap.Dial(ctx, rt.ID, rt.Host, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.conn.CloseNow() })
	go func() {
		for {
			if _, err := rt.conn.Read(ctx); err != nil {
				return
			}
		}
	}()
	for _, m := range []wire.ClientMessage{
		{Type: "chat", Channel: "town", Text: rt.Said},
		{Type: "host", Action: "add_bots"},
		{Type: "host", Action: "start"},
	} {
		if _, err := rt.conn.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond) // one after the other, as a person's taps
	}
	// The game has started and night 1 is over (its actions are in the
	// log: secrets to keep until the end).
	rt.waitLog(ctx, func(evs []engine.Event) bool {
		return slices.ContainsFunc(evs, func(e engine.Event) bool { return e.Kind == engine.EvDayBegan })
	})
	return rt
}

// Watch opens a spectator's WebSocket (no token) that keeps every frame.
func (rt *reviewTable) Watch(ctx context.Context) {
	rt.t.Helper()
	tap := *rt.api
	tap.Tap = func(_ *client.Conn, sent bool, frame []byte) {
		if !sent {
			rt.Frame.Lock()
			rt.Frame.Spectator = append(rt.Frame.Spectator, bytes.Clone(frame))
			rt.Frame.Unlock()
		}
	}
	c, err := tap.Dial(ctx, rt.ID, "", 0)
	if err != nil {
		rt.t.Fatal(err)
	}
	rt.t.Cleanup(func() { c.CloseNow() })
	go func() {
		for {
			if _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}()
}

// Leave closes the host's connection: a stand-in plays the seat to the end.
func (rt *reviewTable) Leave() { rt.conn.CloseNow() }

// Claim waits for the host's first speech (it holds the floor: the host
// is idle and the speech is ten minutes) and says a statement on it, so
// that the game's record holds one whatever the bots choose to say.
func (rt *reviewTable) Claim(ctx context.Context) {
	rt.t.Helper()
	rt.waitLog(ctx, func(evs []engine.Event) bool {
		return slices.ContainsFunc(evs, func(e engine.Event) bool { return e.Kind == engine.EvSpeech && e.Target == 1 })
	})
	if _, err := rt.conn.Send(ctx, wire.ClientMessage{Type: "command", Verb: "claim", Role: "detective"}); err != nil {
		rt.t.Fatal(err)
	}
	rt.waitLog(ctx, func(evs []engine.Event) bool {
		return slices.ContainsFunc(evs, func(e engine.Event) bool { return e.Kind == engine.EvStatement && e.Actor == 1 })
	})
}

// waitLog waits until the stored log satisfies cond, and returns it.
func (rt *reviewTable) waitLog(ctx context.Context, cond func([]engine.Event) bool) []engine.Event {
	rt.t.Helper()
	for {
		evs, err := rt.ts.DB.Events(ctx, rt.ID)
		if err == nil && cond(evs) {
			return evs
		}
		select {
		case <-ctx.Done():
			var last []string
			for _, e := range evs[max(0, len(evs)-6):] {
				last = append(last, fmt.Sprintf("%v(%d→%d)", e.Kind, e.Actor, e.Target))
			}
			rt.t.Fatalf("the log never got there: %d events, %v; the last %v", len(evs), err, last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// WaitEnd waits for the end of the game and returns its log.
func (rt *reviewTable) WaitEnd(ctx context.Context) []engine.Event {
	rt.t.Helper()
	return rt.waitLog(ctx, func(evs []engine.Event) bool {
		return len(evs) > 0 && evs[len(evs)-1].Kind == engine.EvGameEnded
	})
}

// Fetch is one HTTP GET of the review's, as the page (or a person) asks
// it: with the seat's cookie when token is set.
func (rt *reviewTable) Fetch(ctx context.Context, path, token string) (int, []byte) {
	rt.t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", rt.ts.URL+path, nil)
	if err != nil {
		rt.t.Fatal(err)
	}
	if token != "" {
		req.AddCookie(&http.Cookie{Name: "mafia_" + rt.ID, Value: token})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		rt.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		rt.t.Fatal(err)
	}
	return resp.StatusCode, b
}
