package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/rng"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
	"mafia/wire"
)

// pair is two nodes: b with a real server over a real
// over a real SQLite file on loopback, a relaying to it with no server of its own.
type pair struct {
	a, b    *Node
	ca, cb  *fakeClock
	owned   *ownedTables
	srv     *server.Server
	bHTTP   *httptest.Server
	aHTTP   *httptest.Server
	direct  *client.API // b's server itself
	relayed *client.API // through a
}

func startPair(ctx context.Context, t testing.TB) *pair {
	t.Helper()
	return startPairWith(ctx, t, nil)
}

// startPairWith is startPair with each node's Config changed by with
// (nil: as it is) before it starts.
func startPairWith(ctx context.Context, t testing.TB, with func(*Config)) *pair {
	t.Helper()
	return startPairServer(ctx, t, with, nil)
}

// startPairServer is startPairWith with b's server's Config changed by
// withSrv (nil: as it is).
func startPairServer(ctx context.Context, t testing.TB, with func(*Config), withSrv func(*server.Config)) *pair {
	t.Helper()
	if with == nil {
		with = func(*Config) {}
	}
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	scfg := server.Config{Store: db, SeatsPerAddress: -1, Pace: room.PaceInstant}
	if withSrv != nil {
		withSrv(&scfg)
	}
	srv := server.New(scfg)
	if _, err := srv.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = srv.HTTPServer(srv.Handler())
	hs.Listener = srv.Listener(hs.Listener)
	hs.Start()
	p := &pair{ca: newFakeClock(), cb: newFakeClock(), owned: &ownedTables{}, srv: srv, bHTTP: hs}
	ca := Config{ID: "a", Now: p.ca.Now, Tick: p.ca.Tick}
	with(&ca)
	p.a = startNode(t, ca)
	cb := Config{ID: "b", PublicURL: hs.URL, Now: p.cb.Now, Tick: p.cb.Tick, Owners: p.owned}
	if p.a.RouteURL() != "" {
		cb.Peers = []string{p.a.RouteURL()}
	}
	with(&cb)
	p.b = startNode(t, cb)
	p.aHTTP = httptest.NewServer(p.a.Handler(http.NotFoundHandler()))
	p.a.cfg.PublicURL = p.aHTTP.URL
	// Cleanups run last first: the nodes (registered earlier) close after
	// the servers.
	t.Cleanup(func() {
		p.aHTTP.CloseClientConnections()
		p.aHTTP.Close()
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})
	p.direct = &client.API{Base: hs.URL}
	p.relayed = &client.API{Base: p.aHTTP.URL}
	return p
}

// own makes b own table and a hear it.
func (p *pair) own(ctx context.Context, t testing.TB, table string) {
	t.Helper()
	p.owned.set(table)
	p.b.Announce()
	meet(ctx, t, p.a, p.b)
	if got := p.a.Owner(table); got != "b" {
		t.Fatalf("a thinks table %s is %q's, want b's", table, got)
	}
}

var fastTimings = map[string]int64{"speech": 5000, "defence": 5000, "tie_speech": 5000, "last_words": 5000, "night": 150, "vote": 400}

// frameKey is what two connections of one seat must agree on: a frame's
// type and seq.
type frameKey struct {
	Type string
	Seq  int
}

// broadcastKeys are the keys of frames that were not answers to one
// connection's own requests (those carry its request's id).
func broadcastKeys(t testing.TB, frames [][]byte) []frameKey {
	t.Helper()
	var keys []frameKey
	for _, f := range frames {
		var m wire.ServerMessage
		if err := json.Unmarshal(f, &m); err != nil {
			t.Fatalf("frame %q: %v", f, err)
		}
		if m.ID != 0 {
			continue
		}
		keys = append(keys, frameKey{m.Type, m.Seq})
	}
	return keys
}

// TestRelayedSeatSeesExactlyTheOwnersFrames pins the relay end to end: a
// player whose WebSocket is on node a plays a whole game at a table that
// node b owns, and receives every frame a direct connection of the same
// seat to b's server receives, in the same order (types and seqs), plus
// the answers to its own commands.
func TestRelayedSeatSeesExactlyTheOwnersFrames(t *testing.T) {
	relayedSeatSeesExactlyTheOwnersFrames(t, nil)
}

// relayedSeatSeesExactlyTheOwnersFrames is the test above on a pair of
// nodes whose Configs with changes (nil: as they are); it returns the
// pair once the game is over and the session ended.
func relayedSeatSeesExactlyTheOwnersFrames(t *testing.T, with func(*Config)) *pair {
	ctx := within(t, 90*time.Second)
	p := startPairWith(ctx, t, with)
	created, err := p.direct.Create(ctx, client.CreateRequest{Name: "relayed", TimingsMS: fastTimings, Pace: "instant"})
	if err != nil {
		t.Fatal(err)
	}
	p.own(ctx, t, created.Table)
	j, err := p.direct.Join(ctx, created.Table, "ნინო", 1, created.HostToken)
	if err != nil {
		t.Fatal(err)
	}
	direct, err := p.direct.Dial(ctx, created.Table, j.Token, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer direct.CloseNow()
	relayed, err := p.relayed.Dial(ctx, created.Table, j.Token, 0)
	if err != nil {
		t.Fatalf("dial through a: %v", err)
	}
	defer relayed.CloseNow()
	if relayed.Seat != 1 {
		t.Fatalf("the relayed welcome is for seat %d, want 1", relayed.Seat)
	}

	// The relayed connection's arrival is news to the direct one (the
	// seat's connections changed): from here on both see the same.
	if m, err := direct.Read(ctx); err != nil || m.Type != "update" || m.Lobby == nil {
		t.Fatalf("the direct connection's news of the relayed one: %+v %v", m, err)
	}
	watched := make(chan [][]byte, 1)
	go func() {
		var frames [][]byte
		for direct.View == nil || direct.View.Phase != "ended" {
			data, err := direct.ReadRaw(ctx)
			if err != nil {
				break
			}
			frames = append(frames, data)
			direct.Absorb(data)
		}
		watched <- frames
	}()
	for _, a := range []string{"add_bots", "start"} {
		if _, err := relayed.Send(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	played, err := play(ctx, relayed, 7)
	if err != nil {
		t.Fatalf("playing through a: %v", err)
	}
	seen := <-watched
	if direct.View == nil || direct.View.Phase != "ended" {
		t.Fatal("the direct connection did not see the end")
	}
	got, want := broadcastKeys(t, played), broadcastKeys(t, seen)
	if !slices.Equal(got, want) {
		t.Fatalf("through a the seat got %d frames %v\nb's direct connection got %d: %v", len(got), got, len(want), want)
	}
	if len(got) < 10 {
		t.Fatalf("a game of %d frames: too short to show anything", len(got))
	}
	st := p.a.RelayStats()
	if st.Sessions != 1 || st.FramesIn < int64(len(played)) {
		t.Fatalf("a's relay counters %+v, want 1 session and at least %d frames in", st, len(played))
	}

	// The client's close reaches b's server: the session ends on both
	// nodes, and the seat shows no connection but the direct one.
	relayed.Close()
	eventually(ctx, t, "the session ends on both nodes", func() bool { return p.a.sessionCount() == 0 && p.b.sessionCount() == 0 })
	return p
}

// play plays the seat of c with random legal moves until the game ends,
// one request at a time, and returns every frame it received since the
// welcome (the welcome included).
func play(ctx context.Context, c *client.Conn, seed uint64) ([][]byte, error) {
	src := rng.New(seed)
	frames := [][]byte{}
	waiting := int64(0)
	fresh := false
	for {
		data, err := c.ReadRaw(ctx)
		if err != nil {
			return frames, err
		}
		frames = append(frames, data)
		m, err := c.Absorb(data)
		if err != nil {
			return frames, err
		}
		if (m.Type == "reply" || m.Type == "error") && m.ID == waiting {
			waiting = 0
		}
		fresh = fresh || m.View != nil
		v := c.View
		if v != nil && v.Phase == "ended" {
			return frames, nil
		}
		if waiting != 0 || !fresh || v == nil {
			continue
		}
		fresh = false
		if mv, ok := client.RandomMove(v, &src); ok {
			waiting, err = c.Send(ctx, mv)
		} else if v.Legal.Pass {
			waiting, err = c.Send(ctx, wire.ClientMessage{Type: "command", Verb: "pass"})
		}
		if err != nil {
			return frames, err
		}
	}
}

// closeOf reads c until it ends and returns its close.
func closeOf(ctx context.Context, c *client.Conn) (websocket.CloseError, []wire.ServerMessage) {
	var last []wire.ServerMessage
	for {
		m, err := c.Read(ctx)
		if err != nil {
			var ce websocket.CloseError
			if errors.As(err, &ce) {
				return ce, last
			}
			return websocket.CloseError{Code: -1, Reason: err.Error()}, last
		}
		last = append(last, m)
	}
}

// TestRelayPassesTheOwnersCloseWithItsFrame pins a close from b's server:
// the seat is given up, and the client on a gets the server's error frame
// and then its close, 1008 seat_left, as a direct connection does.
func TestRelayPassesTheOwnersCloseWithItsFrame(t *testing.T) {
	ctx := within(t, 60*time.Second)
	p := startPair(ctx, t)
	created, err := p.direct.Create(ctx, client.CreateRequest{Name: "left", TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	p.own(ctx, t, created.Table)
	j, err := p.direct.Join(ctx, created.Table, "გიო", 2, "")
	if err != nil {
		t.Fatal(err)
	}
	direct, err := p.direct.Dial(ctx, created.Table, j.Token, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer direct.CloseNow()
	relayed, err := p.relayed.Dial(ctx, created.Table, j.Token, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer relayed.CloseNow()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.direct.Base+"/api/tables/"+created.Table+"/leave", nil)
	req.Header.Set("Authorization", "Bearer "+j.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("leave: %d", resp.StatusCode)
	}
	dc, dframes := closeOf(ctx, direct)
	rc, rframes := closeOf(ctx, relayed)
	if dc.Code != websocket.StatusPolicyViolation || dc.Reason != "seat_left" {
		t.Fatalf("the direct connection closed %v, want 1008 seat_left", dc)
	}
	if rc != dc {
		t.Fatalf("through a the close is %v, want b's %v", rc, dc)
	}
	last := func(ms []wire.ServerMessage) wire.ServerMessage {
		if len(ms) == 0 {
			return wire.ServerMessage{}
		}
		return ms[len(ms)-1]
	}
	if r, d := last(rframes), last(dframes); r.Type != "error" || r.Code != d.Code {
		t.Fatalf("through a the last frame is %+v, b's last frame %+v", r, d)
	}
	eventually(ctx, t, "the session ends on both nodes", func() bool { return p.a.sessionCount() == 0 && p.b.sessionCount() == 0 })
}

// TestRelayRefusalIsTheOwnersHTTPAnswer pins a handshake b's server
// refuses: the client on a gets b's HTTP status and body, no upgrade.
func TestRelayRefusalIsTheOwnersHTTPAnswer(t *testing.T) {
	ctx := within(t, 60*time.Second)
	p := startPair(ctx, t)
	p.own(ctx, t, "nosuchtable")
	_, directResp, derr := websocket.Dial(ctx, "ws"+p.direct.Base[4:]+"/api/tables/nosuchtable/ws", nil)
	_, relayResp, rerr := websocket.Dial(ctx, "ws"+p.relayed.Base[4:]+"/api/tables/nosuchtable/ws", nil)
	if derr == nil || rerr == nil || directResp == nil || relayResp == nil {
		t.Fatalf("dials of an unknown table: direct %v, relayed %v", derr, rerr)
	}
	if relayResp.StatusCode != directResp.StatusCode || relayResp.StatusCode != http.StatusNotFound {
		t.Fatalf("relayed status %d, direct %d, want 404", relayResp.StatusCode, directResp.StatusCode)
	}
	if p.a.sessionCount() != 0 || p.b.sessionCount() != 0 {
		t.Fatal("a refused handshake left a session")
	}
}

// TestRelayEndsWhenTheOwnerIsGone pins a dead owner: node b falls silent
// (it announces no more) and a's clock passes Missed intervals; a ends the
// relayed session with 1012 node_gone, and the client may reconnect.
func TestRelayEndsWhenTheOwnerIsGone(t *testing.T) {
	ctx := within(t, 60*time.Second)
	p := startPair(ctx, t)
	created, err := p.direct.Create(ctx, client.CreateRequest{Name: "gone"})
	if err != nil {
		t.Fatal(err)
	}
	p.own(ctx, t, created.Table)
	relayed, err := p.relayed.Dial(ctx, created.Table, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer relayed.CloseNow()
	for range 3 {
		p.ca.Step(ctx, testInterval)
	}
	c, _ := closeOf(ctx, relayed)
	if c.Code != closeNodeGone || c.Reason != reasonNodeGone {
		t.Fatalf("the relayed client closed %v, want 1012 node_gone", c)
	}
	eventually(ctx, t, "the session ends on both nodes", func() bool { return p.a.sessionCount() == 0 && p.b.sessionCount() == 0 })
}

// TestRelayEndsWhenTheOwnerCloses pins an owner closing: its sessions end
// with 1001 shutdown, as the server's own closing connections do.
func TestRelayEndsWhenTheOwnerCloses(t *testing.T) {
	ctx := within(t, 60*time.Second)
	p := startPair(ctx, t)
	created, err := p.direct.Create(ctx, client.CreateRequest{Name: "closing"})
	if err != nil {
		t.Fatal(err)
	}
	p.own(ctx, t, created.Table)
	relayed, err := p.relayed.Dial(ctx, created.Table, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer relayed.CloseNow()
	done := make(chan error, 1)
	go func() { done <- p.b.Close() }()
	c, _ := closeOf(ctx, relayed)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if c.Code != websocket.StatusGoingAway || c.Reason != reasonShutdown {
		t.Fatalf("the relayed client closed %v, want 1001 shutdown", c)
	}
	eventually(ctx, t, "a's session ends", func() bool { return p.a.sessionCount() == 0 })
}

// TestRelayUnavailableOwner pins an owner that does not take the session
// (its relay subject is gone, as when its process hangs): the client on a
// gets 503 relay_unavailable, no upgrade, and no session is left.
func TestRelayUnavailableOwner(t *testing.T) {
	ctx := within(t, 60*time.Second)
	p := startPair(ctx, t)
	p.own(ctx, t, "t1")
	for _, s := range p.b.subs {
		if s.Subject == subjectOpen+"b" {
			s.Unsubscribe()
		}
	}
	if err := p.b.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	eventually(ctx, t, "a's server forgets b's relay subject", func() bool { return !interest(p.a, subjectOpen+"b") })
	_, resp, err := websocket.Dial(ctx, "ws"+p.relayed.Base[4:]+"/api/tables/t1/ws", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("dial through a: %v %v, want 503", resp, err)
	}
	var body struct {
		Error struct{ Code string } `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Error.Code != string(CodeRelayUnavailable) {
		t.Fatalf("body %+v %v, want relay_unavailable", body, err)
	}
	if p.a.sessionCount() != 0 {
		t.Fatal("a refused relay left a session")
	}
}
