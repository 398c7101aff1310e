package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/engine"
	"mafia/wire"
)

// The finished game's two endpoints, GET /api/tables/{id}/log (the
// game-over timeline) and GET /api/tables/{id}/record (the game's review),
// follow one rule (Server.finishedGame): a private table's finished game is
// its players' and its host's only, a public table's anyone's once it has
// ended, and neither says anything before the end. A spectator who comes
// after the end of a private table does not read back its mafia's lines.

// TestFinishedGame_APrivateTablesLogAndRecordAreItsPlayersOnly: at a
// private table the log and the record are refused with bad_token (403, a
// sentence in ka, en and ru) to a request with no token, a made-up one,
// another table's seat token and another table's host token, in the lobby,
// during the game and after its end; with not_over (409), the same bytes
// for every seat's token and the host's, before the end; and given whole,
// the same to each of them, after it. No response before the end holds a
// secret, and a spectator who comes after the end does not read back the
// mafia's lines in its history pages (a seat's new connection does).
func TestFinishedGame_APrivateTablesLogAndRecordAreItsPlayersOnly(t *testing.T) {
	finishedGameRule(t, false)
}

// TestFinishedGame_APublicTablesLogAndRecordAreAnyonesAfterTheEnd: at a
// public table a stranger's request (any of the four above) is answered as
// a player's: not_over, byte for byte, before the end, the whole log and
// record after it; and a spectator after the end reads back every line,
// the mafia's too, as the record gives it.
func TestFinishedGame_APublicTablesLogAndRecordAreAnyonesAfterTheEnd(t *testing.T) {
	finishedGameRule(t, true)
}

// mafiaLine is what the test's mafioso says to the mafia at night 1;
// townLine what the host says to the table in the lobby.
const (
	mafiaLine = "the mafia's own line, for the mafia only"
	townLine  = "hello, table"
)

func finishedGameRule(t *testing.T, public bool) {
	ts := startServerWith(t, "", both(localized, func(c *Config) { c.Limits.Unlimited = loopback }))
	ctx := within(t, 120*time.Second)
	other, err := ts.api.Create(ctx, client.CreateRequest{Name: "elsewhere", Players: 5})
	if err != nil {
		t.Fatal(err)
	}
	otherSeat, err := ts.api.Join(ctx, other.Table, "a stranger", 2, "")
	if err != nil {
		t.Fatal(err)
	}
	strangers := []struct{ who, token string }{{"no token", ""}, {"a made-up token", "0123456789abcdef0123456789abcdef"},
		{"another table's seat token", otherSeat.Token}, {"another table's host token", other.HostToken}}
	// Night 1 outlasts the mafioso's line on a loaded machine (a 2 s
	// night ended before it under -race at a load of 30).
	timings := map[string]int64{"speech": 5000, "defence": 5000, "tie_speech": 5000, "last_words": 5000, "night": 8000, "vote": 400}
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "closed", Players: 5, TimingsMS: timings, Public: public},
		seatsUpTo(5), 11)
	players := []string{tb.host}
	for _, p := range tb.players {
		players = append(players, p.token)
	}
	paths := []string{"/api/tables/" + tb.id + "/log", "/api/tables/" + tb.id + "/record"}
	var seed string // the deal's, once dealt

	// beforeTheEnd checks every answer while the game is not over.
	beforeTheEnd := func(when string) {
		t.Helper()
		for _, path := range paths {
			for _, lang := range []string{"en", "ka", "ru"} {
				var mine []byte
				for i, tok := range players {
					status, _, body := apiCall(ctx, t, ts.api.Base, "GET", path, lang, tok, "")
					noSecret(t, fmt.Sprintf("%s, GET %s, player token %d", when, path, i), body, seed)
					if e := refusal(body); status != 409 || e.Error.Code != "not_over" {
						t.Errorf("%s, GET %s, player token %d: %d %s, want 409 not_over", when, path, i, status, body)
					} else {
						checkSentence(t, when, lang, e.Error.Code, e.Error.Message)
					}
					if mine == nil {
						mine = body
					} else if !bytes.Equal(body, mine) {
						t.Errorf("%s, GET %s: player token %d is refused with %s, the host with %s", when, path, i, body, mine)
					}
				}
				for _, s := range strangers {
					status, _, body := apiCall(ctx, t, ts.api.Base, "GET", path, lang, s.token, "")
					noSecret(t, fmt.Sprintf("%s, GET %s, %s", when, path, s.who), body, seed)
					strangerRefused(t, fmt.Sprintf("%s, GET %s, %s", when, path, s.who), lang, public, status, body, mine)
				}
			}
		}
		for _, path := range []string{"/api/tables/" + tb.id, "/api/tables"} {
			for _, tok := range append([]string{""}, players...) {
				status, _, body := apiCall(ctx, t, ts.api.Base, "GET", path, "", tok, "")
				if status != 200 {
					t.Errorf("%s, GET %s: %d %s", when, path, status, body)
				}
				noSecret(t, when+", GET "+path, body, seed)
			}
		}
	}

	beforeTheEnd("in the lobby")
	for _, p := range tb.players {
		p.keep = true
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	host := tb.players[0]
	if err := host.call(ctx, wire.ClientMessage{Type: "chat", Channel: "town", Text: townLine}); err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"start", "pause"} {
		if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	stored, err := ts.db.Events(ctx, tb.id)
	if err != nil || len(stored) == 0 || stored[0].Kind != engine.EvGameStarted {
		t.Fatalf("the deal: %v, %v", stored, err)
	}
	seed = strconv.FormatUint(stored[0].Seed, 10)
	mafioso := tb.players[slices.IndexFunc(tb.players, func(p *player) bool { return stored[0].RoleOf(engine.Seat(p.seat)).IsMafia() })]
	if err := mafioso.call(ctx, wire.ClientMessage{Type: "chat", Channel: "mafia", Text: mafiaLine}); err != nil {
		t.Fatalf("the mafioso at seat %d says a line at night 1: %v", mafioso.seat, err)
	}
	beforeTheEnd("on night 1")
	if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "resume"}); err != nil {
		t.Fatal(err)
	}
	if err := <-playAll(ctx, tb.players).done; err != nil {
		t.Fatal(err)
	}
	for _, p := range tb.players {
		for n, f := range p.frames {
			if bytes.Contains(f, []byte(`"game_ended"`)) {
				break
			}
			if regexp.MustCompile(`(^|[^0-9])` + seed + `([^0-9]|$)`).Match(f) {
				t.Errorf("seat %d's frame %d before the end holds the seed: %.300s", p.seat, n, f)
			}
		}
	}

	// After the end: the log and the record are the players' whole game.
	if stored, err = ts.db.Events(ctx, tb.id); err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		var mine []byte
		for i, tok := range players {
			status, _, body := apiCall(ctx, t, ts.api.Base, "GET", path, "en", tok, "")
			if status != 200 {
				t.Fatalf("after the end, GET %s, player token %d: %d %s", path, i, status, body)
			}
			if mine == nil {
				mine = body
			} else if !bytes.Equal(body, mine) {
				t.Errorf("after the end, GET %s: player token %d gets another answer", path, i)
			}
		}
		var got struct {
			Players int
			Events  []wire.Event
		}
		if err := json.Unmarshal(mine, &got); err != nil || got.Players != 5 || len(got.Events) != len(stored) {
			t.Fatalf("after the end, GET %s: %d players, %d events of %d (%v)", path, got.Players, len(got.Events), len(stored), err)
		}
		for i, e := range got.Events {
			if a, b := js(e), js(wire.FromEvent(stored[i], 5)); a != b {
				t.Errorf("GET %s: event %d is %s, the log's %s", path, i, a, b)
			}
		}
		if slices.Contains(got.Events[0].Roles, "") || got.Events[0].Seed != seed {
			t.Errorf("GET %s: the deal is not whole: %+v", path, got.Events[0])
		}
		for _, lang := range []string{"en", "ka", "ru"} {
			_, _, mineIn := apiCall(ctx, t, ts.api.Base, "GET", path, lang, tb.host, "")
			for _, s := range strangers {
				status, _, body := apiCall(ctx, t, ts.api.Base, "GET", path, lang, s.token, "")
				strangerRefused(t, fmt.Sprintf("after the end, GET %s, %s", path, s.who), lang, public, status, body, mineIn)
			}
		}
	}
	// The lobby of a finished game holds no card either, for anyone.
	for _, tok := range append([]string{""}, players...) {
		_, _, body := apiCall(ctx, t, ts.api.Base, "GET", "/api/tables/"+tb.id, "", tok, "")
		var l wire.Lobby
		if err := decodeStrict(body, &l); err != nil || l.Status != "ended" {
			t.Errorf("the finished game's lobby: %v, status %q: %s", err, l.Status, body)
		}
	}

	// A spectator who comes after the end, and a seat's new connection:
	// the spectator's welcome holds only what a spectator saw; each reads
	// back the chat so far in history pages, the mafia's line for the seat
	// (and at a public table for anyone), the town's line for both.
	spec := newPlayer(ts.api.Base, tb.id, "", 0, 1)
	if _, err := spec.connect(ctx); err != nil {
		t.Fatal(err)
	}
	spec.c.close()
	for _, e := range spec.events {
		if nightEvent[e.Kind] || e.Seed != "" || (e.Kind == "game_started" && strings.Join(e.Roles, "") != "") {
			t.Errorf("a spectator after the end is sent a secret event: %s", js(e))
		}
	}
	for _, late := range []struct {
		seat  int
		token string
	}{{0, ""}, {mafioso.seat, mafioso.token}} {
		back, _, err := readHistory(ctx, ts.api.Base, tb.id, late.token, 0)
		if err != nil {
			t.Fatal(err)
		}
		heard, town := false, false
		for _, l := range back {
			heard = heard || (l.Channel == "mafia" && l.Text == mafiaLine)
			town = town || (l.Channel == "town" && l.Text == townLine)
		}
		if want := public || late.seat != 0; heard != want || !town {
			t.Errorf("after the end (public %v), seat %d reads back the mafia's line: %v, want %v; the town's: %v",
				public, late.seat, heard, want, town)
		}
	}
}

// nightEvent are the kinds of the events only their actor or the mafia see.
var nightEvent = map[string]bool{"mafia_chose": true, "checked": true, "healed": true, "shot": true, "skipped": true,
	"vote_cast": true, "all_vote_cast": true}

// refusal decodes a refusal's body (zero when it is none).
func refusal(body []byte) errorBody {
	var e errorBody
	_ = json.Unmarshal(body, &e)
	return e
}

// strangerRefused checks a stranger's answer: at a private table bad_token
// (403) with a sentence in lang; at a public table the player's answer
// mine, byte for byte.
func strangerRefused(t *testing.T, where, lang string, public bool, status int, body, mine []byte) {
	t.Helper()
	if public {
		if !bytes.Equal(body, mine) {
			t.Errorf("%s at a public table: %d %.300s, want the player's %.300s", where, status, body, mine)
		}
		return
	}
	e := refusal(body)
	if status != 403 || e.Error.Code != "bad_token" {
		t.Errorf("%s at a private table: %d %.300s, want 403 bad_token", where, status, body)
		return
	}
	checkSentence(t, where, lang, e.Error.Code, e.Error.Message)
}

// noSecret checks that an answer before the end holds no secret: a
// refusal is a code and a sentence and nothing else; a lobby or the
// lobbies' list decodes strictly (no field beyond the schema's: no card,
// no event); and none holds the deal's seed or a night action's kind.
func noSecret(t *testing.T, where string, body []byte, seed string) {
	t.Helper()
	var err error
	switch {
	case bytes.HasPrefix(body, []byte(`{"error":`)):
		var e errorBody
		err = decodeStrict(body, &e)
	case bytes.HasPrefix(body, []byte(`{"tables":`)):
		var l struct {
			Tables []wire.Lobby `json:"tables"`
		}
		err = decodeStrict(body, &l)
	default:
		var l wire.Lobby
		err = decodeStrict(body, &l)
	}
	if err != nil {
		t.Errorf("%s: %v: %.300s", where, err, body)
	}
	if seed != "" && regexp.MustCompile(`(^|[^0-9])`+seed+`([^0-9]|$)`).Match(body) {
		t.Errorf("%s holds the deal's seed: %.300s", where, body)
	}
	for k := range nightEvent {
		if bytes.Contains(body, []byte(`"`+k+`"`)) {
			t.Errorf("%s holds %s: %.300s", where, k, body)
		}
	}
}

// decodeStrict decodes JSON refusing a field v does not have.
func decodeStrict(body []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	return d.Decode(v)
}
