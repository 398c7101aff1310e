package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// TestFullGame_ElevenSeatsOverWebSockets plays a whole 11-player game from
// table creation to the result, each seat a real WebSocket client.
func TestFullGame_ElevenSeatsOverWebSockets(t *testing.T) {
	ts := startServer(t, "")
	ctx := within(t, 3*time.Minute) // a guard: the game takes seconds, but ran past a minute at a load of 30
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "test", Players: 11, Public: true, TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	conns := make([]*client.Conn, 12)
	for i := 1; i <= 11; i++ {
		tok := ""
		if i == 1 {
			tok = created.HostToken
		}
		j, err := ts.api.Join(ctx, created.Table, fmt.Sprintf("player %d", i), 0, tok)
		if err != nil {
			t.Fatal(err)
		}
		if j.Seat != i {
			t.Fatalf("join %d got seat %d", i, j.Seat)
		}
		if conns[i], err = ts.api.Dial(ctx, created.Table, j.Token, 0); err != nil {
			t.Fatal(err)
		}
	}
	tables, err := ts.api.Tables(ctx)
	if err != nil || len(tables) != 1 || tables[0].Table != created.Table {
		t.Fatalf("public tables: %+v %v", tables, err)
	}
	if tables[0].Owner != nil {
		t.Errorf("a server alone names an owner of its table: %+v", tables[0].Owner)
	}
	if _, err := conns[1].Send(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	results := make([]string, 12)
	errs := make([]error, 12)
	for i := 1; i <= 11; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, errs[i] = playRandomly(ctx, conns[i], uint64(i))
			if conns[i].View != nil {
				results[i] = conns[i].View.Winner
			}
		}(i)
	}
	wg.Wait()
	for i := 1; i <= 11; i++ {
		if errs[i] != nil {
			t.Fatalf("seat %d: %v", i, errs[i])
		}
		if results[i] == "" || results[i] != results[1] {
			t.Fatalf("seat %d saw result %q, seat 1 saw %q", i, results[i], results[1])
		}
		roles := 0
		for _, s := range conns[i].View.Seats {
			if s.Role != "" {
				roles++
			}
		}
		if roles != 11 {
			t.Fatalf("seat %d: the end revealed %d roles, want 11", i, roles)
		}
	}
	t.Logf("winner: %s", results[1])

	// At the end a public table's whole record is everyone's, night secrets included.
	var full struct {
		Players int          `json:"players"`
		Events  []wire.Event `json:"events"`
	}
	resp, err := ts.http.Client().Get(ts.http.URL + "/api/tables/" + created.Table + "/log")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&full); err != nil || resp.StatusCode != 200 {
		t.Fatalf("log: status %d, %v", resp.StatusCode, err)
	}
	stored, err := ts.db.Events(ctx, created.Table)
	if err != nil {
		t.Fatal(err)
	}
	if full.Players != 11 || len(full.Events) != len(stored) || len(full.Events) <= len(conns[2].Events) {
		t.Fatalf("log: %d players, %d events; the store has %d, seat 2 saw %d", full.Players, len(full.Events), len(stored), len(conns[2].Events))
	}
}

// TestTableLog_RefusedWhileTheGameGoesOn: the record holds the night's
// secrets, so it opens only at the end, to its players too.
func TestTableLog_RefusedWhileTheGameGoesOn(t *testing.T) {
	ts := startServer(t, "")
	ctx := within(t, 20*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "t", Players: 5, TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	host, err := ts.api.Dial(ctx, created.Table, created.HostToken, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"add_bots", "start"} {
		if _, err := host.Send(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	for host.Lobby == nil || host.Lobby.Status != "playing" {
		if _, err := host.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/api/tables/"+created.Table+"/log", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+created.HostToken)
	resp, err := ts.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body errorBody
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != 409 || body.Error.Code != "not_over" || body.Error.Message == "" {
		t.Fatalf("status %d, %+v; want 409 not_over with a sentence", resp.StatusCode, body)
	}
}
