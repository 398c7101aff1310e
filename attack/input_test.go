package attack

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// raw sends a frame as it is and reads c up to the answer to id.
func raw(ctx context.Context, c *client.Conn, id int64, frame string) (wire.ServerMessage, error) {
	if err := c.SendRaw(ctx, []byte(frame)); err != nil {
		return wire.ServerMessage{}, err
	}
	return readUntil(ctx, c, id)
}

// TestAttack_WrappedNumbers (issue 17, item 14): numbers that would wrap
// if narrowed before their range is checked: a host's foul on seat 258,
// -254 or 2^32+1 (which once fouled seat 2 or named seat 1), a kick of
// 2^32+1, a move's target of 258, a join at such a seat, a step length or
// a bot delay of 2^58 ms (which once wrapped into a few seconds). Each is
// refused with its code, the sentence naming the number as it was sent,
// and changes nothing: no foul, no kick, no seat, no table. The host's
// game then plays to its end.
func TestAttack_WrappedNumbers(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	p := tg.newPlayer(ctx, t, "127.0.100.1")
	hc := from("127.0.101.1")
	asJSON := map[string]string{"Content-Type": "application/json"}
	wrap := fmt.Sprint(int64(1)<<58 + 5000) // ×10^6 ns wraps to 5 s
	for _, c := range []struct{ what, body, code, number string }{
		{"a speech of 2^58+5000 ms", `{"name":"x","players":5,"timings_ms":{"speech":` + wrap + `}}`, "bad_timing", wrap},
		{"a night of -1 ms", `{"name":"x","players":5,"timings_ms":{"night":-1}}`, "bad_timing", "-1"},
		{"a bot delay of 2^58+5000 ms", `{"name":"x","players":5,"bot_delay_ms":` + wrap + `}`, "bad_bot_delay", wrap},
	} {
		a := ask(ctx, t, hc, "POST", tg.base+"/api/tables", asJSON, c.body)
		if a.status != http.StatusBadRequest || a.code != c.code || !strings.Contains(a.message, c.number) {
			t.Errorf("create with %s: %d %s %q, want 400 %s naming %s", c.what, a.status, a.code, a.message, c.code, c.number)
		}
	}
	for _, seat := range []string{"258", "-254", "4294967297", "-4294967295"} {
		a := ask(ctx, t, hc, "POST", tg.base+"/api/tables/"+p.table+"/join", asJSON, `{"name":"wrapper","seat":`+seat+`}`)
		if a.status != http.StatusBadRequest || a.code != "no_such_seat" || !strings.Contains(a.message, seat) {
			t.Errorf("a join at seat %s: %d %s %q, want 400 no_such_seat naming it", seat, a.status, a.code, a.message)
		}
	}
	id := int64(1000)
	refused := func(when, frame, code, number string) {
		t.Helper()
		id++
		m, err := raw(ctx, p.conn, id, fmt.Sprintf(frame, id))
		if err != nil {
			t.Fatal(err)
		}
		if m.Type != "error" || m.Code != code || !strings.Contains(m.Message, number) {
			t.Errorf("%s, %s: %s %s %q, want %s naming %s", when, fmt.Sprintf(frame, id), m.Type, m.Code, m.Message, code, number)
		}
	}
	for _, n := range []string{"258", "-254", "4294967297"} {
		refused("in the lobby", `{"v":1,"type":"host","id":%d,"action":"kick","target":`+n+`}`, "no_such_seat", n)
	}
	// Past any integer the server reads: not a number of the protocol.
	refused("in the lobby", `{"v":1,"type":"host","id":%d,"action":"kick","target":18446744073709551617}`, "malformed", "")
	if l, err := (&client.API{Base: tg.base}).Table(ctx, p.table); err != nil || !l.Seats[0].Taken {
		t.Fatalf("after the kicks the host's seat 1 is free (%v)", err)
	}
	for _, a := range []string{"add_bots", "start"} {
		if m, err := roundTrip(ctx, p.conn, wire.ClientMessage{Type: "host", Action: a}); err != nil || m.Type != "reply" {
			t.Fatalf("%s: %+v %v", a, m, err)
		}
	}
	for _, n := range []string{"258", "-254", "4294967297", "-4294967294"} {
		refused("in the game", `{"v":1,"type":"host","id":%d,"action":"foul","target":`+n+`}`, "no_such_seat", n)
	}
	refused("at night", `{"v":1,"type":"command","id":%d,"verb":"kill","target":258}`, "no_such_seat", "258")
	refused("at night", `{"v":1,"type":"command","id":%d,"verb":"check","target":4294967298}`, "no_such_seat", "4294967298")
	if _, err := roundTrip(ctx, p.conn, wire.ClientMessage{Type: "ping"}); err != nil {
		t.Fatal(err)
	}
	for _, e := range p.conn.Events {
		if e.Kind == "fouled" {
			t.Errorf("a refused foul fouled seat %d", e.Target)
		}
	}
	for _, s := range p.conn.View.Seats {
		if s.Fouls != 0 {
			t.Errorf("seat %d has %d fouls after refused ones", s.Seat, s.Fouls)
		}
	}
	if err := p.finish(ctx, 5); err != nil {
		t.Fatal(err)
	}
}

// TestAttack_BentFrames (issue 17, item 15): frames and bodies that a
// lenient JSON decoder would bend into a message: keys in another case,
// keys given twice (the second "text" or "channel" winning), text that is
// not UTF-8, a lone surrogate, garbage or a second object after the
// message. On the WebSocket each is refused as malformed, answered by its
// id, and the chat line it carries reaches nobody (neither the seated host
// nor a spectator hears it; the same line spelt right, they do). Over
// HTTP each create or join body is 400 bad_request and makes no table and
// takes no seat. The host's game then plays.
func TestAttack_BentFrames(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	p := tg.newPlayer(ctx, t, "127.0.102.1")
	api := &client.API{Base: tg.base, HTTP: from("127.0.103.1")}
	j, err := api.Join(ctx, p.table, "Bender", 0, "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.Dial(ctx, p.table, j.Token, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	sc, err := (&client.API{Base: tg.base, HTTP: from("127.0.104.1")}).Dial(ctx, p.table, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.CloseNow()
	spy := &hearing{Conn: sc, name: "a spectator"}
	for i, frame := range []string{
		`{"v":1,"type":"chat","id":%d,"Channel":"town","text":"a key in upper case"}`,
		`{"V":1,"type":"chat","id":%d,"channel":"town","text":"v in upper case"}`,
		`{"v":1,"TYPE":"chat","type":"chat","id":%d,"channel":"town","text":"type twice"}`,
		`{"v":1,"type":"chat","id":%d,"channel":"town","text":"hidden","text":"shown"}`,
		`{"v":1,"type":"chat","id":%d,"channel":"dead","channel":"town","text":"channel twice"}`,
		`{"v":1,"type":"chat","id":%d,"channel":"town","text":"not UTF-8: ` + "\xff\xfe" + `"}`,
		`{"v":1,"type":"chat","id":%d,"channel":"town","text":"a lone surrogate \ud800"}`,
		`{"v":1,"type":"chat","id":%d,"channel":"town","text":"garbage after"} x`,
		`{"v":1,"type":"chat","id":%d,"channel":"town","text":"a second object"}{"v":1}`,
		`{"v":1,"type":"host","id":%d,"action":"kick","target":1,"Target":1}`,
	} {
		id := int64(100 + i)
		m, err := raw(ctx, c, id, fmt.Sprintf(frame, id))
		if err != nil {
			t.Fatal(err)
		}
		if m.Type != "error" || m.Code != "malformed" {
			t.Errorf("%q: %s %s, want malformed", fmt.Sprintf(frame, id), m.Type, m.Code)
		}
	}
	if _, err := spy.ask(ctx, wire.ClientMessage{Type: "ping"}); err != nil {
		t.Fatal(err)
	}
	host := &hearing{Conn: p.conn, name: "the host"}
	if _, err := host.ask(ctx, wire.ClientMessage{Type: "ping"}); err != nil {
		t.Fatal(err)
	}
	if len(spy.lines) != 0 || len(host.lines) != 0 {
		t.Errorf("the bent frames' lines were heard: by the spectator %d, by the host %d", len(spy.lines), len(host.lines))
	}
	if l, err := api.Table(ctx, p.table); err != nil || !l.Seats[0].Taken {
		t.Errorf("the host's seat after a bent kick: %+v %v", l.Seats, err)
	}
	// Spelt right, a line is heard (so the bent ones would have been).
	if m, err := roundTrip(ctx, c, wire.ClientMessage{Type: "chat", Channel: "town", Text: "spelt right"}); err != nil || m.Type != "reply" {
		t.Fatalf("a line spelt right: %+v %v", m, err)
	}
	if _, err := spy.ask(ctx, wire.ClientMessage{Type: "ping"}); err != nil {
		t.Fatal(err)
	}
	if len(spy.lines) != 1 {
		t.Errorf("the spectator heard %d lines of the one spelt right", len(spy.lines))
	}

	hc := from("127.0.105.1")
	asJSON := map[string]string{"Content-Type": "application/json"}
	for _, body := range []string{
		`{"Name":"upper case","players":5,"public":true}`,
		`{"name":"x","players":5,"PUBLIC":true}`,
		`{"name":"first","name":"second","players":5,"public":true}`,
		`{"name":"x","players":5,"players":11,"public":true}`,
		`{"name":"x","players":5,"public":true,"timings_ms":{"speech":100,"speech":60000}}`,
		`{"name":"x","players":5,"public":true,"options":{"foul_limit":"1","foul_limit":"4"}}`,
		`{"name":"not UTF-8 ` + "\xff" + `","players":5,"public":true}`,
		`{"name":"a lone surrogate \udc00","players":5,"public":true}`,
		`{"name":"x","players":5,"public":true} trailing`,
		`{"name":"x","players":5,"public":true}{"name":"y"}`,
	} {
		if a := ask(ctx, t, hc, "POST", tg.base+"/api/tables", asJSON, body); a.status != http.StatusBadRequest || a.code != "bad_request" {
			t.Errorf("create %q: %d %s, want 400 bad_request", body, a.status, a.code)
		}
	}
	for _, body := range []string{
		`{"Name":"Nino"}`,
		`{"name":"Nino","name":"Giorgi"}`,
		`{"name":"Nino","seat":3,"seat":4}`,
		`{"name":"` + "\xc3" + `"}`,
		`{"name":"Nino"} {}`,
	} {
		if a := ask(ctx, t, hc, "POST", tg.base+"/api/tables/"+p.table+"/join", asJSON, body); a.status != http.StatusBadRequest || a.code != "bad_request" {
			t.Errorf("join %q: %d %s, want 400 bad_request", body, a.status, a.code)
		}
	}
	list, err := api.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 {
		t.Errorf("%d public tables after the bent creates, want the host's alone", len(list))
	}
	if l, err := api.Table(ctx, p.table); err == nil {
		taken := 0
		for _, s := range l.Seats {
			if s.Taken {
				taken++
			}
		}
		if taken != 2 {
			t.Errorf("%d seats taken after the bent joins, want 2", taken)
		}
	}
	if err := leave(ctx, tg.base, p.table, j.Token); err != nil {
		t.Fatal(err)
	}
	p.play(ctx, t)
}

// TestAttack_LateVoteInTheRevote (issue 17, item 16): an attacker holding
// every seat of a small table (the host's and three more) steers day 1
// into a tie: two candidates, two votes each, one seat's counted for the
// last candidate because it has not voted when the clock closes the vote.
// That seat's vote then arrives, naming the vote's step, during the
// revote: it is refused with stale_step and never counted there (the
// revote's ballot counts that seat, which does not vote again, for the
// last candidate, as everyone who does not vote). A real player elsewhere
// plays meanwhile.
func TestAttack_LateVoteInTheRevote(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	wait := tg.playsMeanwhile(ctx, t, "127.0.106.9")
	hc := from("127.0.106.1")
	long := int64(3600000)
	created := tg.createSetup(ctx, t, hc, fmt.Sprintf(`{"name":"late vote","setup":{"mafia":1,"citizens":3},`+
		`"timings_ms":{"night":100,"vote":1000,"speech":%d,"defence":%d,"tie_speech":%d,"last_words":%d}}`, long, long, long, long))
	seats := []*client.Conn{nil}
	for s := 1; s <= 4; s++ {
		tok := ""
		if s == 1 {
			tok = created.HostToken
		}
		api := &client.API{Base: tg.base, HTTP: hc}
		if s == 4 { // the host's seat counts among its address's three
			api.HTTP = from("127.0.106.2")
		}
		c := sit(ctx, t, api, created.Table, fmt.Sprintf("Seat %d", s), s, tok)
		seats = append(seats, c)
	}
	host := seats[1]
	if m, err := roundTrip(ctx, host, wire.ClientMessage{Type: "host", Action: "start"}); err != nil || m.Type != "reply" {
		t.Fatalf("start: %+v %v", m, err)
	}
	// reach reads c until its view is at step (or past it).
	reach := func(c *client.Conn, step int) {
		t.Helper()
		for c.View == nil || c.View.Step < step {
			if _, err := c.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	act := func(c *client.Conn, m wire.ClientMessage) {
		t.Helper()
		if got, err := roundTrip(ctx, c, m); err != nil || got.Type != "reply" {
			t.Fatalf("seat %d's %s %d: %+v %v", c.Seat, m.Verb, m.Target, got, err)
		}
	}
	var late *client.Conn
	voteStep, step := 0, 0
	for step < 100 {
		reach(host, step+1)
		v := host.View
		step = v.Step
		switch v.Phase {
		case "speech", "defence", "tie_speech":
			sp := seats[v.Speaker]
			reach(sp, step)
			if v.Phase == "speech" && len(sp.View.Legal.Nominate) > 0 && len(sp.View.Candidates) < 2 {
				act(sp, wire.ClientMessage{Type: "command", Verb: "nominate", Target: sp.View.Legal.Nominate[0], Step: step})
			}
			act(sp, wire.ClientMessage{Type: "command", Verb: "pass", Step: step})
		case "vote":
			if len(v.Candidates) != 2 {
				t.Fatalf("the vote is on %v, want two candidates", v.Candidates)
			}
			a, b := v.Candidates[0], v.Candidates[1]
			var others []int
			for s := 1; s <= 4; s++ {
				if s != a && s != b && late == nil {
					late = seats[s] // its vote will come too late
				} else {
					others = append(others, s)
				}
			}
			voteStep = step
			for i, s := range others { // a, a, b: with the late seat's counted for b, a tie
				reach(seats[s], step)
				act(seats[s], wire.ClientMessage{Type: "command", Verb: "vote", Target: []int{a, a, b}[i], Step: step})
			}
		case "revote":
			reach(late, step)
			m, err := roundTrip(ctx, late, wire.ClientMessage{Type: "command", Verb: "vote", Target: v.Candidates[0], Step: voteStep})
			if err != nil {
				t.Fatal(err)
			}
			if m.Type != "error" || m.Code != "stale_step" {
				t.Errorf("the vote for step %d, in the revote (step %d): %s %s, want stale_step", voteStep, step, m.Type, m.Code)
			}
			// Nobody votes: the revote closes by the clock.
			for host.View.Step == step {
				if _, err := host.Read(ctx); err != nil {
					t.Fatal(err)
				}
			}
			for _, e := range host.Events {
				if e.Kind == "vote_closed" && e.Phase == "revote" {
					last := v.Candidates[len(v.Candidates)-1]
					if got := e.Ballot[late.Seat-1]; got != last {
						t.Errorf("the revote counted seat %d for %d: its late vote was taken (it did not vote again: want %d)", late.Seat, got, last)
					}
					wait()
					return
				}
			}
			t.Fatalf("no revote closed in %+v", host.Events)
		case "ended":
			t.Fatalf("the game ended before the revote")
		}
	}
	t.Fatal("no revote")
}
