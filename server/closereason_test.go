package server

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/room"
	"mafia/wire"
)

// toldAndClosed reads c to its end and returns the code of the error frame
// that came with no id just before the close, and the close's status and
// reason.
func toldAndClosed(ctx context.Context, t *testing.T, c *wsConn) (told string, status websocket.StatusCode, reason string) {
	t.Helper()
	for {
		_, m, err := c.read(ctx)
		if err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) {
				t.Fatalf("the connection ended without a close: %v", err)
			}
			return told, ce.Code, ce.Reason
		}
		told = ""
		if m.Type == "error" && m.ID == 0 {
			told = m.Code
			if m.Message == "" || m.Message == m.Code {
				t.Errorf("the %s frame has no sentence: %+v", m.Code, m)
			}
		}
	}
}

// TestAClosedConnectionIsToldWhy: when the room lets go of a connection,
// its client is told why in its language, by an error frame (no id) just
// before the close, and the close's reason is the same code: the host took
// the seat away (kicked), the seat was given up from another tab
// (seat_left), the lobby expired with nobody at it (expired).
func TestAClosedConnectionIsToldWhy(t *testing.T) {
	var clk *room.FakeClock
	ts := startServerWith(t, "", both(fakeClocked(&clk), localized))
	ctx := within(t, 60*time.Second)
	newLobby := func(name string) (client.Created, client.Joined) {
		created, err := ts.api.Create(ctx, client.CreateRequest{Name: name, Players: 5})
		if err != nil {
			t.Fatal(err)
		}
		j, err := ts.api.Join(ctx, created.Table, "Gio", 2, "")
		if err != nil {
			t.Fatal(err)
		}
		return created, j
	}
	want := func(t *testing.T, c *wsConn, code string) {
		t.Helper()
		told, status, reason := toldAndClosed(ctx, t, c)
		if told != code || status != websocket.StatusPolicyViolation || reason != code {
			t.Errorf("told %q, closed %v %q; want %q, then 1008 %q", told, status, reason, code, code)
		}
	}

	t.Run("the host took the seat away: kicked", func(t *testing.T) {
		created, j := newLobby("kick")
		host := open(ctx, t, ts.api.Base, created.Table, created.HostToken, dialOpts{})
		defer host.close()
		gio := open(ctx, t, ts.api.Base, created.Table, j.Token, dialOpts{query: map[string][]string{"lang": {"ka"}}})
		defer gio.close()
		if _, err := host.send(ctx, wire.ClientMessage{Type: "host", Action: "kick", Target: 2}); err != nil {
			t.Fatal(err)
		}
		want(t, gio, "kicked")
	})

	t.Run("the seat was given up in another tab: seat_left", func(t *testing.T) {
		created, j := newLobby("leave")
		tab := open(ctx, t, ts.api.Base, created.Table, j.Token, dialOpts{})
		defer tab.close()
		if status, _, body := apiCall(ctx, t, ts.api.Base, "POST", "/api/tables/"+created.Table+"/leave", "", j.Token, ""); status != 200 && status != 204 {
			t.Fatalf("leave: %d %s", status, body)
		}
		want(t, tab, "seat_left")
	})

	t.Run("the lobby expired with nobody at it: expired", func(t *testing.T) {
		created, err := ts.api.Create(ctx, client.CreateRequest{Name: "expire", Players: 5})
		if err != nil {
			t.Fatal(err)
		}
		watcher := open(ctx, t, ts.api.Base, created.Table, "", dialOpts{})
		defer watcher.close()
		id, err := watcher.send(ctx, wire.ClientMessage{Type: "ping"})
		if err != nil {
			t.Fatal(err)
		}
		for { // attached
			if _, m, err := watcher.read(ctx); err != nil || m.ID == id {
				break
			}
		}
		clk.Advance(room.DefaultEmptyLobbyExpiry + time.Second)
		want(t, watcher, "expired")
	})
}
