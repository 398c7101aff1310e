package server

// A seat's WebSocket relayed by another node, served in process
// (relayed.go): the relay's side, as package cluster drives it.

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/admission"
	"mafia/client"
	"mafia/wire"
)

// relayedHandshake is a relayed seat's handshake for table with token, as
// the relay passes it to the owner: from the client's address.
func relayedHandshake(table, token string) *http.Request {
	r := httptest.NewRequest("GET", "/api/tables/"+table+"/ws?since=0", nil)
	r.RemoteAddr = "192.0.2.7:0"
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	return r
}

// readMsg reads one frame of a relayed session as a server message.
func readMsg(t *testing.T, ctx context.Context, c *RelayedConn) wire.ServerMessage {
	t.Helper()
	typ, data, err := c.Read(ctx)
	if err != nil || typ != websocket.MessageText {
		t.Fatalf("read: %v (type %v)", err, typ)
	}
	var m wire.ServerMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("frame %q: %v", data, err)
	}
	return m
}

// TestRelayed_ASeatServedInProcessIsASeat: a relayed seat entered in
// process reads its welcome, sends a command and reads the reply, and a
// frame past the size its WebSocket would read ends it 1009; its close
// detaches the seat.
func TestRelayed_ASeatServedInProcessIsASeat(t *testing.T) {
	ts := startServer(t, "")
	ctx := within(t, 20*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "relayed", Players: 7, TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	j, err := ts.api.Join(ctx, created.Table, "Nino", 0, "")
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	c := ts.srv.ServeRelayed(rec, relayedHandshake(created.Table, j.Token), created.Table)
	if c == nil {
		t.Fatalf("refused: %d %s", rec.Code, rec.Body)
	}
	if m := readMsg(t, ctx, c); m.Type != "welcome" || int(m.Seat) != j.Seat {
		t.Fatalf("first frame %+v, want the seat's welcome", m)
	}
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"v":1,"type":"ping","id":7}`)); err != nil {
		t.Fatal(err)
	}
	for {
		m := readMsg(t, ctx, c)
		if m.ID == 7 {
			if m.Type != "pong" {
				t.Fatalf("the ping's answer %+v", m)
			}
			break
		}
	}
	big := make([]byte, ts.srv.cfg.MaxFrame+hardFrameSlack+1)
	if err := c.Write(ctx, websocket.MessageText, big); err == nil {
		t.Fatal("a frame past the read limit was taken")
	}
	for {
		_, _, err := c.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.StatusMessageTooBig {
			t.Fatalf("ended with %v, want 1009", err)
		}
		break
	}
	// A bad token is refused by the room as on a WebSocket: a frame, 1008.
	c = ts.srv.ServeRelayed(httptest.NewRecorder(), relayedHandshake(created.Table, "nope"), created.Table)
	if m := readMsg(t, ctx, c); m.Type != "error" || m.Code != "bad_token" {
		t.Fatalf("a bad token: %+v", m)
	}
	var ce websocket.CloseError
	if _, _, err := c.Read(ctx); !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation {
		t.Fatalf("a bad token ended with %v, want 1008", err)
	}
}

// turnCount counts the ends of the rooms' turns it is told (TurnDone).
type turnCount struct{ n atomic.Int64 }

func (t *turnCount) TurnDone() { t.n.Add(1) }

// TestRelayed_ATurnsFramesAreTakenOnTheRoomsGoroutineAtItsEnd: with OnTurn
// set (as the relay sets it), what a room's turn queues for a relayed seat
// is handed to turn at the turn's end, which takes it there (TakeQueued)
// with no reader waiting, and then done is told; the connection's end is
// still the reader's (Read returns the close).
func TestRelayed_ATurnsFramesAreTakenOnTheRoomsGoroutineAtItsEnd(t *testing.T) {
	ts := startServer(t, "")
	ctx := within(t, 20*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "relayed", Players: 7, TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	j, err := ts.api.Join(ctx, created.Table, "Nino", 0, "")
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	c := ts.srv.ServeRelayed(rec, relayedHandshake(created.Table, j.Token), created.Table)
	if c == nil {
		t.Fatalf("refused: %d %s", rec.Code, rec.Body)
	}
	if m := readMsg(t, ctx, c); m.Type != "welcome" {
		t.Fatalf("first frame %+v, want the welcome", m)
	}
	got := make(chan wire.ServerMessage, 256)
	done := &turnCount{}
	c.OnTurn(func() {
		for {
			took, err := c.TakeQueued(func(_ websocket.MessageType, f []byte) error {
				var m wire.ServerMessage
				if err := json.Unmarshal(f, &m); err != nil {
					return err
				}
				got <- m
				return nil
			})
			if err != nil || !took {
				return
			}
		}
	}, done)
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"v":1,"type":"ping","id":7}`)); err != nil {
		t.Fatal(err)
	}
	for pong := false; !pong; {
		select {
		case m := <-got:
			if m.ID == 7 && m.Type != "pong" {
				t.Fatalf("the ping's answer %+v", m)
			}
			pong = m.ID == 7
		case <-ctx.Done():
			t.Fatal("the ping's answer was not taken at the turn's end")
		}
	}
	if !waitFor(10*time.Second, func() bool { return done.n.Load() > 0 }) {
		t.Fatal("the turn's end was not told to the group")
	}
	big := make([]byte, ts.srv.cfg.MaxFrame+hardFrameSlack+1)
	if err := c.Write(ctx, websocket.MessageText, big); err == nil {
		t.Fatal("a frame past the read limit was taken")
	}
	for {
		_, _, err := c.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.StatusMessageTooBig {
			t.Fatalf("ended with %v, want 1009", err)
		}
		break
	}
}

// TestCanSit_APolicyRefusesAnAccountAtTheRelay: the fourth door of
// TestCanSit_APolicyRefusingAnAccountRefusesItAtEveryDoor: a barred
// account's seat, relayed by another node, is refused barred (a frame and
// a close 1008) at admission.DoorRelay; another's is served.
func TestCanSit_APolicyRefusesAnAccountAtTheRelay(t *testing.T) {
	pol := &barOne{doors: make(chan admission.Door, 4)}
	ts, svc, _ := startPolicyServer(t, pol)
	ctx := within(t, 20*time.Second)
	var toks []string
	for _, name := range []string{"Nino", "Gio"} {
		_, tok, err := svc.Signup(ctx, name, "password1", "")
		if err != nil {
			t.Fatal(err)
		}
		toks = append(toks, tok)
	}
	nino, gio := toks[0], toks[1]
	p, _ := svc.Authenticate(ctx, nino)
	pol.account.Store(p.Account.ID)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "relay", Players: 7, TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	jn, err := ts.api.Join(ctx, created.Table, "x", 0, nino)
	if err != nil {
		t.Fatal(err)
	}
	jg, err := ts.api.Join(ctx, created.Table, "x", 0, gio)
	if err != nil {
		t.Fatal(err)
	}
	pol.bar.Store(true)
	c := ts.srv.ServeRelayed(httptest.NewRecorder(), relayedHandshake(created.Table, jn.Token), created.Table)
	if m := readMsg(t, ctx, c); m.Type != "error" || m.Code != string(admission.CodeBarred) || m.Message == "" {
		t.Fatalf("the barred seat's relay: %+v", m)
	}
	var ce websocket.CloseError
	if _, _, err := c.Read(ctx); !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation {
		t.Fatalf("ended with %v, want 1008", err)
	}
	if d := <-pol.doors; d != admission.DoorRelay {
		t.Fatalf("refused at %s, want %s", d, admission.DoorRelay)
	}
	c = ts.srv.ServeRelayed(httptest.NewRecorder(), relayedHandshake(created.Table, jg.Token), created.Table)
	if m := readMsg(t, ctx, c); m.Type != "welcome" {
		t.Fatalf("Gio's relay: %+v", m)
	}
	c.Close(websocket.StatusNormalClosure, "")
}

// TestRelayed_TryWriteTakesOnlyAFrameThatCannotWait pins what the relay's
// link reader may hand the server on its own goroutine (TryWrite): a
// plain text frame, answered as Write answers it; a voice frame, a
// binary one, one past MaxFrame or one that needs the full parser is
// left, untouched, for Write on the session's own goroutine.
func TestRelayed_TryWriteTakesOnlyAFrameThatCannotWait(t *testing.T) {
	ts := startServer(t, "")
	ctx := within(t, 20*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "relayed", Players: 7, TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	j, err := ts.api.Join(ctx, created.Table, "Nino", 0, "")
	if err != nil {
		t.Fatal(err)
	}
	c := ts.srv.ServeRelayed(httptest.NewRecorder(), relayedHandshake(created.Table, j.Token), created.Table)
	if c == nil {
		t.Fatal("refused")
	}
	if m := readMsg(t, ctx, c); m.Type != "welcome" {
		t.Fatalf("first frame %+v, want the welcome", m)
	}
	for _, left := range []struct {
		what string
		typ  websocket.MessageType
		p    []byte
	}{
		{"voice", websocket.MessageText, []byte(`{"v":1,"type":"voice","id":3,"signal":{}}`)},
		{"binary", websocket.MessageBinary, []byte(`{"v":1,"type":"ping","id":4}`)},
		{"past MaxFrame", websocket.MessageText, make([]byte, ts.srv.cfg.MaxFrame+1)},
		{"an escape (the full parser)", websocket.MessageText, []byte(`{"v":1,"type":"ping","id":5,"x":"\u0041"}`)},
	} {
		if took, err := c.TryWrite(left.typ, left.p); took || err != nil {
			t.Fatalf("%s: TryWrite took it (%v, %v)", left.what, took, err)
		}
	}
	if took, err := c.TryWrite(websocket.MessageText, []byte(`{"v":1,"type":"ping","id":7}`)); !took || err != nil {
		t.Fatalf("a plain ping: TryWrite %v, %v", took, err)
	}
	for {
		m := readMsg(t, ctx, c)
		if m.ID != 0 && m.ID != 7 {
			t.Fatalf("an answer to a frame TryWrite left: %+v", m)
		}
		if m.ID == 7 {
			if m.Type != "pong" {
				t.Fatalf("the ping's answer %+v", m)
			}
			break
		}
	}
}
