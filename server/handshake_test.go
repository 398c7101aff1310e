package server

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"mafia/client"
)

// TestHandshake_APlainRequestIsRefusedNotWebSocketBeforeTheTableSeesIt:
// a request to a table's WebSocket path that is no handshake (no
// Upgrade, another version of the protocol, no key), with a seat's token,
// is answered 400 not_websocket in the reader's language, with the
// headers that say what is wanted, and the table never sees it: the seat
// does not show connected, and the table's watcher gets no news of it
// before the news of a real seat's connection made after.
func TestHandshake_APlainRequestIsRefusedNotWebSocketBeforeTheTableSeesIt(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 60*time.Second)
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "plain", Players: 5, TimingsMS: longTimings}, []int{1, 2}, 1)
	watcher := open(ctx, t, ts.api.Base, tb.id, "", dialOpts{})
	defer watcher.close()
	upgrade := http.Header{"Connection": {"Upgrade"}, "Upgrade": {"websocket"}}
	for _, c := range []struct {
		name   string
		header http.Header
		// wanted is the header (name, value) the answer names what is
		// wanted with ("": none).
		wanted [2]string
	}{
		{"a plain GET", nil, [2]string{"Upgrade", "websocket"}},
		{"another version", with(upgrade, "Sec-WebSocket-Version", "8", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), [2]string{"Sec-WebSocket-Version", "13"}},
		{"no key", with(upgrade, "Sec-WebSocket-Version", "13"), [2]string{}},
	} {
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.api.Base+"/api/tables/"+tb.id+"/ws?lang=ka", nil)
		for k, v := range c.header {
			req.Header[k] = v
		}
		req.Header.Set("Authorization", "Bearer "+tb.players[1].token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var body apiError
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || body.Error.Code != string(CodeNotWebSocket) {
			t.Errorf("%s: %d %q; want 400 not_websocket", c.name, resp.StatusCode, body.Error.Code)
		}
		if k, v := c.wanted[0], c.wanted[1]; k != "" && resp.Header.Get(k) != v {
			t.Errorf("%s: %s %q; want %q, which says what is wanted", c.name, k, resp.Header.Get(k), v)
		}
		checkSentence(t, c.name, "ka", string(CodeNotWebSocket), body.Error.Message)
	}
	if l, _ := ts.api.Table(ctx, tb.id); l.Seats[1].Connected {
		t.Error("seat 2 shows connected after requests that were no handshake")
	}
	// The table's news: a real seat's connection, made after, is the
	// first that shows a seat connected; none before it shows seat 2.
	seat1 := open(ctx, t, ts.api.Base, tb.id, tb.players[0].token, dialOpts{})
	defer seat1.close()
	for {
		_, m, err := watcher.read(ctx)
		if err != nil {
			t.Fatalf("the watcher's news: %v", err)
		}
		if m.Type != "update" || m.Lobby == nil {
			continue
		}
		if m.Lobby.Seats[1].Connected {
			t.Fatal("the watcher was told seat 2 came: a request that was no handshake reached the table")
		}
		if m.Lobby.Seats[0].Connected {
			break
		}
	}
}

// with is h with the given header names and values added (a copy).
func with(h http.Header, kv ...string) http.Header {
	c := h.Clone()
	for i := 0; i+1 < len(kv); i += 2 {
		c.Set(kv[i], kv[i+1])
	}
	return c
}
