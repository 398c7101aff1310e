package attack

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"mafia/client"
	"mafia/wire"
)

// quoted is s as a JSON string, with no HTML escaping (as the server
// writes its own).
func quoted(s string) string {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// TestAttack_HugeAndHostileNames (issue 17, item 8): an attacker names
// tables and players as badly as it can: 16,300 characters, one past the
// limit, control characters, NUL, bidi overrides and isolates, zero-width
// spaces, names of the server's bots. Each is refused with its code
// (name_too_long, name_bad_character, name_like_bot) and makes no table
// and takes no seat. Then many addresses fill the public list with the
// longest names allowed, made of the characters HTML escaping would grow
// six times ("<", ">", "&"), and seat players named the same way: GET
// /api/tables holds the names as they are (no \u003c), none longer than
// its limit, and stays small (at most 4 KiB a table, 200 tables; it was
// 19.7 MB). A real player plays meanwhile.
func TestAttack_HugeAndHostileNames(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	wait := tg.playsMeanwhile(ctx, t, "127.0.95.1")
	hc := from("127.0.96.1")
	asJSON := map[string]string{"Content-Type": "application/json"}
	create := func(name string) answer {
		return ask(ctx, t, hc, "POST", tg.base+"/api/tables", asJSON, `{"players":5,"public":true,"name":`+name+`}`)
	}
	for _, c := range []struct{ what, name, code string }{
		{"16,300 characters", quoted(strings.Repeat("<", 16300)), "name_too_long"},
		{"65 characters", quoted(strings.Repeat("x", 65)), "name_too_long"},
		{"65 characters of 4 bytes", quoted(strings.Repeat("😀", 65)), "name_too_long"},
		{"a NUL", `"club\u0000"`, "name_bad_character"},
		{"a bell", `"club\u0007"`, "name_bad_character"},
		{"a newline", `"club\nnight"`, "name_bad_character"},
		{"a bidi override", `"\u202eclub"`, "name_bad_character"},
		{"a bidi isolate", `"club\u2066"`, "name_bad_character"},
		{"a zero-width space", `"cl\u200bub"`, "name_bad_character"},
		{"a byte-order mark", `"\ufeffclub"`, "name_bad_character"},
		{"only spaces", `"   "`, "name_required"},
	} {
		if a := create(c.name); a.status != http.StatusBadRequest || a.code != c.code {
			t.Errorf("a table named with %s: %d %s, want 400 %s", c.what, a.status, a.code, c.code)
		}
	}
	a := create(quoted("a table to sit at"))
	var first client.Created
	if a.status != http.StatusCreated || json.Unmarshal(a.body, &first) != nil {
		t.Fatalf("a table with a plain name, after the refusals: %d %s", a.status, a.body)
	}
	for _, c := range []struct{ what, name, code string }{
		{"16,300 characters", quoted(strings.Repeat("&", 16300)), "name_too_long"},
		{"33 characters", quoted(strings.Repeat("x", 33)), "name_too_long"},
		{"a NUL", `"Ni\u0000no"`, "name_bad_character"},
		{"a tab", `"Ni\tno"`, "name_bad_character"},
		{"a bidi override", `"Nino\u202e"`, "name_bad_character"},
		{"a zero-width space", `"Ni\u200bno"`, "name_bad_character"},
		{"a soft hyphen", `"Ni\u00adno"`, "name_bad_character"},
		{"a bot's name", `"Bot 3"`, "name_like_bot"},
		{"a bot's name spaced out", `"b o t - 3"`, "name_like_bot"},
		{"a bot's name in full width", `"Ｂｏｔ３"`, "name_like_bot"},
		{"a bot's name with a zero", `"B0t 7"`, "name_like_bot"},
		{"a bot's name in Cyrillic", `"Бот 3"`, "name_like_bot"},
		{"a bot's name in Georgian", `"ბოტი 3"`, "name_like_bot"},
	} {
		a := ask(ctx, t, hc, "POST", tg.base+"/api/tables/"+first.Table+"/join", asJSON, `{"name":`+c.name+`}`)
		if a.status != http.StatusBadRequest || a.code != c.code {
			t.Errorf("a player named with %s: %d %s, want 400 %s", c.what, a.status, a.code, c.code)
		}
	}
	if l, err := (&client.API{Base: tg.base}).Table(ctx, first.Table); err != nil {
		t.Fatal(err)
	} else {
		for _, s := range l.Seats {
			if s.Taken {
				t.Errorf("a refused name took seat %d (%q)", s.Seat, s.Name)
			}
		}
	}

	// Many addresses fill the list with the longest names allowed.
	tableName := strings.Repeat("<&>\"", 16) // 64 characters
	playerName := strings.Repeat("<b>&", 8)  // 32 characters
	wide := strings.Repeat("😀", 31) + "<"    // 32 characters, 125 bytes
	addrs := count(40, 8)
	var wg sync.WaitGroup
	for i := 0; i < addrs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := from(fmt.Sprintf("127.0.97.%d", i+1))
			// The longest name it can think of first, then the longest
			// allowed, until it has its five tables.
			names := []string{strings.Repeat("<", 16300), tableName, tableName, tableName, tableName, tableName}
			for k, name := range names {
				a := ask(ctx, t, hc, "POST", tg.base+"/api/tables", asJSON, `{"players":11,"public":true,"name":`+quoted(name)+`}`)
				var c client.Created
				if k == 0 && a.code == "name_too_long" {
					continue
				}
				if a.status == http.StatusTooManyRequests && k == len(names)-1 {
					return // its five were made
				}
				if a.status != http.StatusCreated || json.Unmarshal(a.body, &c) != nil {
					t.Errorf("address %d, table %d: %d %s", i+1, k+1, a.status, a.code)
					return
				}
				for s, name := range []string{playerName, wide, playerName} {
					if a := ask(ctx, t, hc, "POST", tg.base+"/api/tables/"+c.Table+"/join", asJSON, `{"name":`+quoted(name)+`}`); a.status != http.StatusOK {
						t.Errorf("address %d, table %d, seat %d: %d %s", i+1, k+1, s+1, a.status, a.code)
					}
				}
			}
		}()
	}
	wg.Wait()
	list := ask(ctx, t, from("127.0.98.1"), "GET", tg.base+"/api/tables", nil, "")
	var got struct{ Tables []wire.Lobby }
	if list.status != http.StatusOK || json.Unmarshal(list.body, &got) != nil {
		t.Fatalf("GET /api/tables: %d", list.status)
	}
	for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
		if strings.Contains(string(list.body), esc) {
			t.Errorf("GET /api/tables escapes for HTML (%s)", esc)
		}
	}
	if !strings.Contains(string(list.body), quoted(tableName)) {
		t.Error("GET /api/tables does not hold the table name as it was given")
	}
	for _, l := range got.Tables {
		if utf8.RuneCountInString(l.Name) > 64 {
			t.Errorf("a listed table's name has %d characters", utf8.RuneCountInString(l.Name))
		}
		for _, s := range l.Seats {
			if utf8.RuneCountInString(s.Name) > 32 {
				t.Errorf("a listed player's name has %d characters", utf8.RuneCountInString(s.Name))
			}
		}
	}
	t.Logf("%d tables listed in %d bytes (%d a table)", len(got.Tables), len(list.body), len(list.body)/max(len(got.Tables), 1))
	if len(got.Tables) > 200 || len(list.body) > 4096*max(len(got.Tables), 1) {
		t.Errorf("GET /api/tables: %d tables in %d bytes, want at most 200 of at most 4 KiB", len(got.Tables), len(list.body))
	}
	if len(got.Tables) < addrs*5 && len(got.Tables) < 200 {
		t.Errorf("only %d tables listed of the %d made", len(got.Tables), addrs*5+2)
	}
	wait()
}
