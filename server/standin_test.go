package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"mafia/client"
	"mafia/room"
	"mafia/store"
	"mafia/wire"
)

// watched is a player whose connection a goroutine of its own reads (every
// frame absorbed, and kept), so that the server never finds it slow while
// the test moves the clock; wait blocks until a condition on it holds.
type watched struct {
	*player
	mu      sync.Mutex
	msgs    []wire.ServerMessage
	changed chan struct{}
	done    chan error
}

// watch starts reading p's connection.
func watch(ctx context.Context, p *player) *watched {
	w := &watched{player: p, changed: make(chan struct{}, 1), done: make(chan error, 1)}
	go func() {
		for {
			data, m, err := p.c.read(ctx)
			if err != nil {
				w.done <- err
				w.signal()
				return
			}
			w.mu.Lock()
			p.absorb(data, m)
			w.msgs = append(w.msgs, m)
			w.mu.Unlock()
			w.signal()
		}
	}()
	return w
}

func (w *watched) signal() {
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// wait blocks until cond holds of what the connection has read (under its
// lock), failing the test when the connection or ctx ends first.
func (w *watched) wait(ctx context.Context, t *testing.T, what string, cond func() bool) {
	t.Helper()
	for {
		w.mu.Lock()
		ok := cond()
		w.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-w.changed:
		case err := <-w.done:
			w.done <- err
			w.mu.Lock()
			ok := cond()
			w.mu.Unlock()
			if !ok {
				t.Fatalf("seat %d, waiting for %s: %v", w.seat, what, err)
			}
			return
		case <-ctx.Done():
			t.Fatalf("seat %d, waiting for %s: %v", w.seat, what, ctx.Err())
		}
	}
}

// lobbyStandIns are the seats the latest lobby the connection read marks
// as played by a bot ("stand_in"), or nil before any lobby.
func (w *watched) lobbyStandIns() []int {
	for i := len(w.msgs) - 1; i >= 0; i-- {
		if l := w.msgs[i].Lobby; l != nil {
			out := []int{}
			for _, s := range l.Seats {
				if s.StandIn {
					out = append(out, s.Seat)
				}
			}
			return out
		}
	}
	return nil
}

// speakTurn is a seat's turn to speak as a connection was sent it: the
// frame that began it (its index among the connection's frames), when it
// began, its deadline, and when the next step began (0 while it goes on).
// A turn whose next step began before its deadline was ended by its seat.
type speakTurn struct {
	frame                int
	start, deadline, end int64
}

// speakTurns lists seat's turns to speak as the connection was sent them.
func (w *watched) speakTurns(seat int) (turns []speakTurn) {
	open := -1
	for i, m := range w.msgs {
		for _, e := range m.Events {
			if !stepStarts[e.Kind] && e.Kind != "game_ended" {
				continue
			}
			if open >= 0 {
				turns[open].end = m.Now
				open = -1
			}
			switch e.Kind {
			case "speech", "last_words", "defence", "tie_speech":
				if e.Target == seat {
					turns = append(turns, speakTurn{frame: i, start: m.Now, deadline: m.Deadline})
					open = len(turns) - 1
				}
			}
		}
	}
	return turns
}

// seatMoves are the kinds of events a seat's own command makes.
var seatMoves = map[string]bool{"nominated": true, "vote_cast": true, "all_vote_cast": true, "mafia_chose": true,
	"checked": true, "healed": true, "shot": true, "skipped": true}

// TestStandIn_ABotPlaysADroppedSeatUntilItsPersonIsBack: on a real server
// (its rooms on a fake clock), a person's real WebSocket closes as the
// game starts. After the table's grace period every connection is sent the
// seat as played by a bot, and the game goes on with that seat acting (its
// bot ends its turns to speak). The person reconnects with ?since= and gets
// exactly what they missed, the seat theirs again: everyone is sent the
// flag cleared, and no move is made for the seat to the end of the game.
func TestStandIn_ABotPlaysADroppedSeatUntilItsPersonIsBack(t *testing.T) {
	var clk *room.FakeClock
	ts := startServerWith(t, "", fakeClocked(&clk))
	ctx := within(t, 120*time.Second)
	grace := int64(2000)
	timings := map[string]int64{"speech": 6000, "defence": 3000, "tie_speech": 3000, "last_words": 6000, "night": 4000, "vote": 2000}
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "stand-in", Players: 7, TimingsMS: timings, StandInMS: &grace}, []int{1, 2}, 5)
	host, away := tb.players[0], tb.players[1]
	spectator := newPlayer(ts.api.Base, tb.id, "", 0, 0)
	for _, p := range []*player{host, away, spectator} {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []string{"add_bots", "start"} {
		if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	if l, err := ts.api.Table(ctx, tb.id); err != nil || l.StandInMS != grace {
		t.Fatalf("the lobby says stand-ins after %d ms (%v), want %d", l.StandInMS, err, grace)
	}
	// Seat 2 sees the game begin, and its connection drops.
	if err := away.readUntil(ctx, func(m wire.ServerMessage) bool { return m.View != nil && m.View.Phase == "night" }); err != nil {
		t.Fatal(err)
	}
	away.c.close()
	awaitGone(ctx, t, ts, tb.id, 2)
	since := len(away.events)
	h, sp := watch(ctx, host), watch(ctx, spectator)

	step := 100 * time.Millisecond
	advance := func(d time.Duration) {
		for ; d > 0; d -= step {
			clk.Advance(step)
			roundTrip(ctx, t, ts, tb.id)
		}
	}
	advance(time.Duration(grace)*time.Millisecond - step)
	if l, _ := ts.api.Table(ctx, tb.id); l.Seats[1].StandIn {
		t.Fatal("a bot stood in before the grace period was over")
	}
	advance(step)
	for _, w := range []*watched{h, sp} {
		w.wait(ctx, t, "seat 2 marked as played by a bot", func() bool { return fmt.Sprint(w.lobbyStandIns()) == "[2]" })
	}
	// The game goes on with seat 2 acting: its bot ends a turn of its to
	// speak (a speech, or last words) before the deadline.
	played := func() bool {
		for _, tn := range sp.speakTurns(2) {
			if tn.end != 0 && tn.end < tn.deadline {
				return true
			}
		}
		return false
	}
	for !func() bool { sp.mu.Lock(); defer sp.mu.Unlock(); return played() || spectator.ended() }() {
		advance(step)
	}
	sp.mu.Lock()
	ok := played()
	sp.mu.Unlock()
	if !ok {
		t.Fatal("the game ended without seat 2's bot ending a turn of its own to speak")
	}

	// The person is back, with ?since=: the seat is theirs at once.
	logAtReturn, err := ts.db.Events(ctx, tb.id)
	if err != nil {
		t.Fatal(err)
	}
	w, err := away.connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if away.seqErr != nil {
		t.Fatal(away.seqErr)
	}
	if len(away.events) < since || w.Lobby == nil || w.Lobby.Seats[1].StandIn || w.View == nil || w.View.Seat != 2 {
		t.Fatalf("the welcome back: %s", js(w))
	}
	if missed := len(away.events) - since; missed == 0 {
		t.Error("the welcome back carries none of the events missed")
	}
	for _, x := range []*watched{h, sp} {
		x.wait(ctx, t, "seat 2's flag cleared", func() bool { return fmt.Sprint(x.lobbyStandIns()) == "[]" })
	}
	back := watch(ctx, away)
	for !func() bool { sp.mu.Lock(); defer sp.mu.Unlock(); return spectator.ended() }() {
		advance(step)
	}
	back.wait(ctx, t, "the end", away.ended)

	// No move was made for seat 2 after its person came back: no event of
	// its in the log, and each of its turns to speak ran out on the clock.
	log, err := ts.db.Events(ctx, tb.id)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log[len(logAtReturn):] {
		if e.Actor == 2 && seatMoves[e.Kind.String()] {
			t.Errorf("seat 2 acted after its person came back: %s", e.Kind)
		}
	}
	sp.mu.Lock()
	turns := sp.speakTurns(2)
	sp.mu.Unlock()
	cleared := lastLobbyClear(sp)
	if cleared < 0 {
		t.Fatal("the spectator was never sent seat 2's flag cleared")
	}
	for _, tn := range turns {
		if tn.frame > cleared && tn.end != 0 && tn.end < tn.deadline {
			t.Errorf("seat 2's turn to speak from %d ended at %d, before its deadline %d, after its person came back", tn.start, tn.end, tn.deadline)
		}
	}
	for _, p := range []*player{host, away, spectator} {
		if p.seqErr != nil {
			t.Error(p.seqErr)
		}
	}
}

// lastLobbyClear is the index among the connection's frames of the first
// lobby with nobody marked as played by a bot after one that marked
// someone (-1: none): when the flags cleared.
func lastLobbyClear(w *watched) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	marked := false
	for i, m := range w.msgs {
		if m.Lobby == nil {
			continue
		}
		any := false
		for _, s := range m.Lobby.Seats {
			any = any || s.StandIn
		}
		if marked && !any {
			return i
		}
		marked = marked || any
	}
	return -1
}

// TestStandIn_TheGracePeriodIsRangeChecked: stand_in_ms is 0 (never) to
// 600 000, else refused with bad_stand_in in the asker's language, naming
// the number sent, and no table is made; absent, it is 20 s.
func TestStandIn_TheGracePeriodIsRangeChecked(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 30*time.Second)
	for _, c := range []struct {
		body string
		want int64
	}{
		{`{"name":"x","players":5}`, 20000},
		{`{"name":"x","players":5,"stand_in_ms":0}`, 0},
		{`{"name":"x","players":5,"stand_in_ms":600000}`, 600000},
	} {
		status, _, body := apiCall(ctx, t, ts.api.Base, "POST", "/api/tables", "", "", c.body)
		var created client.Created
		if err := json.Unmarshal(body, &created); err != nil || status != 201 || created.Lobby.StandInMS != c.want {
			t.Errorf("%s: %d %s, want the lobby's stand_in_ms %d", c.body, status, body, c.want)
		}
	}
	for _, v := range []string{"-1", "600001", "288230376151716744"} {
		for _, lang := range []string{"en", "ka", "ru"} {
			status, _, body := apiCall(ctx, t, ts.api.Base, "POST", "/api/tables", lang, "", `{"name":"x","players":5,"stand_in_ms":`+v+`}`)
			var e errorBody
			if err := json.Unmarshal(body, &e); err != nil || status != 400 || e.Error.Code != "bad_stand_in" {
				t.Errorf("stand_in_ms %s (%s): %d %s, want 400 bad_stand_in", v, lang, status, body)
				continue
			}
			if !strings.Contains(e.Error.Message, v) {
				t.Errorf("stand_in_ms %s (%s): %q does not name it", v, lang, e.Error.Message)
			}
			checkSentence(t, "stand_in_ms "+v, lang, e.Error.Code, e.Error.Message)
		}
	}
	if tables, err := ts.db.Tables(ctx, store.KindOnline, store.TableFilter{Status: store.StatusLobby}); err != nil || len(tables) != 3 {
		t.Errorf("%d tables in the lobby, want the three made (%v)", len(tables), err)
	}
}
