package server

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"mafia/client"
	"mafia/locale"
	"mafia/room"
	"mafia/wire"
)

// script reports whether every letter of s is of the script of lang
// (Georgian, Cyrillic, else Latin), and s has a letter.
func script(lang locale.Lang, s string) bool {
	letters := 0
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		var ok bool
		switch lang {
		case locale.Ka:
			ok = unicode.Is(unicode.Georgian, r)
		case locale.Ru:
			ok = unicode.Is(unicode.Cyrillic, r)
		default:
			ok = r < unicode.MaxASCII
		}
		if !ok {
			return false
		}
	}
	return letters > 0
}

// langOpts dials in language lang (?lang=, as the browser's page does).
func langOpts(lang locale.Lang) dialOpts {
	return dialOpts{query: url.Values{"lang": {string(lang)}}}
}

// botChats are the chat frames of a server's bot (any seat but skip's) in
// channel among p's frames, and whether each came after the game's end.
func botChats(t *testing.T, p *player, channel string, skip int) (lines []wire.ServerMessage, after []bool) {
	t.Helper()
	ended := false
	for _, f := range p.frames {
		var m wire.ServerMessage
		if err := json.Unmarshal(f, &m); err != nil {
			t.Fatalf("a frame that is not JSON: %s", f)
		}
		for _, e := range m.Events {
			if e.Kind == "game_ended" {
				ended = true
			}
		}
		if m.Type == "chat" && m.Channel == channel && m.From != skip {
			if m.Bot == nil || m.Bot.Kind == "" {
				t.Errorf("a bot's chat frame does not say what its line means: %s", f)
			}
			lines, after = append(lines, m), append(after, ended)
		}
	}
	return lines, after
}

// readsInOwnLanguage fails t unless every line is in lang's script, names
// its bot as lang's catalog does, and is a sentence (no catalog id).
func readsInOwnLanguage(t *testing.T, who string, lang locale.Lang, from []int, names, texts []string) {
	t.Helper()
	for i, text := range texts {
		if !script(lang, text) || strings.Contains(text, "botline") || strings.Contains(text, "<no value>") {
			t.Errorf("%s reads a bot's line not in %s: %q", who, lang, text)
		}
		if want := room.BotName(lang, from[i]); names[i] != want {
			t.Errorf("%s reads bot %d named %q, want %q", who, from[i], names[i], want)
		}
	}
}

// TestBotLang_EveryReaderReadsTheBotsInTheirOwnLanguage is issue 32's test
// over a real server on loopback. At a table made in English with smart
// bots, the person's seat (a citizen, by a sandbox deal of eleven; the
// mafia and the Maniac are bots) connects in Georgian, the same seat's
// second tab in English, a spectator in Russian: each reads every line of
// the bots in its own language, the bots' names too, and the three read as
// many, each frame with what the line means (bot); none reads a line of
// the mafia's night chat. After the end each reads the chat back
// (history, the farewells with it) in its own language, in pages of one
// length for all three, and the game's record (the review's) is rendered
// in the language of its request. At a second table a person seated as a
// mafioso (sandbox card) reads the bots' night lines in Georgian, and a
// spectator none. (That the other seats' frames of the night have the
// lengths and moments of the mafia's, a citizen's among them, the room's
// test pins: room/nighttalk_internal_test.go.) Deterministic: the deals are
// the sandboxes', and the test waits for the games' ends, never for time.
// (Whether a bot says a farewell is the bot's own draw: the farewells said
// are checked, and the log says how many.)
func TestBotLang_EveryReaderReadsTheBotsInTheirOwnLanguage(t *testing.T) {
	t.Parallel() // its own server; a bots' game of 1-second nights on the wall clock, its three readers read all along (main_test.go)
	ts := startServerWith(t, "", func(c *Config) {
		c.Limits.Unlimited = loopback
		c.NightTick = 50 * time.Millisecond
	})
	ctx := within(t, 180*time.Second)
	en := *ts.api
	en.Lang = "en"
	timings := map[string]int64{"speech": 5000, "defence": 3000, "tie_speech": 3000, "last_words": 3000, "night": 1000, "vote": 400}
	created, err := en.Create(ctx, client.CreateRequest{Name: "polyglot", Players: 11, TimingsMS: timings, Bots: "smart",
		Sandbox: &client.Sandbox{Deal: []string{"citizen", "don", "mafia", "mafia", "detective", "doctor", "maniac",
			"citizen", "citizen", "citizen", "citizen"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := created.Table
	if _, err := en.Join(ctx, id, "Nino", 1, created.HostToken); err != nil {
		t.Fatal(err)
	}
	person := newPlayer(ts.api.Base, id, created.HostToken, 1, 7)
	person.opts = langOpts(locale.Ka)
	tab := newPlayer(ts.api.Base, id, created.HostToken, 1, 8)
	tab.opts, tab.hold = langOpts(locale.En), func(*player) bool { return true } // reads only
	spect := newPlayer(ts.api.Base, id, "", 0, 0)
	spect.opts = langOpts(locale.Ru)
	readers := []*player{person, tab, spect}
	langs := []locale.Lang{locale.Ka, locale.En, locale.Ru}
	for _, p := range readers {
		p.keep = true
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []string{"add_bots", "start"} {
		if err := person.call(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	if err := <-playAll(ctx, readers).done; err != nil {
		t.Fatal(err)
	}
	// The end's frame goes out before the bots' farewells are stored, in
	// the same step of the room: a connection, which the room attaches
	// after that step, waits for them (the store read at once missed one
	// under -race, 30 stored against 31 read back).
	if _, _, err := readHistoryWith(ctx, ts.api.Base, id, "", 0, langOpts(locale.En)); err != nil {
		t.Fatal(err)
	}
	stored, err := ts.db.Chat(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	town, night, farewells := 0, 0, 0 // farewells: the town's lines after the end
	for _, l := range stored {
		switch {
		case l.Bot.Kind == "":
			t.Errorf("a line of seat %d stored as words only: %+v", l.Seat, l)
		case l.Channel == "mafia":
			night++
		case l.Channel == "town":
			town++
			if l.Phase == "ended" {
				farewells++
			}
			if !script(locale.En, l.Text) {
				t.Errorf("a line stored in another language than the table's: %q", l.Text)
			}
		}
	}
	if town == 0 {
		t.Fatal("the bots said nothing in the town's chat")
	}
	var counts [3]int
	for i, p := range readers {
		// A player's connection ends with the game: the farewells are
		// read back below (history, record).
		lines, after := botChats(t, p, "town", 1)
		var from []int
		var names, texts []string
		for j, m := range lines {
			from, names, texts = append(from, m.From), append(names, m.Name), append(texts, m.Text)
			if !after[j] {
				counts[i]++
			}
		}
		readsInOwnLanguage(t, fmt.Sprintf("the %s reader", langs[i]), langs[i], from, names, texts)
		if mafia, _ := botChats(t, p, "mafia", -1); len(mafia) != 0 {
			t.Errorf("the %s reader (a citizen's or a spectator's) read the mafia's night: %+v", langs[i], mafia)
		}
		t.Logf("%s: %d lines of the bots by day, e.g. %q", langs[i], counts[i], texts[0])
	}
	if day := town - farewells; counts[0] != day || counts[1] != day || counts[2] != day {
		t.Errorf("the readers read %v of the bots' %d lines of the game", counts, day)
	}
	t.Logf("stored: %d lines in the town's chat (%d farewells), %d in the mafia's", town, farewells, night)

	// The chat so far, in pages, per reader: every page one length.
	var sizes [3][]int
	for i, lang := range langs {
		tok := created.HostToken
		if i == 2 {
			tok = ""
		}
		back, pages, err := readHistoryWith(ctx, ts.api.Base, id, tok, 0, langOpts(lang))
		if err != nil {
			t.Fatal(err)
		}
		var from []int
		var names, texts []string
		for _, l := range back {
			if l.Channel == "town" {
				from, names, texts = append(from, l.From), append(names, l.Name), append(texts, l.Text)
				if l.Bot == nil || l.Bot.Kind == "" {
					t.Errorf("a bot's line in a history page does not say what it means: %+v", l)
				}
			}
		}
		readsInOwnLanguage(t, fmt.Sprintf("the %s reader's history", lang), lang, from, names, texts)
		if len(texts) != town {
			t.Errorf("the %s reader reads back %d of the bots' %d lines", lang, len(texts), town)
		}
		for _, pg := range pages {
			sizes[i] = append(sizes[i], pg.size)
		}
	}
	if !slices.Equal(sizes[0], sizes[1]) || !slices.Equal(sizes[0], sizes[2]) {
		t.Errorf("the history pages differ in length by reader: %v", sizes)
	}

	// The review's record, in the language of its request, with what each
	// line means.
	for _, lang := range langs {
		status, _, body := apiCall(ctx, t, ts.api.Base, "GET", "/api/tables/"+id+"/record?lang="+string(lang), "", created.HostToken, "")
		if status != 200 {
			t.Fatalf("the record: %d %s", status, body)
		}
		if err := validate("record", body); err != nil {
			t.Fatalf("the record does not fit the schema: %v", err)
		}
		var rec struct {
			Seats []struct {
				Seat int
				Name string
				Bot  bool
			}
			Chat []struct {
				Channel, Name, Text string
				From                int
				Bot                 *struct{ Kind string }
			}
		}
		if err := json.Unmarshal(body, &rec); err != nil {
			t.Fatal(err)
		}
		var from []int
		var names, texts []string
		for _, l := range rec.Chat {
			if l.Bot == nil || l.Bot.Kind == "" {
				t.Errorf("the record's line %+v does not say what it means", l)
			}
			from, names, texts = append(from, l.From), append(names, l.Name), append(texts, l.Text)
		}
		readsInOwnLanguage(t, fmt.Sprintf("the %s record", lang), lang, from, names, texts)
		if len(rec.Chat) != len(stored) {
			t.Errorf("the %s record holds %d lines of %d", lang, len(rec.Chat), len(stored))
		}
		for _, st := range rec.Seats {
			if st.Bot && st.Name != room.BotName(lang, st.Seat) {
				t.Errorf("the %s record names bot %d %q", lang, st.Seat, st.Name)
			}
		}
	}

	// A person seated as a mafioso reads the bots' night lines in Georgian.
	created, err = en.Create(ctx, client.CreateRequest{Name: "the mafia's night", Players: 7, TimingsMS: timings, Bots: "smart",
		Sandbox: &client.Sandbox{Card: "mafia"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := en.Join(ctx, created.Table, "Nino", 3, created.HostToken); err != nil {
		t.Fatal(err)
	}
	mafioso := newPlayer(ts.api.Base, created.Table, created.HostToken, 3, 9)
	mafioso.opts, mafioso.keep = langOpts(locale.Ka), true
	watcher := newPlayer(ts.api.Base, created.Table, "", 0, 0)
	watcher.opts, watcher.keep = langOpts(locale.Ru), true
	for _, p := range []*player{mafioso, watcher} {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []string{"add_bots", "start"} {
		if err := mafioso.call(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	if err := <-playAll(ctx, []*player{mafioso, watcher}).done; err != nil {
		t.Fatal(err)
	}
	if heard, _ := botChats(t, watcher, "mafia", -1); len(heard) != 0 {
		t.Errorf("a spectator read the mafia's night: %+v", heard)
	}
	lines, _ := botChats(t, mafioso, "mafia", 3)
	if len(lines) == 0 {
		t.Fatal("the mafioso read no line of the bots' night")
	}
	var from []int
	var names, texts []string
	for _, m := range lines {
		from, names, texts = append(from, m.From), append(names, m.Name), append(texts, m.Text)
	}
	readsInOwnLanguage(t, "the mafioso", locale.Ka, from, names, texts)
	t.Logf("the mafioso read %d lines of the night, e.g. %q", len(lines), texts[0])
}
