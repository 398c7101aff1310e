package server

import (
	"fmt"
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
	ctx := within(t, 60*time.Second)
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
}
