package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// TestReconnect_MidGameGetsExactlyWhatItMissed: a seat drops its connection
// as its day-1 speech begins; the game goes on without it (the speech, and
// what follows, pass on the clock); it comes back with its token and
// ?since= and gets its full view and exactly the events it missed; a
// reconnect with since=0 gets all of them again.
func TestReconnect_MidGameGetsExactlyWhatItMissed(t *testing.T) {
	ts := startServer(t, "")
	ctx := within(t, 60*time.Second)
	timings := map[string]int64{"speech": 600, "defence": 300, "tie_speech": 300, "last_words": 300, "night": 200, "vote": 600}
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "reconnect", Players: 7, TimingsMS: timings}, seatsUpTo(7), 3)
	spectator := newPlayer(ts.api.Base, tb.id, "", 0, 0)
	for _, p := range append([]*player{spectator}, tb.players...) {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := tb.players[0].call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}

	// The first seat after the host to get the floor drops at once.
	var dropSeat atomic.Int64
	dropped := make(chan int, 1) // the events the seat had
	for _, p := range tb.players[1:] {
		p.hold = func(p *player) bool {
			if p.view.Phase == "speech" && p.view.Speaker == p.seat && dropSeat.CompareAndSwap(0, int64(p.seat)) {
				p.c.close()
				dropped <- len(p.events)
				return true
			}
			return false
		}
	}
	// The spectator tells when the dropped seat's speech has passed and the
	// day has gone on to a vote or the night.
	movedOn := make(chan struct{})
	told := false
	spectator.onFrame = func(p *player, _ wire.ServerMessage) {
		d := int(dropSeat.Load())
		if d == 0 || told {
			return
		}
		spoke := -1
		for i, e := range p.events {
			if e.Kind == "speech" && e.Target == d && spoke < 0 {
				spoke = i
			}
			if spoke >= 0 && (e.Kind == "vote_closed" || e.Kind == "night_began" || e.Kind == "game_ended") {
				close(movedOn)
				told = true
				return
			}
		}
	}
	others := playAll(ctx, tb.players)
	spect := playAll(ctx, []*player{spectator})
	var since int
	select {
	case since = <-dropped:
	case err := <-others.done:
		t.Fatalf("the game ended with no speech after the host's: %v", err)
	}
	d := int(dropSeat.Load())
	gone := tb.players[d-1]
	before := append([]wire.Event(nil), gone.events...)
	role := gone.view.Role
	select {
	case <-movedOn:
	case <-ctx.Done():
		t.Fatal("the game did not go on without the dropped seat")
	}
	<-gone.stopped // its old connection's loop has returned

	w, err := gone.connect(ctx)
	if err != nil {
		t.Fatalf("seat %d: reconnect with since=%d: %v", d, since, err)
	}
	if gone.seqErr != nil {
		t.Fatal(gone.seqErr)
	}
	missed := w.Events
	t.Logf("seat %d (%s) dropped after %d events and missed %d", d, role, since, len(missed))
	if w.View == nil || w.View.Seat != d || w.View.Role != role || w.Lobby == nil {
		t.Fatalf("the welcome back is not seat %d's full view: %s", d, js(w))
	}
	// It left as its speech began, and came back to a later step.
	var last wire.Event
	for _, e := range before {
		if stepStarts[e.Kind] {
			last = e
		}
	}
	passed := false
	for _, e := range missed {
		passed = passed || stepStarts[e.Kind]
	}
	if last.Kind != "speech" || last.Target != d || !passed {
		t.Errorf("seat %d left in step %s and missed %s: its speech did not pass on the clock", d, js(last), js(missed))
	}
	// A fresh connection from scratch has the same events, in the same places.
	fresh := newPlayer(ts.api.Base, tb.id, gone.token, d, 0)
	if _, err := fresh.connect(ctx); err != nil {
		t.Fatal(err)
	}
	fresh.c.close()
	if len(fresh.events) < since+len(missed) {
		t.Fatalf("since=0 gives %d events, fewer than %d+%d", len(fresh.events), since, len(missed))
	}
	if err := sameEvents(before, fresh.events[:since]); err != nil {
		t.Errorf("since=0 vs the events before the drop: %v", err)
	}
	if err := sameEvents(missed, fresh.events[since:since+len(missed)]); err != nil {
		t.Errorf("since=%d vs since=0: %v", since, err)
	}

	// The seat plays on to the end with the others.
	gone.hold = nil
	back := playAll(ctx, []*player{gone})
	for _, r := range []playRun{others, spect, back} {
		if err := <-r.done; err != nil && !strings.Contains(err.Error(), fmt.Sprintf("seat %d:", d)) {
			t.Fatal(err)
		}
	}
	if !gone.ended() {
		t.Fatalf("seat %d did not see the end", d)
	}
	log, err := ts.db.Events(ctx, tb.id)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append([]*player{spectator}, tb.players...) {
		if p.seqErr != nil {
			t.Error(p.seqErr)
		}
		if p.view.Winner != spectator.view.Winner || p.view.Winner == "" {
			t.Errorf("seat %d saw winner %q, the spectator %q", p.seat, p.view.Winner, spectator.view.Winner)
		}
		if err := sameEvents(p.events, seatEvents(t, log, p.seat)); err != nil {
			t.Errorf("seat %d: events received vs the stored log: %v", p.seat, err)
		}
	}
}

// TestReconnect_TheJoinCookieIsTheWebSocketCredential: join sets an
// HttpOnly, SameSite cookie holding the seat's token; a WebSocket dialled
// with that cookie (and no token) is the seat, before and during the game
// and on a reconnect with ?since=.
func TestReconnect_TheJoinCookieIsTheWebSocketCredential(t *testing.T) {
	ts := startServer(t, "")
	ctx := within(t, 30*time.Second)
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "cookie", Players: 5, TimingsMS: longTimings}, []int{1}, 4)
	host := tb.players[0]

	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Jar: jar}
	req, err := http.NewRequestWithContext(ctx, "POST", ts.api.Base+"/api/tables/"+tb.id+"/join", strings.NewReader(`{"name":"cookie","seat":3}`))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var joined client.Joined
	err = json.NewDecoder(resp.Body).Decode(&joined)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || joined.Seat != 3 {
		t.Fatalf("join: %d %+v %v", resp.StatusCode, joined, err)
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "mafia_"+tb.id {
			cookie = c
		}
	}
	switch {
	case cookie == nil:
		t.Fatalf("join set no cookie for the table: %v", resp.Header["Set-Cookie"])
	case !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode && cookie.SameSite != http.SameSiteLaxMode:
		t.Errorf("the seat's cookie is not HttpOnly and SameSite: %s", cookie)
	case cookie.Value != joined.Token:
		t.Errorf("the cookie does not hold the seat's token")
	}

	// The cookie alone makes the WebSocket seat 3's.
	cp := newPlayer(ts.api.Base, tb.id, "", 3, 5)
	cp.opts = dialOpts{http: hc}
	w, err := cp.connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if w.Seat != 3 {
		t.Fatalf("a WebSocket with the join cookie is seat %d, want 3: %s", w.Seat, js(w))
	}
	// Without it, the same dial is a spectator.
	anon := newPlayer(ts.api.Base, tb.id, "", 0, 0)
	if w, err := anon.connect(ctx); err != nil || w.Seat != 0 {
		t.Fatalf("without the cookie: seat %d, %v", w.Seat, err)
	}
	anon.c.close()

	if _, err := host.connect(ctx); err != nil {
		t.Fatal(err)
	}
	if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "add_bots"}); err != nil {
		t.Fatal(err)
	}
	if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	if err := cp.untilPhase(ctx, "night"); err != nil {
		t.Fatal(err)
	}
	if cp.view.Seat != 3 || cp.view.Role == "" {
		t.Fatalf("the cookie seat's view: %s", js(cp.view))
	}
	role, since := cp.view.Role, len(cp.events)
	cp.c.close()
	// Back with the cookie and ?since=: the same seat, nothing repeated.
	w, err = cp.connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if cp.seqErr != nil {
		t.Fatal(cp.seqErr)
	}
	if w.View == nil || w.View.Seat != 3 || w.View.Role != role || w.Seq != since+len(w.Events) {
		t.Fatalf("reconnect by cookie with since=%d: %s", since, js(w))
	}
	cp.c.close()
	host.c.close()
}
