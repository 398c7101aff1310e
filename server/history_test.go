package server

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"mafia/client"
	"mafia/engine"
	"mafia/store"
	"mafia/wire"
)

// historyPage is one page of a connection's history as it came: its lines
// and its frame's length on the wire.
type historyPage struct {
	lines []wire.ChatLine
	size  int
}

// readHistory opens a new connection to the table with token ("": a
// spectator; a seat's token while its player's connection stays open: a
// second tab), asks for every page of the chat so far, newest first, and
// returns the lines oldest first and the pages in the order they came.
func readHistory(ctx context.Context, base, table, token string, since int) ([]wire.ChatLine, []historyPage, error) {
	return readHistoryWith(ctx, base, table, token, since, dialOpts{})
}

// readHistoryWith is readHistory over a connection dialled with o (its
// language, say).
func readHistoryWith(ctx context.Context, base, table, token string, since int, o dialOpts) ([]wire.ChatLine, []historyPage, error) {
	c, _, err := dialWS(ctx, base, table, token, since, o)
	if err != nil {
		return nil, nil, err
	}
	defer c.close()
	var pages []historyPage
	before := 0
	for {
		id, err := c.send(ctx, wire.ClientMessage{Type: "history", Before: before})
		if err != nil {
			return nil, nil, err
		}
		var m wire.ServerMessage
		var data []byte
		for m.ID != id || (m.Type != "history" && m.Type != "error") {
			if data, m, err = c.read(ctx); err != nil {
				return nil, nil, err
			}
		}
		if m.Type == "error" {
			return nil, nil, fmt.Errorf("history before %d: %s", before, m.Code)
		}
		pages = append(pages, historyPage{lines: m.Lines, size: len(data)})
		if m.Before == 0 {
			break
		}
		before = m.Before
	}
	var lines []wire.ChatLine
	for i := len(pages) - 1; i >= 0; i-- {
		lines = append(lines, pages[i].lines...)
	}
	return lines, pages, nil
}

// mayReadAgain is who reads a stored line again (docs/protocol.md,
// "Chat"), written apart from the room from the game's log: after the end
// every seat reads every line, and so does a spectator at a public table
// (at a private one the town's only); during the game everyone the town's,
// the dead the dead's, and each seat of the mafia the mafia's said while
// it was in the game.
func mayReadAgain(log []engine.Event, l store.ChatLine, seat int, public bool) bool {
	ended, out, mafia := false, -1, false
	for i, e := range log {
		switch {
		case e.Kind == engine.EvGameEnded:
			ended = true
		case e.Kind == engine.EvPlayerOut && int(e.Target) == seat && out < 0:
			out = i
		case e.Kind == engine.EvGameStarted && seat > 0:
			mafia = e.RoleOf(engine.Seat(seat)).IsMafia()
		}
	}
	switch {
	case ended:
		return seat != 0 || public || l.Channel == "town"
	case l.Channel == "town":
		return true
	case l.Channel == "dead":
		return seat != 0 && out >= 0
	case l.Channel == "mafia":
		return mafia && (out < 0 || l.Log <= out)
	}
	return false
}

// TestHistory_EverySeatReadsBackAllItMayAndNoFrameTellsItsCard plays a game
// of seven people over a real server who talk wherever they may (more
// lines in the lobby than the room keeps in memory, the mafia at night,
// the dead), pauses it one day once a player is dead and the mafia and
// the dead have talked, and then after its end: a second tab of every
// seat (the mafia's, the dead's), a reconnect of the mafia's first seat
// and a late spectator each read back, page by page, exactly the lines
// the store holds that they may read, all of them from the first; and
// every one of them gets as many pages as the spectator, each as long.
func TestHistory_EverySeatReadsBackAllItMayAndNoFrameTellsItsCard(t *testing.T) {
	const players = 7
	ts := startServerWith(t, "", func(c *Config) {
		c.Limits.Unlimited = loopback
		c.Limits.ChatRate, c.Limits.ChatBurst, c.Limits.SeatChatRate, c.Limits.SeatChatBurst = 1e6, 1e6, 1e6, 1e6
		c.NightTick = 50 * time.Millisecond
	})
	ctx := within(t, 120*time.Second)
	timings := map[string]int64{"speech": 5000, "defence": 3000, "tie_speech": 3000, "last_words": 3000, "night": 1000, "vote": 400}
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "talk", Players: players, TimingsMS: timings}, seatsUpTo(players), 31)
	for _, p := range tb.players {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 210 {
		p := tb.players[i%players]
		if err := p.call(ctx, wire.ClientMessage{Type: "chat", Channel: "town", Text: fmt.Sprintf("lobby line %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	// Every seat says one line in each step where it may talk, before it
	// moves: its speech, the mafia's night, a dead seat's every step.
	var mu sync.Mutex
	said := map[string]bool{}
	for _, p := range tb.players {
		p.hold = func(p *player) bool {
			v := p.view
			me := v.Seats[p.seat-1]
			ch := ""
			switch {
			case v.Phase == "ended":
			case !me.Alive:
				ch = "dead"
			case v.Phase == "night" && (v.Role == "mafia" || v.Role == "don"):
				ch = "mafia"
			case v.Speaker == p.seat:
				ch = "town"
			}
			key := fmt.Sprintf("%d %d %s", p.seat, v.Step, ch)
			mu.Lock()
			defer mu.Unlock()
			if ch == "" || said[key] {
				return false
			}
			said[key] = true
			_, err := p.request(ctx, wire.ClientMessage{Type: "chat", Channel: ch, Text: fmt.Sprintf("%s line of seat %d in step %d", ch, p.seat, v.Step)})
			return err == nil
		}
	}
	if err := tb.players[0].call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	run := playAll(ctx, tb.players)

	// check reads back every seat's history and a spectator's, now (again
	// if a line said meanwhile, by a request sent before the pause, changed
	// the store while it read).
	// The lines a request sent before the pause may say are few: a check
	// reads again at most maxRereads times, then fails (no unbounded retry).
	const maxRereads = 5
	rereads := 0
	var check func(where string)
	check = func(where string) {
		t.Helper()
		log, err := ts.db.Events(ctx, tb.id)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := ts.db.Chat(ctx, tb.id, 0)
		if err != nil {
			t.Fatal(err)
		}
		channels := map[string]int{}
		for _, l := range stored {
			channels[l.Channel]++
		}
		var spectator []historyPage
		var fail error
		for seat := 0; seat <= players && fail == nil; seat++ {
			tok, since := "", 0
			if seat > 0 {
				p := tb.players[seat-1]
				tok = p.token
				if seat == 1 {
					since = len(log) // a reconnect that has every event
				}
			}
			got, pages, err := readHistory(ctx, ts.api.Base, tb.id, tok, since)
			if err != nil {
				t.Fatalf("%s: seat %d: %v", where, seat, err)
			}
			var want []store.ChatLine
			for _, l := range stored {
				if mayReadAgain(log, l, seat, false) { // a private table
					want = append(want, l)
				}
			}
			if len(got) != len(want) {
				fail = fmt.Errorf("%s: seat %d reads back %d lines, may read %d (%v in the store)", where, seat, len(got), len(want), channels)
				break
			}
			for i, w := range want {
				g := got[i]
				if g.Channel != w.Channel || g.From != w.Seat || g.Name != w.Name || g.Text != w.Text ||
					g.Now != w.At.UnixMilli() || g.Round != w.Round || g.Phase != w.Phase {
					fail = fmt.Errorf("%s: seat %d's line %d is %+v, the store's %+v", where, seat, i, g, w)
					break
				}
			}
			if fail != nil {
				break
			}
			sizes := func(ps []historyPage) []int {
				var out []int
				for _, p := range ps {
					out = append(out, p.size)
				}
				return out
			}
			if seat == 0 {
				spectator = pages
			} else if !slices.Equal(sizes(pages), sizes(spectator)) {
				fail = fmt.Errorf("%s: seat %d's pages are %v bytes long, a spectator's %v", where, seat, sizes(pages), sizes(spectator))
			}
		}
		if again, err := ts.db.Chat(ctx, tb.id, 0); err != nil || len(again) != len(stored) {
			if rereads++; rereads > maxRereads {
				t.Fatalf("%s: the chat changed while it was read %d times in a row (%v): the paused game's chat never settles", where, rereads, err)
			}
			t.Logf("%s: the chat changed while it was read (%v): again", where, err)
			check(where)
			return
		}
		rereads = 0
		if fail != nil {
			t.Fatal(fail)
		}
		t.Logf("%s: %d lines stored (%v), %d pages", where, len(stored), channels, len(spectator))
	}

	// Pause on a day once someone is dead and the mafia and the dead have
	// talked (a second connection of the host, who plays seat 1).
	watch, _, err := dialWS(ctx, ts.api.Base, tb.id, tb.host, 0, dialOpts{})
	if err != nil {
		t.Fatal(err)
	}
	phase := ""
	next := func() wire.ServerMessage {
		t.Helper()
		_, m, err := watch.read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.View != nil {
			phase = m.View.Phase
		}
		return m
	}
	for paused := false; !paused; {
		if m := next(); phase == "ended" {
			t.Fatal("the game ended before the mafia and the dead talked on a day")
		} else if m.View == nil || m.View.Phase != "speech" {
			continue
		}
		stored, err := ts.db.Chat(ctx, tb.id, 0)
		if err != nil {
			t.Fatal(err)
		}
		n := map[string]int{}
		for _, l := range stored {
			n[l.Channel]++
		}
		if n["mafia"] == 0 || n["dead"] == 0 {
			continue
		}
		id, err := watch.send(ctx, wire.ClientMessage{Type: "host", Action: "pause"})
		if err != nil {
			t.Fatal(err)
		}
		m := next()
		for m.ID != id {
			m = next()
		}
		if m.Type != "reply" {
			t.Fatalf("pause: %+v", m)
		}
		// Paused on a day (not a night that came meanwhile, whose lines
		// wait for their ticks, nor the end): check, else go on.
		if phase != "night" && phase != "ended" {
			check("paused on a day")
			paused = true
		}
		if _, err := watch.send(ctx, wire.ClientMessage{Type: "host", Action: "resume"}); err != nil {
			t.Fatal(err)
		}
	}
	watch.close()
	if err := <-run.done; err != nil {
		t.Fatal(err)
	}
	check("after the end")
}
