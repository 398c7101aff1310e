package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"mafia/client"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/wire"
)

// chatFailStore is the server's real SQLite store, whose chat appends fail
// while fail is set, as on a full disk.
type chatFailStore struct {
	*sqlite.DB
	fail atomic.Bool
}

func (s *chatFailStore) AppendChat(ctx context.Context, id string, l store.ChatLine) error {
	if s.fail.Load() {
		return errors.New("disk full")
	}
	return s.DB.AppendChat(ctx, id, l)
}

// TestChatRecord_TheFinishedGamesRecordHoldsTheWholeChat: over a real
// server, a chat line whose store write fails is refused with internal and
// reaches nobody, then or later (no frame of any player, nor the history
// of a spectator who comes after the end); the finished game's record holds
// every line said, in order, with where in the game it was said (the
// lobby's before the first event, the last after game_ended), fits the
// schema, and is the same after a server restart on the same file.
func TestChatRecord_TheFinishedGamesRecordHoldsTheWholeChat(t *testing.T) {
	var fs *chatFailStore
	tune := both(localized, func(c *Config) {
		c.Limits.Unlimited = loopback
		fs = &chatFailStore{DB: c.Store.(*sqlite.DB)}
		c.Store = fs
	})
	ts := startServerWith(t, "", tune)
	ctx := within(t, 90*time.Second)
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "talk", Players: 5, TimingsMS: fastTimings}, []int{1, 2, 3}, 5)
	for _, p := range tb.players {
		p.keep = true
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	host, p2, p3 := tb.players[0], tb.players[1], tb.players[2]
	say := func(p *player, text string) error {
		return p.call(ctx, wire.ClientMessage{Type: "chat", Channel: "town", Text: text})
	}
	if err := say(host, "hello, table"); err != nil {
		t.Fatal(err)
	}
	fs.fail.Store(true)
	var ce *client.Error
	if err := say(p2, "a line the disk never took"); !errors.As(err, &ce) || ce.Code != "internal" {
		t.Fatalf("a line the store refused: %v, want internal", err)
	}
	fs.fail.Store(false)
	if err := say(p3, "and now it writes"); err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"add_bots", "start"} {
		if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	run := playAll(ctx, tb.players)
	if err := <-run.done; err != nil {
		t.Fatal(err)
	}
	if _, err := host.connect(ctx); err != nil {
		t.Fatal(err)
	}
	if err := say(host, "gg"); err != nil {
		t.Fatal(err)
	}
	host.c.close()
	lost := []byte("a line the disk never took")
	for _, p := range tb.players {
		for _, f := range p.frames {
			if bytes.Contains(f, lost) {
				t.Fatalf("seat %d was sent the refused line: %s", p.seat, f)
			}
		}
	}
	// A spectator after the end reads back every line: not the lost one.
	back, _, err := readHistory(ctx, ts.api.Base, tb.id, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, l := range back {
		texts = append(texts, l.Text)
	}
	if want := []string{"hello, table", "and now it writes", "gg"}; !slices.Equal(texts, want) {
		t.Fatalf("a spectator after the end reads back %q, want %q", texts, want)
	}

	stored, err := ts.db.Events(ctx, tb.id)
	if err != nil {
		t.Fatal(err)
	}
	path := "/api/tables/" + tb.id + "/record"
	status, _, body := apiCall(ctx, t, ts.api.Base, "GET", path, "", tb.host, "")
	if status != 200 {
		t.Fatalf("the record: %d %s", status, body)
	}
	if err := validate("record", body); err != nil {
		t.Fatalf("the record does not fit the schema: %v", err)
	}
	var rec struct {
		Chat []struct {
			Channel, Name, Text, Phase string
			From, At, Round            int
			Now                        int64
		}
	}
	if err := json.Unmarshal(body, &rec); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		from        int
		text, phase string
		at          int
	}{{1, "hello, table", "lobby", 0}, {3, "and now it writes", "lobby", 0}, {1, "gg", "ended", len(stored)}}
	if len(rec.Chat) != len(want) {
		t.Fatalf("the record's chat: %+v, want %+v", rec.Chat, want)
	}
	for i, w := range want {
		l := rec.Chat[i]
		if l.Channel != "town" || l.From != w.from || l.Text != w.text || l.Phase != w.phase || l.At != w.at || l.Now <= 0 {
			t.Errorf("the record's line %d: %+v, want %+v", i, l, w)
		}
	}

	// The chat is kept with the game: a restarted server gives the same record.
	ts.close()
	ts2 := startServerWith(t, ts.path, tune)
	status, _, again := apiCall(ctx, t, ts2.api.Base, "GET", path, "", tb.host, "")
	if status != 200 || !bytes.Equal(again, body) {
		t.Fatalf("after a restart the record is %d %s,\nbefore %s", status, again, body)
	}
}
