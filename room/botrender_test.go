package room_test

import (
	"strconv"
	"strings"
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/locale"
	"mafia/room"
)

// A bot's line rendered (room/botrender.go): every kind has the same
// number of phrasings, at least eight, in every language (one stored line
// is rendered in each reader's language, with the same Pick); each renders
// with every seat it names, as a number or an ordinal in its case.

// lineIDs are the catalog bases of every kind of line (a Detective's claim
// has its own, in the plural).
func lineIDs() []string {
	ids := []string{"botline.claim_detective"}
	for _, k := range bot.LineKinds() {
		ids = append(ids, "botline."+k.String())
	}
	return ids
}

func TestRenderLine_EveryKindHasTheSameNumberOfPhrasingsInEveryLanguage(t *testing.T) {
	for _, id := range lineIDs() {
		n := room.Phrasings(locale.En, id)
		if n < 8 {
			t.Errorf("%s: %d phrasings in English, want at least 8", id, n)
		}
		for _, lang := range locale.Langs() {
			if m := room.Phrasings(lang, id); m != n {
				t.Errorf("%s: %d phrasings in %s, %d in English: a stored line's Pick would choose another idea", id, m, lang, n)
			}
		}
	}
}

// seatWords are the signs of seats 3, 7 and 9 in a sentence: the number,
// or the stem of its ordinal in each language.
var seatWords = map[engine.Seat][]string{
	3: {"3", "third", "მესამ", "трет"},
	7: {"7", "seventh", "მეშვიდ", "седьм"},
	9: {"9", "ninth", "მეცხრ", "девят"},
}

func TestRenderLine_EveryPhrasingNamesItsSeatsInEveryLanguage(t *testing.T) {
	for _, lang := range locale.Langs() {
		for _, k := range bot.LineKinds() {
			l := bot.Line{Kind: k, Seat: 7, More: [2]engine.Seat{3, 9}, Role: engine.Citizen, Result: engine.ResultMafia}
			named := l.SeatsNamed()
			l.More = [2]engine.Seat{}
			copy(l.More[:], named[min(1, len(named)):])
			seen := map[string]bool{}
			n := room.Phrasings(lang, "botline."+k.String())
			for pick := 0; pick < n; pick++ {
				l.Pick = uint8(pick)
				s := room.RenderLine(lang, l)
				if strings.Contains(s, "botline") || strings.Contains(s, "<no value>") || !script(lang, s) {
					t.Errorf("%s %s pick %d: %q", lang, k, pick, s)
				}
				for _, seat := range named {
					found := false
					for _, w := range seatWords[seat] {
						found = found || strings.Contains(s, w)
					}
					if !found {
						t.Errorf("%s %s pick %d: %q does not name seat %d", lang, k, pick, s, seat)
					}
				}
				if seen[s] {
					t.Errorf("%s %s: phrasing %d repeats another: %q", lang, k, pick+1, s)
				}
				seen[s] = true
			}
		}
	}
}

// TestRenderLine_SeatsAreNamedAsPlayersSayThem: ordinals in the case the
// sentence needs (the review of 2026-12-05, §4: „მერვეს“, «восьмому»).
func TestRenderLine_SeatsAreNamedAsPlayersSayThem(t *testing.T) {
	for _, c := range []struct {
		lang locale.Lang
		line bot.Line
		want string
	}{
		{locale.Ka, bot.Line{Kind: bot.LineSuspect, Seat: 8, Pick: 1}, "მერვეს თვალი ადევნეთ."},
		{locale.Ru, bot.Line{Kind: bot.LineSuspect, Seat: 8, Pick: 1}, "Присмотритесь к восьмому."},
		{locale.En, bot.Line{Kind: bot.LineSuspect, Seat: 8, Pick: 1}, "Keep an eye on the eighth."},
		{locale.Ka, bot.Line{Kind: bot.LineVoteOut, Seat: 8, Pick: 2}, "დღეს მერვემ უნდა დატოვოს თამაში."},
		{locale.Ka, bot.Line{Kind: bot.LineSuspect, Seat: 1, Pick: 7}, "პირველს არ ვენდობი."},
		{locale.Ka, bot.Line{Kind: bot.LineSuspect, Seat: 8, Pick: 0}, "ეჭვი მაქვს №8\u2011ზე."},
		{locale.Ru, bot.Line{Kind: bot.LineVoteOut, Seat: 3, Pick: 4}, "Голосую за третьего."},
		{locale.Ru, bot.Line{Kind: bot.LineSuspect, Seat: 10, Pick: 6}, "Подозреваю 10\u2011го."},
		{locale.Ka, bot.Line{Kind: bot.LineVotedTown, Seat: 5, More: [2]engine.Seat{3}, Pick: 1}, "მეხუთემ ხმა მისცა მესამეს, მოქალაქეს."},
		{locale.Ru, bot.Line{Kind: bot.LineVotedTown, Seat: 5, More: [2]engine.Seat{3}, Pick: 1}, "Это пятый голосовал за третьего, мирного."},
		{locale.En, bot.Line{Kind: bot.LineVotedTown, Seat: 5, More: [2]engine.Seat{3}, Pick: 1}, "The fifth voted for the third, a citizen."},
		{locale.Ru, bot.Line{Kind: bot.LineBestMove, Seat: 3, More: [2]engine.Seat{5, 9}}, "Мой лучший ход: 3, 5, 9."},
		{locale.Ka, bot.Line{Kind: bot.LineNightAgree, Seat: 7}, "თანახმა ვარ: მეშვიდე."},
	} {
		if got := room.RenderLine(c.lang, c.line); got != c.want {
			t.Errorf("%s %s %d: %q, want %q", c.lang, c.line.Kind, c.line.Seat, got, c.want)
		}
	}
}

// TestRenderLine_TheDetectivesClaimCountsInTheLanguagesPlural.
func TestRenderLine_TheDetectivesClaimCountsInTheLanguagesPlural(t *testing.T) {
	claim := func(lang locale.Lang, n int) string {
		return room.RenderLine(lang, bot.Line{Kind: bot.LineClaim, Role: engine.Detective, Count: uint8(n)})
	}
	for n, want := range map[int]string{1: "1 проверка", 2: "2 проверки", 5: "5 проверок", 21: "21 проверка"} {
		if s := claim(locale.Ru, n); !strings.Contains(s, want) {
			t.Errorf("ru, %d: %q, want %q", n, s, want)
		}
	}
	for n, want := range map[int]string{1: "1 check behind", 2: "2 checks behind"} {
		if s := claim(locale.En, n); !strings.Contains(s, want) {
			t.Errorf("en, %d: %q, want %q", n, s, want)
		}
	}
	if s := claim(locale.Ka, 3); !strings.Contains(s, "3 ღამეა") || !strings.Contains(s, "დეტექტივი") {
		t.Errorf("ka, 3: %q", s)
	}
	if s := claim(locale.Ka, 1); !strings.Contains(s, "ერთი ღამის") {
		t.Errorf("ka, 1: %q", s)
	}
	for _, lang := range locale.Langs() {
		for n := 1; n <= 25; n++ {
			if s := claim(lang, n); strings.Contains(s, "botline") || (!strings.Contains(s, strconv.Itoa(n)) && n > 1 && lang != locale.Ru) {
				t.Errorf("%s, %d: %q", lang, n, s)
			}
		}
	}
}
