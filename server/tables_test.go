package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/room"
	"mafia/wire"
)

// createFrom makes a table from a client address, answering its code ("" on
// success) and the table.
func createFrom(ctx context.Context, api *client.API, name string, players int) (string, client.Created) {
	created, err := api.Create(ctx, client.CreateRequest{Name: name, Players: players, TimingsMS: longTimings, Public: true})
	if err != nil {
		if e, ok := err.(*client.Error); ok {
			return e.Code, created
		}
		return err.Error(), created
	}
	return "", created
}

// TestCreate_RateAndLobbyCapsPerAddress: an address makes tables at its
// rate (a burst of 3, then one a second here), has at most 4 in the lobby
// at once (one that starts frees its place), and the server at most 6 in
// all; a request refused for being wrong costs no share. Each refusal has
// its code and a sentence in the client's language.
func TestCreate_RateAndLobbyCapsPerAddress(t *testing.T) {
	var clk *room.FakeClock
	ts := startServerWith(t, "", both(localized, fakeClocked(&clk), func(c *Config) {
		c.Limits.CreateBurst, c.Limits.CreateRate, c.Limits.LobbyTablesPerAddr, c.Limits.LobbyTables = 3, 1, 4, 6
	}))
	ctx := within(t, 60*time.Second)
	a := &client.API{Base: ts.api.Base, HTTP: fromAddr("127.0.12.1"), Lang: "ka"}
	expect := func(where, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: %q, want %q", where, got, want)
		}
	}
	for i := 0; i < 5; i++ { // wrong requests cost nothing
		code, _ := createFrom(ctx, a, "bad", 12)
		expect("a wrong request", code, "too_many_seats")
	}
	var made []client.Created
	for i := 0; i < 3; i++ {
		code, c := createFrom(ctx, a, fmt.Sprintf("t%d", i), 5)
		expect(fmt.Sprintf("table %d of the burst", i), code, "")
		made = append(made, c)
	}
	// Another address (apiCall's, 127.0.0.1) has its own share.
	status, _, body := apiCall(ctx, t, ts.api.Base, "POST", "/api/tables", "", "", `{"name":"x","players":5}`)
	if status != http.StatusCreated {
		t.Errorf("another address: %d %s", status, body)
	}
	code, _ := createFrom(ctx, a, "fourth", 5)
	expect("a fourth at once", code, "creating_too_fast")
	clk.Advance(time.Second)
	code, c := createFrom(ctx, a, "fourth", 5)
	expect("a fourth a second later", code, "")
	made = append(made, c)
	clk.Advance(time.Second)
	code, _ = createFrom(ctx, a, "fifth", 5)
	expect("a fifth with four in the lobby", code, "too_many_tables")

	// One of them starts: its place in the lobby is free again.
	host := newPlayer(ts.api.Base, made[0].Table, made[0].HostToken, 0, 1)
	if _, err := host.connect(ctx); err != nil {
		t.Fatal(err)
	}
	for _, act := range []string{"add_bots", "start"} {
		if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: act}); err != nil {
			t.Fatalf("%s: %v", act, err)
		}
	}
	host.c.close()
	code, _ = createFrom(ctx, a, "fifth", 5)
	expect("a fifth once one started", code, "")

	// In all: the server has 1 (127.0.0.1's) + 4 in the lobby; one more
	// from another address, then none.
	b := &client.API{Base: ts.api.Base, HTTP: fromAddr("127.0.12.2")}
	code, _ = createFrom(ctx, b, "sixth", 5)
	expect("the sixth lobby table", code, "")
	code, _ = createFrom(ctx, b, "seventh", 5)
	expect("a seventh lobby table", code, "server_full")

	// The sentences are in the client's language, with the status.
	status, _, body = apiCall(ctx, t, ts.api.Base, "POST", "/api/tables?lang=ka", "", "", `{"name":"x","players":5}`)
	if status != http.StatusServiceUnavailable {
		t.Errorf("server_full: status %d %s", status, body)
	}
	checkSentence(t, "server_full", "ka", "server_full", jsonMessage(t, body))
}

func jsonMessage(t *testing.T, body []byte) string {
	t.Helper()
	s := string(body)
	i := strings.Index(s, `"message":"`)
	if i < 0 {
		t.Fatalf("no message in %s", body)
	}
	s = s[i+len(`"message":"`):]
	return s[:strings.Index(s, `"`)]
}

// TestListTables_PeopleFirstThenNewest: among more tables than the list
// shows, a table where a person sits comes first, one in the lobby before
// one playing, and the rest newest first: a real new table is never hidden
// behind two hundred empty ones.
func TestListTables_PeopleFirstThenNewest(t *testing.T) {
	var clk *room.FakeClock
	ts := startServerWith(t, "", both(fakeClocked(&clk), func(c *Config) { c.Limits.Unlimited = loopback }))
	ctx := within(t, 120*time.Second)
	const n = maxListed + 10
	ids := make([]string, n)
	for i := range ids {
		code, c := createFrom(ctx, ts.api, fmt.Sprintf("empty %d", i), 5)
		if code != "" {
			t.Fatalf("table %d: %s", i, code)
		}
		ids[i] = c.Table
		if i == 5 { // an old table where a person plays
			host := newPlayer(ts.api.Base, c.Table, c.HostToken, 0, 1)
			if _, err := ts.api.Join(ctx, c.Table, "Nino", 0, c.HostToken); err != nil {
				t.Fatal(err)
			}
			if _, err := host.connect(ctx); err != nil {
				t.Fatal(err)
			}
			for _, act := range []string{"add_bots", "start"} {
				if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: act}); err != nil {
					t.Fatalf("%s: %v", act, err)
				}
			}
			// The host stays connected: a game nobody is at freezes after a
			// minute of this clock, and is no one's to list first.
			t.Cleanup(host.c.close)
		}
		clk.Advance(time.Second)
	}
	// An old table in the lobby where a person waits.
	if _, err := ts.api.Join(ctx, ids[2], "Giorgi", 0, ""); err != nil {
		t.Fatal(err)
	}
	list, err := ts.api.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != maxListed {
		t.Fatalf("%d tables listed, want %d", len(list), maxListed)
	}
	want := []string{ids[2], ids[5]}
	for i := n - 1; len(want) < maxListed; i-- {
		if i != 2 && i != 5 {
			want = append(want, ids[i])
		}
	}
	for i := range want {
		if list[i].Table != want[i] {
			t.Fatalf("place %d: %s (%q), want %s", i, list[i].Table, list[i].Name, want[i])
		}
	}
}

// TestAPI_JSONIsNotHTMLEscaped: names go out as they are, a "<" one byte
// and not six ("\u003c"); the clients render text as text.
func TestAPI_JSONIsNotHTMLEscaped(t *testing.T) {
	ts := startServer(t, "")
	ctx := within(t, 30*time.Second)
	name := `<b>Tom & "Jerry"</b>`
	status, _, body := apiCall(ctx, t, ts.api.Base, "POST", "/api/tables", "", "", `{"name":"<b>Tom & \"Jerry\"</b>","players":5,"public":true}`)
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, body)
	}
	want := `"name":"<b>Tom & \"Jerry\"</b>"`
	if !strings.Contains(string(body), want) {
		t.Errorf("the create answer has not %s: %s", want, body)
	}
	for _, path := range []string{"/api/tables", "/api/tables/" + jsonField(t, body, "table")} {
		resp, err := http.Get(ts.api.Base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), want) || strings.Contains(string(b), `\u003c`) || strings.Contains(string(b), `\u0026`) {
			t.Errorf("GET %s: the name %s is escaped: %s", path, name, b)
		}
	}
}

func jsonField(t *testing.T, body []byte, field string) string {
	t.Helper()
	s := string(body)
	i := strings.Index(s, `"`+field+`":"`)
	if i < 0 {
		t.Fatalf("no %s in %s", field, body)
	}
	s = s[i+len(field)+4:]
	return s[:strings.Index(s, `"`)]
}
