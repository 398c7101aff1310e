package room_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"mafia/engine"
	"mafia/rng"
	"mafia/room"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/wire"
)

// said is a chat line accepted at the table: its channel, sender and text,
// and the length of the game's log when it was said.
type said struct {
	channel string
	from    int
	text    string
	log     int
}

// readBack is what a connection of seat opened now reads of the chat so
// far: every page of its history, asked for newest first until the first
// line, the lines oldest first and each page's frame length in the order
// they came.
func readBack(f *fixture, token string) ([]wire.ChatLine, []int) {
	f.t.Helper()
	c := f.attach(token)
	defer func() { f.r.Detach(c.sub); f.sync() }()
	var pages [][]wire.ChatLine
	var sizes []int
	before := 0
	for {
		c.must(wire.ClientMessage{Type: "history", Before: before})
		fr := c.frames[len(c.frames)-1]
		pages = append(pages, fr.msg.Lines)
		sizes = append(sizes, len(fr.raw))
		if fr.msg.Before == 0 {
			break
		}
		if before != 0 && fr.msg.Before >= before {
			f.t.Fatalf("a page before %d starts at %d", before, fr.msg.Before)
		}
		before = fr.msg.Before
	}
	var lines []wire.ChatLine
	for i := len(pages) - 1; i >= 0; i-- {
		lines = append(lines, pages[i]...)
	}
	return lines, sizes
}

// historyRule is who reads a line again (docs/protocol.md, "Chat"),
// written apart from the room: after the end every line to everyone;
// during the game the town's to everyone, the dead's to the dead, the
// mafia's to each seat of the mafia that had not left the game when it was
// said (out: the log's position of each seat's player_out).
func historyRule(g *engine.Game, roles []engine.Role, out map[int]int, l said, seat int) bool {
	if g != nil && g.Ended() {
		return true
	}
	switch l.channel {
	case "town":
		return true
	case "dead":
		return seat != 0 && g != nil && !g.Alive().Has(engine.Seat(seat))
	case "mafia":
		at, left := out[seat]
		return seat != 0 && roles[seat].IsMafia() && (!left || l.log <= at)
	}
	return false
}

// TestChatSurvivesARestartAndEverySeatReadsAllItMayByTheSameRules plays a
// game of people who talk in every channel they may (more lines than the
// room keeps in memory: the lobby talks first), and stops its room (the
// store's file closed and opened again, as a server restart does) twice:
// in the middle of the game, once a player is dead and the mafia and the
// dead have talked, and after the end. Before and after each restart a new
// connection of every seat (each seat's second tab: its first stays
// open), the mafia's and the dead's included, and a late spectator read
// the chat so far page by page: each exactly the lines historyRule gives
// it, all of them from the first, the same before and after the restart;
// and every one of them gets as many pages as the others, each of the same
// length.
func TestChatSurvivesARestartAndEverySeatReadsAllItMayByTheSameRules(t *testing.T) {
	const players = 7
	f := newFixture(t, settings(t, players, fastTimings), func(c *room.Config) { c.NightTick = tick })
	cs := f.fillWithPeople(players)
	host := f.hostClient()
	var lines []said
	n := 0
	// post has seat's client say a line in channel.
	post := func(c *client, channel string) {
		t.Helper()
		n++
		text := fmt.Sprintf("%s line %d from %d", channel, n, c.seat)
		log := len(f.events())
		c.must(chat(channel, text))
		if channel == "mafia" {
			f.advance(tick) // its tick
		}
		lines = append(lines, said{channel: channel, from: c.seat, text: text, log: log})
	}
	tokens := func() []string {
		ts := []string{""}
		for s := 1; s <= players; s++ {
			ts = append(ts, f.tokens[s])
		}
		return ts
	}
	var roles []engine.Role
	// check compares each seat's history now with before (if any) and with
	// the rule, and returns it.
	check := func(where string, before map[int][]wire.ChatLine) map[int][]wire.ChatLine {
		t.Helper()
		g := f.replay()
		out := map[int]int{}
		for i, e := range f.events() {
			if e.Kind == engine.EvPlayerOut {
				out[int(e.Target)] = i
			}
		}
		got := map[int][]wire.ChatLine{}
		var sizes0 []int
		for seat, tok := range tokens() {
			var sizes []int
			got[seat], sizes = readBack(f, tok)
			if seat == 0 {
				sizes0 = sizes
			} else if !slices.Equal(sizes, sizes0) {
				t.Fatalf("%s: seat %d's history pages are %v bytes long, a spectator's %v", where, seat, sizes, sizes0)
			}
			var want []said
			for _, l := range lines {
				if historyRule(g, roles, out, l, seat) {
					want = append(want, l)
				}
			}
			if len(got[seat]) != len(want) {
				t.Fatalf("%s: seat %d reads back %d lines, want %d", where, seat, len(got[seat]), len(want))
			}
			for i, l := range want {
				m := got[seat][i]
				if m.Channel != l.channel || m.From != l.from || m.Text != l.text || m.Name != fmt.Sprintf("player %d", l.from) {
					t.Fatalf("%s: seat %d's line %d is %s/%d %q, want %s/%d %q", where, seat, i,
						m.Channel, m.From, m.Text, l.channel, l.from, l.text)
				}
			}
			if before != nil && !slices.Equal(got[seat], before[seat]) {
				t.Fatalf("%s: seat %d's history differs from before the restart", where, seat)
			}
		}
		t.Logf("%s: %d lines said, %d pages", where, len(lines), len(sizes0))
		return got
	}
	restart := func(where string) {
		t.Helper()
		before := check(where+", before the restart", nil)
		s := f.crash(f.clk.Now())
		f.db.Close()
		db, err := sqlite.Open(f.path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		f.db, f.cfg.Store = db, db
		f.restart(s, f.clk.Now())
		check(where+", after the restart", before)
	}

	for i := range 200 {
		post(cs[1+i%players], "town")
	}
	host.must(hostAction("start", 0))
	roles = f.truth()
	rules := chatRules{roles: roles}
	src := rng.New(7)
	count := map[string]int{}
	restarted := false
	for step := 0; ; step++ {
		rules.g = f.replay()
		if rules.g.Ended() {
			break
		}
		if step > 5000 {
			t.Fatal("no end")
		}
		for s := 1; s <= players; s++ {
			for _, ch := range []string{"town", "mafia", "dead"} {
				if rules.mayPost(ch, s) && count[ch] < 40 {
					post(cs[s], ch)
					count[ch]++
					rules.g = f.replay()
				}
			}
		}
		if !restarted && count["mafia"] > 0 && count["dead"] > 0 && count["town"] > 3 {
			restart("during the game")
			restarted = true
			cs = make([]*client, players+1)
			for s := 1; s <= players; s++ {
				cs[s] = f.attach(f.tokens[s])
			}
			continue
		}
		acted := false
		for _, p := range cs[1:] {
			p.drain()
			if m, ok := p.randomMove(&src); ok {
				acted = true
				p.send(m) // may be refused: the step may have moved on
			}
		}
		if !acted {
			f.advance(tick)
		}
	}
	if !restarted {
		t.Fatalf("the game ended before the mafia and the dead talked: %v", count)
	}
	for s := 1; s <= players; s++ {
		post(cs[s], "town") // "gg"
	}
	restart("after the end")

	// The store holds every line, in order, with where it was said.
	kept, err := f.db.Chat(bg(), f.r.ID(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != len(lines) {
		t.Fatalf("the store keeps %d lines, %d were said", len(kept), len(lines))
	}
	for i, l := range lines {
		k := kept[i]
		if k.Seq != i || k.Channel != l.channel || k.Seat != l.from || k.Text != l.text {
			t.Fatalf("stored line %d: %+v, want %+v", i, k, l)
		}
		if i > 0 && k.Log < kept[i-1].Log {
			t.Fatalf("stored line %d is placed at event %d, before line %d (%d)", i, k.Log, i-1, kept[i-1].Log)
		}
	}
	if k := kept[0]; k.Phase != "lobby" || k.Log != 0 || k.Round != 0 {
		t.Fatalf("a line of the lobby is placed at %+v", k)
	}
	if k := kept[len(kept)-1]; k.Phase != "ended" || k.Log != len(f.events()) {
		t.Fatalf("a line after the end is placed at %+v (the log has %d events)", k, len(f.events()))
	}
	var _ store.Chats = f.db
	if len(lines) <= 200 || count["mafia"] < 2 {
		t.Fatalf("only %d lines (%v): fewer than the room keeps in memory", len(lines), count)
	}
	t.Logf("lines said: %d (%v)", len(lines), count)
}

// fullChatStore is the fixture's real store, whose chat is full.
type fullChatStore struct{ *sqlite.DB }

func (fullChatStore) AppendChat(context.Context, string, store.ChatLine) error {
	return fmt.Errorf("full: %w", store.ErrChatFull)
}

// TestChatPastTheStoresCapIsRefusedAndReadByNobody: a line the store
// refuses as full is refused with chat_full (N: the cap), and no
// connection is sent it, nor reads it in its history later.
func TestChatPastTheStoresCapIsRefusedAndReadByNobody(t *testing.T) {
	f := newFixture(t, settings(t, 5, fastTimings), func(c *room.Config) {
		c.Store = fullChatStore{c.Store.(*sqlite.DB)}
	})
	cs := f.fillWithPeople(5)
	watcher := f.attach("")
	err := cs[2].send(chat("town", "one line too many"))
	var e *engine.Error
	if codeOf(err) != room.CodeChatFull || !errors.As(err, &e) || e.N != store.MaxChatLines {
		t.Fatalf("a line past the cap: %v, want chat_full with N %d", err, store.MaxChatLines)
	}
	for _, c := range append(cs[1:], watcher, f.attach("")) {
		for _, fr := range c.drain() {
			if fr.msg.Type == "chat" {
				t.Fatalf("seat %d was sent %s", c.seat, fr.raw)
			}
		}
	}
	if lines, _ := readBack(f, f.tokens[2]); len(lines) != 0 {
		t.Fatalf("the history holds a refused line: %+v", lines)
	}
}
