package assist_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/engine"
	"mafia/locale"
	"mafia/seating"
)

func seatingURL(ts *hosttest.Server, lang string, names []string, tables, games string) string {
	q := url.Values{"lang": {lang}, "names": {strings.Join(names, "\n")}, "tables": {tables}, "games": {games}, "seed": {"7"}}
	return ts.URL + "/host/seating?" + q.Encode()
}

// TestTheSeatingCardsSeatEveryPlayerTheirGames (issue 29, paper for the
// evening): twenty players on two tables for ten games each, in Georgian,
// English and Russian: twenty cards (ten rounds, two tables), each of ten
// seats numbered 1 to 10, every player on exactly ten cards and in every
// seat number once, the same cards as the generator's for the seed; sizes
// the generator refuses show its sentence with its status.
func TestTheSeatingCardsSeatEveryPlayerTheirGames(t *testing.T) {
	ts := hosttest.StartServer(t)
	want, err := seating.Generate(seating.Config{Players: 20, Tables: 2, Games: 10, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	// The three languages side by side: each page is one generation, most
	// of the test's CPU (about 13 s of it under -race), on a server that
	// serves them at once.
	for _, lang := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		t.Run(string(lang), func(t *testing.T) {
			t.Parallel()
			seatingCardsIn(t, ts, lang, want)
		})
	}
	for _, tc := range []struct {
		name          string
		names         []string
		tables, games string
		code          string
		status        int
	}{
		{"three players", hosttest.TwentyNames[:3], "1", "1", "bad_seating", http.StatusBadRequest},
		{"no tables typed", hosttest.TwentyNames, "", "10", "bad_seating", http.StatusBadRequest},
		{"games that leave a seat empty", hosttest.TwentyNames[:11], "1", "1", "seating_uneven", http.StatusBadRequest},
	} {
		res, err := http.Get(seatingURL(ts, "ru", tc.names, tc.tables, tc.games))
		if err != nil {
			t.Fatal(err)
		}
		page := hosttest.ReadAll(t, res)
		say := html.EscapeString(locale.New(locale.Ru).Refusal(&engine.Error{Code: engine.Code(tc.code), N: 10}))
		if res.StatusCode != tc.status || !strings.Contains(page, `data-t="seating-error">`+say+`<`) || strings.Contains(page, `class="seating-card"`) {
			t.Errorf("%s: %d, page without %q or with cards; want %d", tc.name, res.StatusCode, say, tc.status)
		}
	}
}

// seatingCardsIn checks the twenty cards of the seating page in lang
// against want, the generator's for the same seed.
func seatingCardsIn(t *testing.T, ts *hosttest.Server, lang locale.Lang, want seating.Seating) {
	card := regexp.MustCompile(`(?s)<section class="seating-card" data-round="(\d+)" data-table="(\d+)">(.*?)</section>`)
	seat := regexp.MustCompile(`<td class="c-seat">(\d+)</td><td class="c-name" data-player="(\d+)">([^<]*)</td>`)
	res, err := http.Get(seatingURL(ts, string(lang), hosttest.TwentyNames, "2", "10"))
	if err != nil {
		t.Fatal(err)
	}
	page := hosttest.ReadAll(t, res)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d", lang, res.StatusCode)
	}
	p := locale.New(lang)
	cards := card.FindAllStringSubmatch(page, -1)
	if len(cards) != 20 {
		t.Fatalf("%s: %d cards; want 20", lang, len(cards))
	}
	games := map[string]int{}
	seats := map[string]map[int]bool{}
	for _, c := range cards {
		r, _ := strconv.Atoi(c[1])
		tb, _ := strconv.Atoi(c[2])
		if title := p.T("assist.seating.card", map[string]any{"Round": r, "Table": tb}); !strings.Contains(c[3], title) {
			t.Errorf("%s: card %d/%d lacks its title %q", lang, r, tb, title)
		}
		rows := seat.FindAllStringSubmatch(c[3], -1)
		if len(rows) != 10 {
			t.Fatalf("%s: card %d/%d has %d seats", lang, r, tb, len(rows))
		}
		for i, row := range rows {
			n, _ := strconv.Atoi(row[1])
			pl, _ := strconv.Atoi(row[2])
			if n != i+1 || pl != want.Rounds[r-1][tb-1][i] || row[3] != hosttest.TwentyNames[pl-1] {
				t.Errorf("%s: card %d/%d row %d: seat %d player %d %q; want seat %d player %d", lang, r, tb, i+1, n, pl, row[3], i+1, want.Rounds[r-1][tb-1][i])
			}
			games[row[3]]++
			if seats[row[3]] == nil {
				seats[row[3]] = map[int]bool{}
			}
			seats[row[3]][n] = true
		}
	}
	for _, n := range hosttest.TwentyNames {
		if games[n] != 10 || len(seats[n]) != 10 {
			t.Errorf("%s: %s on %d cards in %d seat numbers; want 10 and 10", lang, n, games[n], len(seats[n]))
		}
	}
}
