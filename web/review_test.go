package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mafia/client"
	"mafia/engine"
	"mafia/wire"
)

// A game for the review: seat 1 is a person played from Go (the host,
// "Nino"), the other seats the server's smart bots (instant pace: they talk,
// in statements). The host says
// a line in the lobby, starts the game and stays at the table, idle, so
// that the game goes on as long as the test wants (the host's speech holds
// the floor); once the host leaves, a stand-in bot plays the seat (after 1
// ms) and the game runs to its end.
type reviewTable struct {
	t     *testing.T
	ts    *testServer
	api   *client.API
	id    string
	host  string // the host's token (seat 1's)
	conn  *client.Conn
	said  string // the host's line in the lobby
	frame struct {
		sync.Mutex
		host, spectator [][]byte // every WebSocket frame each was sent
	}
}

// maxDeals bounds the deals a test makes until one gives it its case: a
// test never skips for a deal that missed it, it deals again (the server
// deals from a random seed of its own).
const maxDeals = 40

// reviewPlayers is the review game's size: a preset with a Don, a
// mafioso, a Detective and a Doctor.
const reviewPlayers = 7

// newReviewTable makes the review's game, held at the host's first
// speech: day 1's speeches come before any vote, so a host alive in the
// morning holds the floor before the game can end. A deal whose night 1
// kills the host is played away and another table made (about one deal
// in seven; maxDeals of them in a row, less than once in 10^30 runs).
func newReviewTable(ctx context.Context, t *testing.T, ts *testServer, name string, public bool) *reviewTable {
	t.Helper()
	for try := 1; ; try++ {
		rt := tryReviewTable(ctx, t, ts, name, public)
		evs, _ := ts.db.Events(ctx, rt.id)
		if !slices.ContainsFunc(evs, func(e engine.Event) bool { return e.Kind == engine.EvPlayerOut && e.Target == 1 }) {
			return rt
		}
		rt.leave()
		if try == maxDeals {
			t.Fatalf("%d deals in a row killed the host on night 1", maxDeals)
		}
	}
}

func tryReviewTable(ctx context.Context, t *testing.T, ts *testServer, name string, public bool) *reviewTable {
	t.Helper()
	rt := &reviewTable{t: t, ts: ts, said: "Hello, town: a good game to all"}
	rt.api = &client.API{Base: ts.URL}
	standIn := int64(1)
	created, err := rt.api.Create(ctx, client.CreateRequest{Name: name, Players: reviewPlayers, Public: public, Bots: "smart",
		Options:   map[string]string{"reveal_on_death": "none"},
		TimingsMS: map[string]int64{"night": 150, "speech": 600_000, "defence": 1500, "tie_speech": 1500, "last_words": 1500, "vote": 1000},
		StandInMS: &standIn})
	if err != nil {
		t.Fatal(err)
	}
	rt.id, rt.host = created.Table, created.HostToken
	if _, err := rt.api.Join(ctx, rt.id, "Nino", 1, rt.host); err != nil {
		t.Fatal(err)
	}
	tap := *rt.api
	tap.Tap = func(_ *client.Conn, sent bool, frame []byte) {
		if !sent {
			rt.frame.Lock()
			rt.frame.host = append(rt.frame.host, bytes.Clone(frame))
			rt.frame.Unlock()
		}
	}
	if rt.conn, err = tap.Dial(ctx, rt.id, rt.host, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.conn.CloseNow() })
	go func() {
		for {
			if _, err := rt.conn.Read(ctx); err != nil {
				return
			}
		}
	}()
	for _, m := range []wire.ClientMessage{
		{Type: "chat", Channel: "town", Text: rt.said},
		{Type: "host", Action: "add_bots"},
		{Type: "host", Action: "start"},
	} {
		if _, err := rt.conn.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond) // one after the other, as a person's taps
	}
	// The game has started and night 1 is over (its actions are in the
	// log: secrets to keep until the end).
	rt.waitLog(ctx, func(evs []engine.Event) bool {
		return slices.ContainsFunc(evs, func(e engine.Event) bool { return e.Kind == engine.EvDayBegan })
	})
	return rt
}

// watch opens a spectator's WebSocket (no token) that keeps every frame.
func (rt *reviewTable) watch(ctx context.Context) {
	rt.t.Helper()
	tap := *rt.api
	tap.Tap = func(_ *client.Conn, sent bool, frame []byte) {
		if !sent {
			rt.frame.Lock()
			rt.frame.spectator = append(rt.frame.spectator, bytes.Clone(frame))
			rt.frame.Unlock()
		}
	}
	c, err := tap.Dial(ctx, rt.id, "", 0)
	if err != nil {
		rt.t.Fatal(err)
	}
	rt.t.Cleanup(func() { c.CloseNow() })
	go func() {
		for {
			if _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}()
}

// leave closes the host's connection: a stand-in plays the seat to the end.
func (rt *reviewTable) leave() { rt.conn.CloseNow() }

// claim waits for the host's first speech (it holds the floor: the host
// is idle and the speech is ten minutes) and says a statement on it, so
// that the game's record holds one whatever the bots choose to say.
func (rt *reviewTable) claim(ctx context.Context) {
	rt.t.Helper()
	rt.waitLog(ctx, func(evs []engine.Event) bool {
		return slices.ContainsFunc(evs, func(e engine.Event) bool { return e.Kind == engine.EvSpeech && e.Target == 1 })
	})
	if _, err := rt.conn.Send(ctx, wire.ClientMessage{Type: "command", Verb: "claim", Role: "detective"}); err != nil {
		rt.t.Fatal(err)
	}
	rt.waitLog(ctx, func(evs []engine.Event) bool {
		return slices.ContainsFunc(evs, func(e engine.Event) bool { return e.Kind == engine.EvStatement && e.Actor == 1 })
	})
}

// waitLog waits until the stored log satisfies cond, and returns it.
func (rt *reviewTable) waitLog(ctx context.Context, cond func([]engine.Event) bool) []engine.Event {
	rt.t.Helper()
	for {
		evs, err := rt.ts.db.Events(ctx, rt.id)
		if err == nil && cond(evs) {
			return evs
		}
		select {
		case <-ctx.Done():
			var last []string
			for _, e := range evs[max(0, len(evs)-6):] {
				last = append(last, fmt.Sprintf("%v(%d→%d)", e.Kind, e.Actor, e.Target))
			}
			rt.t.Fatalf("the log never got there: %d events, %v; the last %v", len(evs), err, last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// waitEnd waits for the end of the game and returns its log.
func (rt *reviewTable) waitEnd(ctx context.Context) []engine.Event {
	rt.t.Helper()
	return rt.waitLog(ctx, func(evs []engine.Event) bool {
		return len(evs) > 0 && evs[len(evs)-1].Kind == engine.EvGameEnded
	})
}

// fetch is one HTTP GET of the review's, as the page (or a person) asks
// it: with the seat's cookie when token is set.
func (rt *reviewTable) fetch(ctx context.Context, path, token string) (int, []byte) {
	rt.t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", rt.ts.URL+path, nil)
	if err != nil {
		rt.t.Fatal(err)
	}
	if token != "" {
		req.AddCookie(&http.Cookie{Name: "mafia_" + rt.id, Value: token})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		rt.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		rt.t.Fatal(err)
	}
	return resp.StatusCode, b
}

// reviewURLs are every URL the review's page reads (and the page itself,
// its QR code, the table's lobby it asks while the game goes on, and the
// game-over timeline's log).
func reviewURLs(id string) []string {
	q := "?qr=" + url.QueryEscape("http://127.0.0.1")
	return []string{"/t/" + id + "/review", "/t/" + id + "/review" + q, "/api/tables/" + id + "/record",
		"/api/tables/" + id + "/record?lang=ka", "/host/api/games/" + id + "/protocol.json", "/api/tables/" + id, "/api/tables/" + id + "/log"}
}

// nightKinds are the events of the night's secrets.
var nightKinds = map[string]bool{"mafia_chose": true, "checked": true, "healed": true, "shot": true, "skipped": true}

// secretIn returns what of the game's secrets a response shows to one who
// may know only own (the card of the seat whose response it is: "" for
// nobody's): a card of another seat (in "roles" or "role", a statement's
// claim aside), the deal's seed, a night's action or answer, a mafia
// line's text; "" when none.
func secretIn(body []byte, seed string, own string) string {
	if seed != "" && bytes.Contains(body, []byte(seed)) {
		return "the deal's seed"
	}
	var v any
	if json.Unmarshal(body, &v) != nil {
		return "" // the page, a QR code: no JSON, and no seed either
	}
	var found string
	var walk func(v any)
	walk = func(v any) {
		if found != "" {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			if k, _ := x["kind"].(string); nightKinds[k] {
				found = "a night action: " + k
				return
			}
			if x["kind"] == "statement" || x["verb"] != nil {
				return // a statement (an event, or the view's talk): what a player said, not a card
			}
			if ch, _ := x["channel"].(string); ch == "mafia" && x["text"] != nil {
				found = "a mafia line"
				return
			}
			for k, e := range x {
				switch k {
				case "bot":
					if _, line := x["channel"]; line {
						continue // a bot's line said aloud (its meaning): public speech, as a statement is
					}
					walk(e)
				case "roles":
					for _, r := range e.([]any) {
						if s, _ := r.(string); s != "" && s != own {
							found = "a card in roles: " + s
							return
						}
					}
				case "role", "team", "result":
					if s, _ := e.(string); s != "" && s != own && !(k == "team" && own != "" && s == teamOfRole(own)) {
						found = fmt.Sprintf("%s %q", k, s)
						return
					}
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return found
}

func teamOfRole(r string) string {
	switch r {
	case "don", "mafia":
		return "mafia"
	case "maniac":
		return "maniac"
	}
	return "town"
}

// TestReviewShowsNoSecretBeforeTheEndAndEveryOneAfter: every response of
// the review's URLs (HTTP), and every frame of the table's WebSocket (a
// spectator's, and the host's own), before the end shows no card of another seat, no night action or
// answer, no seed and no mafia line, to an outsider and to a player (the
// host, seat 1, whose own card is the only one it may see); once the game
// is over, the record the review reads holds every one of them: every
// card, every night action with its answer, the seed and the chat. A
// private table's record is its players' only, before and after; a public
// table's is anyone's after the end.
func TestReviewShowsNoSecretBeforeTheEndAndEveryOneAfter(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	for _, public := range []bool{false, true} {
		t.Run(map[bool]string{false: "private", true: "public"}[public], func(t *testing.T) { reviewSecrets(t, ts, public) })
	}
}

func reviewSecrets(t *testing.T, ts *testServer, public bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	rt := newReviewTable(ctx, t, ts, "Secrets", public)
	rt.watch(ctx)
	evs, _ := ts.db.Events(ctx, rt.id)
	g, err := engine.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	seed := fmt.Sprint(g.Seed())
	own := g.Role(1).String()
	if len(seed) < 6 {
		t.Fatalf("a seed too short to look for: %q", seed)
	}
	for _, who := range []struct {
		name, token, own string
	}{{"an outsider", "", ""}, {"the host's seat", rt.host, own}, {"a stranger's token", "0123456789abcdef0123456789abcdef0123456789abcdef", ""}} {
		for _, path := range reviewURLs(rt.id) {
			status, body := rt.fetch(ctx, path, who.token)
			if leak := secretIn(body, seed, who.own); leak != "" {
				t.Errorf("before the end, %s, GET %s (%d) shows %s: %.300s", who.name, path, status, leak, body)
			}
			if strings.Contains(path, "/record") {
				want := map[bool]int{true: 409, false: 403}[who.token == rt.host || public]
				if status != want {
					t.Errorf("before the end, %s, GET %s: %d, want %d", who.name, path, status, want)
				}
			}
		}
	}
	rt.leave()
	log := rt.waitEnd(ctx)
	// The store has the end before any socket is sent it: wait for the
	// spectator's frame of it (what follows says so if it never comes).
	for until := time.Now().Add(10 * time.Second); time.Now().Before(until); time.Sleep(50 * time.Millisecond) {
		rt.frame.Lock()
		ended := slices.ContainsFunc(rt.frame.spectator, func(f []byte) bool { return bytes.Contains(f, []byte(`"game_ended"`)) })
		rt.frame.Unlock()
		if ended {
			break
		}
	}
	rt.frame.Lock()
	spectator, host := rt.frame.spectator, rt.frame.host
	rt.frame.Unlock()
	scanFrames := func(who string, frames [][]byte, own string) {
		ended := false
		for i, f := range frames {
			if ended {
				break
			}
			var m wire.ServerMessage
			_ = json.Unmarshal(f, &m)
			for _, e := range m.Events {
				ended = ended || e.Kind == "game_ended"
			}
			if ended {
				break
			}
			if leak := secretIn(f, seed, own); leak != "" {
				t.Errorf("%s's WebSocket frame %d, before the end, shows %s: %.300s", who, i, leak, f)
			}
		}
		if !ended {
			t.Errorf("%s saw no end in %d frames", who, len(frames))
		}
	}
	scanFrames("the spectator", spectator, "")
	// The host's own frames until it left: its own card only. A mafioso
	// knows the partners, the Detective and the Don their answers, by
	// right: then the check is the spectator's alone.
	if r := g.Role(1); r == engine.Citizen || r == engine.Doctor {
		scanFrames("the host", append(host, []byte(`{"events":[{"kind":"game_ended"}]}`)), own)
	}

	// After the end: the record holds every secret, for the players; an
	// outsider of this private table still gets none of it.
	status, body := rt.fetch(ctx, "/api/tables/"+rt.id+"/record", rt.host)
	if status != 200 {
		t.Fatalf("the record after the end: %d %s", status, body)
	}
	var rec struct {
		Name   string
		Public bool
		Seats  []struct{ Seat int }
		Events []wire.Event
		Chat   []struct {
			Channel, Text string
			From          int
		}
	}
	if err := json.Unmarshal(body, &rec); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(body, []byte(`"seed":"`+seed+`"`)) && !bytes.Contains(body, []byte(`"seed":`+seed)) {
		t.Errorf("the record lacks the seed %s", seed)
	}
	if len(rec.Events) != len(log) || rec.Name != "Secrets" || rec.Public != public || len(rec.Seats) != reviewPlayers {
		t.Fatalf("record: %d events of %d, name %q, public %v, %d seats", len(rec.Events), len(log), rec.Name, rec.Public, len(rec.Seats))
	}
	night := 0
	for i, e := range log {
		want := wire.FromEvent(e, reviewPlayers)
		// Compared as JSON: an event's pointer fields (a vote's yes) print
		// as addresses, which differ between any two copies.
		a, _ := json.Marshal(rec.Events[i])
		b, _ := json.Marshal(want)
		if !bytes.Equal(a, b) {
			t.Errorf("record event %d: %s, the log's %s", i, a, b)
		}
		if nightKinds[want.Kind] {
			night++
		}
	}
	if night == 0 {
		t.Error("the game had no night action to find")
	}
	for s := 1; s <= reviewPlayers; s++ {
		if got := rec.Events[0].Roles[s-1]; got != g.Role(engine.Seat(s)).String() {
			t.Errorf("the record's card of seat %d: %q, the deal's %s", s, got, g.Role(engine.Seat(s)))
		}
	}
	if !slices.ContainsFunc(rec.Chat, func(l struct {
		Channel, Text string
		From          int
	}) bool {
		return l.Channel == "town" && l.Text == rt.said && l.From == 1
	}) {
		t.Errorf("the record's chat lacks the host's line: %+v", rec.Chat)
	}
	// The scan sees them, too: it would have caught the record early.
	if leak := secretIn(body, seed, own); leak == "" {
		t.Error("the scan finds no secret in the whole record: it would miss a leak")
	}
	for _, tok := range []string{"", "0123456789abcdef0123456789abcdef0123456789abcdef"} {
		status, other := rt.fetch(ctx, "/api/tables/"+rt.id+"/record", tok)
		switch {
		case public && (status != 200 || !bytes.Equal(other, body)):
			t.Errorf("after the end, the public record to token %q: %d, not the players' record", tok, status)
		case !public && status != 403:
			t.Errorf("after the end, the private record to token %q: %d, want 403", tok, status)
		case !public && secretIn(other, seed, "") != "":
			t.Errorf("after the end, the private record's refusal shows %s", secretIn(other, seed, ""))
		}
		// Nor does any other address the review or the game-over screen
		// reads (the log, the lobby, the assistant's protocol) show an
		// outsider a private table's finished game.
		for _, path := range reviewURLs(rt.id) {
			if status, other := rt.fetch(ctx, path, tok); !public && secretIn(other, seed, "") != "" {
				t.Errorf("after the end, an outsider's GET %s (%d) of a private table shows %s: %.300s", path, status, secretIn(other, seed, ""), other)
			}
		}
	}
}
