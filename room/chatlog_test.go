package room_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"mafia/engine"
	"mafia/rng"
	"mafia/room"
	"mafia/store"
	"mafia/store/sqlite"
)

// said is a chat line accepted at the table: its channel, sender and text,
// and its frame as a reader got it (nil for a mafia line until its tick).
type said struct {
	channel string
	from    int
	text    string
	frame   []byte
}

// replayed is what a connection of seat opened now is sent after its
// welcome: the chat frames, in order.
func replayed(f *fixture, token string) [][]byte {
	f.t.Helper()
	c := f.attach(token)
	var out [][]byte
	for _, fr := range c.frames {
		if fr.msg.Type == "chat" {
			out = append(out, bytes.TrimRight(fr.raw, " "))
		}
	}
	f.r.Detach(c.sub)
	f.sync()
	return out
}

// replayRule is the replay of docs/protocol.md ("Chat"), written apart from
// the room: after the end every line to everyone; during the game the
// town's to everyone, the dead's to the dead, the mafia's to nobody.
func replayRule(g *engine.Game, channel string, seat int) bool {
	if g != nil && g.Ended() {
		return true
	}
	switch channel {
	case "town":
		return true
	case "dead":
		return seat != 0 && g != nil && !g.Alive().Has(engine.Seat(seat))
	}
	return false
}

// TestChatSurvivesARestartAndIsReplayedByTheSameRules plays a game of
// people who talk in every channel they may, and stops its room (the store's
// file closed and opened again, as a server restart does) twice: in the
// middle of the game, once a player is dead and the mafia and the dead
// have talked, and after the end. After each restart a new connection of
// every seat and a spectator gets exactly the replay it got before (the
// same frames, byte for byte, but a mafia line's time after the end, which
// is when it was posted, not its tick), and that replay is the last lines
// the seat may read by replayRule.
func TestChatSurvivesARestartAndIsReplayedByTheSameRules(t *testing.T) {
	const players = 7
	f := newFixture(t, settings(t, players, fastTimings), func(c *room.Config) { c.NightTick = tick })
	cs := f.fillWithPeople(players)
	host := f.hostClient()
	watcher := f.attach("")
	var lines []said
	n := 0
	// post has seat's client say a line in channel, and keeps it with its
	// frame as the watcher (town) or the sender (mafia, dead) reads it.
	post := func(c *client, channel string) {
		t.Helper()
		n++
		text := fmt.Sprintf("%s line %d from %d", channel, n, c.seat)
		reader := c
		if channel == "town" {
			reader = watcher
		}
		mark := len(reader.frames)
		c.must(chat(channel, text))
		if channel == "mafia" {
			f.advance(tick) // its tick
		}
		reader.drain()
		var frame []byte
		for _, fr := range reader.frames[mark:] {
			if fr.msg.Type == "chat" && fr.msg.Text == text {
				frame = bytes.TrimRight(fr.raw, " ")
			}
		}
		if frame == nil {
			t.Fatalf("%q did not reach seat %d", text, reader.seat)
		}
		lines = append(lines, said{channel: channel, from: c.seat, text: text, frame: frame})
	}
	tokens := func() []string {
		ts := []string{""}
		for s := 1; s <= players; s++ {
			ts = append(ts, f.tokens[s])
		}
		return ts
	}
	// check compares each seat's replay now with before (if any) and with
	// the rule, and returns it.
	check := func(where string, before map[int][][]byte) map[int][][]byte {
		t.Helper()
		g := f.replay()
		got := map[int][][]byte{}
		for seat, tok := range tokens() {
			got[seat] = replayed(f, tok)
			var want []said
			for _, l := range lines {
				if replayRule(g, l.channel, seat) {
					want = append(want, l)
				}
			}
			want = want[max(0, len(want)-32):]
			if len(got[seat]) != len(want) {
				t.Fatalf("%s: seat %d is replayed %d lines, want %d", where, seat, len(got[seat]), len(want))
			}
			for i, l := range want {
				fr, err := decodeFrame(got[seat][i])
				if err != nil {
					t.Fatal(err)
				}
				m := fr.msg
				if m.Channel != l.channel || m.From != l.from || m.Text != l.text || m.Name != fmt.Sprintf("player %d", l.from) {
					t.Fatalf("%s: seat %d's replayed line %d is %s/%d %q, want %s/%d %q", where, seat, i,
						m.Channel, m.From, m.Text, l.channel, l.from, l.text)
				}
				if l.channel != "mafia" && !bytes.Equal(got[seat][i], l.frame) {
					t.Fatalf("%s: seat %d's replayed line %d is\n%s\nwas sent as\n%s", where, seat, i, got[seat][i], l.frame)
				}
			}
			if before == nil {
				continue
			}
			for i := range before[seat] {
				b, a := before[seat][i], got[seat][i]
				if fb, _ := decodeFrame(b); fb.msg.Channel == "mafia" {
					continue // checked above, but for its time
				}
				if !bytes.Equal(a, b) {
					t.Fatalf("%s: seat %d's replay line %d differs from before the restart:\n%s\n%s", where, seat, i, a, b)
				}
			}
		}
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

	for s := 1; s <= players; s++ {
		post(cs[s], "town")
	}
	host.must(hostAction("start", 0))
	roles := f.truth()
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
			watcher = f.attach("")
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
	t.Logf("lines said: %d (%v)", len(lines), count)
}

// fullChatStore is the fixture's real store, whose chat is full.
type fullChatStore struct{ *sqlite.DB }

func (fullChatStore) AppendChat(context.Context, string, store.ChatLine) error {
	return fmt.Errorf("full: %w", store.ErrChatFull)
}

// TestChatPastTheStoresCapIsRefusedAndReadByNobody: a line the store
// refuses as full is refused with chat_full (N: the cap), and no
// connection is sent it, nor replayed it later.
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
}
