package server

import (
	"context"
	"net/url"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/club"
	"mafia/engine"
	"mafia/locale"
	"mafia/wire"
)

// nightKilling plays night 1 of a table of people: the mafia kill the
// lowest seat they may, everyone else who may act skips; it returns that
// seat once every player's view is in its last words.
func nightKilling(ctx context.Context, t *testing.T, ps []*player) int {
	t.Helper()
	victim := 0
	for _, p := range ps {
		if err := p.untilPhase(ctx, "night"); err != nil {
			t.Fatal(err)
		}
		if k := p.view.Legal.Kill; len(k) > 0 && (victim == 0 || k[0] < victim) {
			victim = k[0]
		}
	}
	if victim == 0 {
		t.Fatal("nobody may kill on night 1")
	}
	for _, p := range ps {
		l := p.view.Legal
		if len(l.Kill) > 0 {
			if err := p.call(ctx, wire.ClientMessage{Type: "command", Verb: "kill", Target: victim}); err != nil {
				t.Fatalf("seat %d's kill: %v", p.seat, err)
			}
			if p.view.Role != "don" {
				continue
			}
		}
		if l.Skip {
			if err := p.call(ctx, wire.ClientMessage{Type: "command", Verb: "skip"}); err != nil {
				t.Fatalf("seat %d's skip: %v", p.seat, err)
			}
		}
	}
	for _, p := range ps {
		if err := p.untilPhase(ctx, "last_words"); err != nil {
			t.Fatal(err)
		}
		if p.view.Speaker != victim {
			t.Fatalf("seat %d: the last words are seat %d's, want the victim %d's", p.seat, p.view.Speaker, victim)
		}
	}
	return victim
}

// TestBestMove_TheFirstVictimsOverARealWebSocket: on a real server over
// loopback, with real WebSocket clients, the first night's victim is
// offered the best move in their last words (nobody else is), another
// seat's is refused (not_speaker), a guess of a seat twice is refused
// (bad_guess, in Georgian on a Georgian connection), the best move is
// announced to every seat and a spectator as a statement with its three
// seats and kept in their talk, a second one is refused (best_move_made),
// and once the game is over the club's reading of the table holds the best
// move and the table's rules code.
func TestBestMove_TheFirstVictimsOverARealWebSocket(t *testing.T) {
	t.Parallel() // about 25 s, most of it waiting for its 8-second nights and 3-second votes on the wall clock; its own server, every seat read as it plays (main_test.go)
	ts := startServerWith(t, "", localized)
	ctx := within(t, 180*time.Second)
	// Every night lasts its time whoever acts (the night's ticks): long
	// enough for the kills on a loaded machine, short enough for a game.
	timings := map[string]int64{}
	for k, v := range longTimings {
		timings[k] = v
	}
	timings["night"] = 8000
	// A vote lasts its time too: the random players of playAll may vote for
	// nobody (a legal choice), and a seat that chose so after the last vote
	// cast hears nothing more until the vote's time is out; at an hour the
	// game stood still (the test's 180 s ran out in a revote under load, when
	// the night's ticks had given the seats other views and so other choices).
	timings["vote"] = 3000
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "best move", Players: 7, TimingsMS: timings}, seatsUpTo(7), 29)
	for _, p := range tb.players {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	spect := newPlayer(ts.api.Base, tb.id, "", 0, 0)
	if _, err := spect.connect(ctx); err != nil {
		t.Fatal(err)
	}
	if err := tb.players[0].call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	v := nightKilling(ctx, t, tb.players)
	if err := spect.untilPhase(ctx, "last_words"); err != nil {
		t.Fatal(err)
	}
	victim := tb.players[v-1]
	for _, p := range tb.players {
		if p.view.Legal.BestMove != (p == victim) {
			t.Errorf("seat %d's legal offers the best move: %v", p.seat, p.view.Legal.BestMove)
		}
	}
	var guess []int
	for s := 1; len(guess) < 3; s++ {
		if s != v {
			guess = append(guess, s)
		}
	}
	other := tb.players[v%7]
	err := other.call(ctx, wire.ClientMessage{Type: "command", Verb: "best_move", Guess: guess})
	if ce, ok := err.(*client.Error); !ok || ce.Code != "not_speaker" {
		t.Errorf("another seat's best move: %v, want not_speaker", err)
	}

	ka, _, err := dialWS(ctx, ts.api.Base, tb.id, victim.token, 0, dialOpts{query: url.Values{"lang": {"ka"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ka.close()
	if _, m, err := ka.read(ctx); err != nil || m.Type != "welcome" {
		t.Fatalf("ka: %v %+v", err, m)
	}
	before := logLen(ctx, t, ts, tb.id)
	for i, f := range []struct {
		frame, code string
	}{
		{`{"v":1,"type":"command","id":7,"verb":"best_move","guess":[1,1,2]}`, "bad_guess"},
		{`{"v":1,"type":"command","id":8,"verb":"best_move","guess":[21,1,2]}`, "bad_guess"},
		{`{"v":1,"type":"command","id":9,"verb":"best_move"}`, "bad_guess"},
	} {
		if err := ka.sendRaw(ctx, websocket.MessageText, []byte(f.frame)); err != nil {
			t.Fatal(err)
		}
		m := expectError(ctx, t, f.frame, ka, f.code, int64(7+i))
		if want := locale.New(locale.Ka).Refusal(&engine.Error{Code: engine.Code(f.code)}); m.Message != want {
			t.Errorf("%s in Georgian: %q, want %q", f.code, m.Message, want)
		}
	}
	if n := logLen(ctx, t, ts, tb.id); n != before {
		t.Fatalf("refused best moves moved the log from %d to %d events", before, n)
	}

	if err := victim.call(ctx, wire.ClientMessage{Type: "command", Verb: "best_move", Guess: []int{guess[2], guess[0], guess[1]}}); err != nil {
		t.Fatalf("the victim's best move: %v", err)
	}
	want := wire.Statement{By: v, Phase: "last_words", Verb: "best_move", Guess: guess}
	for _, p := range append(tb.players, spect) {
		for len(p.events) == 0 || p.events[len(p.events)-1].Kind != "statement" || p.view.Talk == nil {
			data, m, err := p.c.read(ctx)
			if err != nil {
				t.Fatalf("seat %d waiting for the best move: %v", p.seat, err)
			}
			p.absorb(data, m)
		}
		e := p.events[len(p.events)-1]
		if e.Actor != v || e.Verb != "best_move" || !slices.Equal(e.Seats, guess) || e.Phase != "last_words" {
			t.Errorf("seat %d's event %+v, want seat %d's best move %v", p.seat, e, v, guess)
		}
		talk := p.view.Talk
		if len(talk) != 1 || len(talk[0].Statements) != 1 || !reflect.DeepEqual(talk[0].Statements[0], want) {
			t.Errorf("seat %d's talk %+v, want %+v", p.seat, talk, want)
		}
	}
	if victim.view.Legal.BestMove {
		t.Error("the victim is offered a second best move")
	}
	if err := ka.sendRaw(ctx, websocket.MessageText, []byte(`{"v":1,"type":"command","id":11,"verb":"best_move","guess":[1,2,3]}`)); err != nil {
		t.Fatal(err)
	}
	expectError(ctx, t, "a second best move", ka, "best_move_made", 11)
	ka.close()

	run := playAll(ctx, append(tb.players, spect))
	if err := <-run.done; err != nil {
		t.Fatal(err)
	}
	g, ok := ts.srv.ClubGame(ctx, tb.id)
	if !ok {
		t.Fatal("the finished table is no club game")
	}
	if g.BestMove == nil || !reflect.DeepEqual(*g.BestMove, club.BestMove{Seat: v, Guess: guess}) {
		t.Errorf("the club's game has best move %+v, want seat %d's %v", g.BestMove, v, guess)
	}
	if g.Rules != engine.RulesCode(engine.DefaultRules()) {
		t.Errorf("the club's game has rules code %q, want %q", g.Rules, engine.RulesCode(engine.DefaultRules()))
	}
}
