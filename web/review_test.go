package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"mafia/engine"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

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
	ts := webtest.StartServer(t)
	for _, public := range []bool{false, true} {
		t.Run(map[bool]string{false: "private", true: "public"}[public], func(t *testing.T) { reviewSecrets(t, ts, public) })
	}
}

func reviewSecrets(t *testing.T, ts *webtest.TestServer, public bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	rt := webtest.NewReviewTable(ctx, t, ts, "Secrets", public)
	rt.Watch(ctx)
	evs, _ := ts.DB.Events(ctx, rt.ID)
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
	}{{"an outsider", "", ""}, {"the host's seat", rt.Host, own}, {"a stranger's token", "0123456789abcdef0123456789abcdef0123456789abcdef", ""}} {
		for _, path := range reviewURLs(rt.ID) {
			status, body := rt.Fetch(ctx, path, who.token)
			if leak := secretIn(body, seed, who.own); leak != "" {
				t.Errorf("before the end, %s, GET %s (%d) shows %s: %.300s", who.name, path, status, leak, body)
			}
			if strings.Contains(path, "/record") {
				want := map[bool]int{true: 409, false: 403}[who.token == rt.Host || public]
				if status != want {
					t.Errorf("before the end, %s, GET %s: %d, want %d", who.name, path, status, want)
				}
			}
		}
	}
	rt.Leave()
	log := rt.WaitEnd(ctx)
	// The store has the end before any socket is sent it: wait for the
	// spectator's frame of it (what follows says so if it never comes).
	for until := time.Now().Add(10 * time.Second); time.Now().Before(until); time.Sleep(50 * time.Millisecond) {
		rt.Frame.Lock()
		ended := slices.ContainsFunc(rt.Frame.Spectator, func(f []byte) bool { return bytes.Contains(f, []byte(`"game_ended"`)) })
		rt.Frame.Unlock()
		if ended {
			break
		}
	}
	rt.Frame.Lock()
	spectator, host := rt.Frame.Spectator, rt.Frame.Host
	rt.Frame.Unlock()
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
	status, body := rt.Fetch(ctx, "/api/tables/"+rt.ID+"/record", rt.Host)
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
	if len(rec.Events) != len(log) || rec.Name != "Secrets" || rec.Public != public || len(rec.Seats) != webtest.ReviewPlayers {
		t.Fatalf("record: %d events of %d, name %q, public %v, %d seats", len(rec.Events), len(log), rec.Name, rec.Public, len(rec.Seats))
	}
	night := 0
	for i, e := range log {
		want := wire.FromEvent(e, webtest.ReviewPlayers)
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
	for s := 1; s <= webtest.ReviewPlayers; s++ {
		if got := rec.Events[0].Roles[s-1]; got != g.Role(engine.Seat(s)).String() {
			t.Errorf("the record's card of seat %d: %q, the deal's %s", s, got, g.Role(engine.Seat(s)))
		}
	}
	if !slices.ContainsFunc(rec.Chat, func(l struct {
		Channel, Text string
		From          int
	}) bool {
		return l.Channel == "town" && l.Text == rt.Said && l.From == 1
	}) {
		t.Errorf("the record's chat lacks the host's line: %+v", rec.Chat)
	}
	// The scan sees them, too: it would have caught the record early.
	if leak := secretIn(body, seed, own); leak == "" {
		t.Error("the scan finds no secret in the whole record: it would miss a leak")
	}
	for _, tok := range []string{"", "0123456789abcdef0123456789abcdef0123456789abcdef"} {
		status, other := rt.Fetch(ctx, "/api/tables/"+rt.ID+"/record", tok)
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
		for _, path := range reviewURLs(rt.ID) {
			if status, other := rt.Fetch(ctx, path, tok); !public && secretIn(other, seed, "") != "" {
				t.Errorf("after the end, an outsider's GET %s (%d) of a private table shows %s: %.300s", path, status, secretIn(other, seed, ""), other)
			}
		}
	}
}
