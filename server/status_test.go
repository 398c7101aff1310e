package server

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mafia/client"
	"mafia/engine"
	"mafia/store"
	"mafia/wire"
)

// awaitStatus reads a connection until its lobby shows status.
func awaitStatus(ctx context.Context, t *testing.T, c *client.Conn, status string) {
	t.Helper()
	for c.Lobby == nil || c.Lobby.Status != status {
		if _, err := c.Read(ctx); err != nil {
			t.Fatalf("waiting for status %s: %v", status, err)
		}
	}
}

// TestStatus_AFileCutBetweenTheEventsAndTheStatusResumesRight makes, with
// the real server and store, a game that has started and one that has
// ended, then cuts each file back to what a crash between the two writes of
// the server before this change left (the events committed, the table's
// row not yet: a started game "lobby" with no seed, an ended one "playing"
// with no winner), and starts a server on it: the table's status is
// repaired from its log, in the lobby object and in the store, the started
// game goes on for its seats, and the ended one shows its result and is
// not listed as open.
func TestStatus_AFileCutBetweenTheEventsAndTheStatusResumesRight(t *testing.T) {
	t.Run("a started game left in the lobby", func(t *testing.T) {
		ctx := within(t, time.Minute)
		ts := startServer(t, "")
		created, err := ts.api.Create(ctx, client.CreateRequest{Name: "cut", Players: 5, Public: true, TimingsMS: slowTimings})
		if err != nil {
			t.Fatal(err)
		}
		var tokens []string
		for i := 1; i <= 5; i++ {
			tok := ""
			if i == 1 {
				tok = created.HostToken
			}
			j, err := ts.api.Join(ctx, created.Table, fmt.Sprint("player ", i), 0, tok)
			if err != nil {
				t.Fatal(err)
			}
			tokens = append(tokens, j.Token)
		}
		host, err := ts.api.Dial(ctx, created.Table, tokens[0], 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := host.Send(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
			t.Fatal(err)
		}
		awaitStatus(ctx, t, host, "playing")
		host.CloseNow()
		ts.close()
		rawExec(t, ts.path, `UPDATE tables SET status = 'lobby', seed = '0' WHERE id = ?`, created.Table)

		ts = startServer(t, ts.path)
		l, err := ts.api.Table(ctx, created.Table)
		if err != nil || l.Status != "playing" {
			t.Fatalf("the resumed table: %+v, %v; want it playing", l, err)
		}
		stored, _, err := ts.db.Table(ctx, store.KindOnline, created.Table)
		log, err2 := ts.db.Events(ctx, created.Table)
		if err != nil || err2 != nil {
			t.Fatal(err, err2)
		}
		g, err := engine.Replay(log)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Status != store.StatusPlaying || stored.Seed != g.Seed() || g.Seed() == 0 {
			t.Errorf("the stored table: status %q seed %d; want playing with the game's seed %d", stored.Status, stored.Seed, g.Seed())
		}
		c, err := ts.api.Dial(ctx, created.Table, tokens[2], 0)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		if c.View == nil || c.View.Seat != 3 || c.View.Phase == "" || c.View.Phase == "lobby" || c.View.Role == "" {
			t.Errorf("seat 3's welcome after the restart: %+v; want its view of the game in play", c.View)
		}
	})

	t.Run("an ended game left playing", func(t *testing.T) {
		ctx := within(t, time.Minute)
		ts := startServer(t, "")
		created, err := ts.api.Create(ctx, client.CreateRequest{Name: "cut", Players: 5, Public: true, TimingsMS: fastTimings})
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
		awaitStatus(ctx, t, host, "ended")
		host.CloseNow()
		ts.close()
		rawExec(t, ts.path, `UPDATE tables SET status = 'playing', winner = '' WHERE id = ?`, created.Table)

		ts = startServer(t, ts.path)
		l, err := ts.api.Table(ctx, created.Table)
		if err != nil || l.Status != "ended" {
			t.Fatalf("the resumed table: %+v, %v; want it ended", l, err)
		}
		open, err := ts.api.Tables(ctx)
		if err != nil || len(open) != 0 {
			t.Errorf("open tables after the restart: %+v, %v; want none", open, err)
		}
		stored, _, err := ts.db.Table(ctx, store.KindOnline, created.Table)
		log, err2 := ts.db.Events(ctx, created.Table)
		if err != nil || err2 != nil {
			t.Fatal(err, err2)
		}
		g, err := engine.Replay(log)
		if err != nil || !g.Ended() {
			t.Fatalf("the stored log: %v, ended %v", err, g != nil && g.Ended())
		}
		if stored.Status != store.StatusEnded || stored.Winner != g.Winner().String() {
			t.Errorf("the stored table: status %q winner %q; want ended, won by %s", stored.Status, stored.Winner, g.Winner())
		}
		c, err := ts.api.Dial(ctx, created.Table, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		if c.View == nil || c.View.Phase != "ended" || c.View.Winner == "" {
			t.Errorf("a spectator's welcome after the restart: %+v; want the result", c.View)
		}
	})
}
