package locale

import (
	"strings"
	"testing"

	"mafia/engine"
)

// table11 is a fixed deal of 11: seat 1 citizen, 2 Don, 3 detective, 5 and
// 9 mafiosi, 6 doctor, 8 maniac.
var table11 = []engine.Role{engine.Citizen, engine.Don, engine.Detective, engine.Citizen, engine.Mafioso,
	engine.Doctor, engine.Citizen, engine.Maniac, engine.Mafioso, engine.Citizen, engine.Citizen}

func newGame(t *testing.T) *engine.Game {
	t.Helper()
	g, _, err := engine.New(engine.DefaultRules(), table11, 1)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func handle(t *testing.T, g *engine.Game, c engine.Command) {
	t.Helper()
	if _, err := g.Handle(c); err != nil {
		t.Fatalf("%v: %v", c, err)
	}
}

func TestSummaryOfACitizenNamesNoOtherCard(t *testing.T) {
	g := newGame(t)
	for _, l := range Langs() {
		p := New(l)
		text := strings.Join(p.Summary(g.ViewFor(1)), "\n")
		if !strings.Contains(text, p.Role(engine.Citizen)) {
			t.Errorf("%s: the citizen's own card is missing: %q", l, text)
		}
		for _, r := range []engine.Role{engine.Don, engine.Mafioso, engine.Detective, engine.Doctor, engine.Maniac} {
			if strings.Contains(text, p.Role(r)) {
				t.Errorf("%s: a citizen's summary names %s: %q", l, p.Role(r), text)
			}
		}
		if msg := clean(text); msg != "" {
			t.Errorf("%s: %s: %q", l, msg, text)
		}
	}
}

func TestSummaryShowsTheDetectivesChecksAndTheMafiasTeam(t *testing.T) {
	g := newGame(t)
	handle(t, g, engine.Command{Verb: engine.Check, By: 3, Target: 2})
	p := New(En)
	det := strings.Join(p.Summary(g.ViewFor(3)), "\n")
	if !strings.Contains(det, "Your checks: seat 2 — mafia.") {
		t.Errorf("the detective's summary lacks the check: %q", det)
	}
	don := strings.Join(p.Summary(g.ViewFor(2)), "\n")
	if !strings.Contains(don, "Your team: seat 5 — mafioso, seat 9 — mafioso.") {
		t.Errorf("the Don's summary lacks the team: %q", don)
	}
	if strings.Contains(don, "checks") {
		t.Errorf("the Don's summary shows checks the Don did not make: %q", don)
	}
	maniac := strings.Join(p.Summary(g.ViewFor(8)), "\n")
	if !strings.Contains(maniac, "You have 2 shots left.") {
		t.Errorf("the maniac's summary lacks the shots: %q", maniac)
	}
}

func TestSummaryShowsTheDayTheSpeakerAndTheCandidates(t *testing.T) {
	g := newGame(t)
	handle(t, g, engine.Command{Verb: engine.Next}) // night 1 ends: nobody acted
	handle(t, g, engine.Command{Verb: engine.Nominate, By: 1, Target: 5})
	p := New(Ru)
	text := strings.Join(p.Summary(g.ViewFor(4)), "\n")
	for _, want := range []string{"День 1: речи игроков.", "Слово у игрока №1.", "Кандидаты: №5.", "В игре 11 игроков:"} {
		if !strings.Contains(text, want) {
			t.Errorf("the summary lacks %q: %q", want, text)
		}
	}
}

func TestSummaryCountsThePlayersOutOfTheGame(t *testing.T) {
	g := newGame(t)
	handle(t, g, engine.Command{Verb: engine.Kill, By: 2, Target: 1})
	handle(t, g, engine.Command{Verb: engine.Next}) // the night ends: seat 1 is out
	one := map[Lang]string{En: "Out of the game: 1 player (1).", Ka: "თამაშიდან გავიდა 1 მოთამაშე: №1.", Ru: "Выбыл 1 игрок: №1."}
	for l, want := range one {
		if text := strings.Join(New(l).Summary(g.ViewFor(4)), "\n"); !strings.Contains(text, want) {
			t.Errorf("%s: the summary lacks %q: %q", l, want, text)
		}
	}
	for range 4 { // foul_limit: seat 7 is removed
		handle(t, g, engine.Command{Verb: engine.Foul, Target: 7})
	}
	two := map[Lang]string{En: "Out of the game: 2 players (1 and 7).", Ka: "თამაშიდან გავიდა 2 მოთამაშე: №1 და №7.", Ru: "Выбыли 2 игрока: №1 и №7."}
	for l, want := range two {
		if text := strings.Join(New(l).Summary(g.ViewFor(4)), "\n"); !strings.Contains(text, want) {
			t.Errorf("%s: the summary lacks %q: %q", l, want, text)
		}
	}
}
