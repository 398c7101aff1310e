package client_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"mafia/client"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
	"mafia/wire"
)

// TestRead_SkipsPads plays a night on a real server (bots in the other
// seats, a short night tick): a second connection of the seat, read raw,
// gets pads padded with spaces; Read never returns one, and its view and
// event count follow the game through the night to its end.
func TestRead_SkipsPads(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: db, NightTick: 50 * time.Millisecond, Pace: room.PaceInstant})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close(); srv.Close(); db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	api := &client.API{Base: hs.URL}
	created, err := api.Create(ctx, client.CreateRequest{Name: "pads", Players: 5,
		TimingsMS: map[string]int64{"night": 600}})
	if err != nil {
		t.Fatal(err)
	}
	j, err := api.Join(ctx, created.Table, "Nino", 1, created.HostToken)
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.Dial(ctx, created.Table, j.Token, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	raw, err := api.Dial(ctx, created.Table, j.Token, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.CloseNow()
	for _, a := range []string{"add_bots", "start"} {
		if _, err := c.Send(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	for c.View == nil || c.View.Phase == "night" {
		m, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == "pad" {
			t.Fatal("Read returned a pad")
		}
	}
	if c.Seq != len(c.Events) || c.Seq == 0 {
		t.Errorf("seq %d after %d events", c.Seq, len(c.Events))
	}
	pads := 0
	for raw.View == nil || raw.View.Phase == "night" {
		data, err := raw.ReadRaw(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if body := bytes.TrimRight(data, " "); string(body) == `{"v":1,"type":"pad"}` {
			pads++
			if len(data)%64 != 0 {
				t.Errorf("a pad of %d bytes", len(data))
			}
		}
		if _, err := raw.Absorb(data); err != nil {
			t.Fatal(err)
		}
	}
	if pads == 0 {
		t.Error("no pad in a night of ticks: the test saw nothing to skip")
	}
	t.Logf("%d pads in the night", pads)
}
