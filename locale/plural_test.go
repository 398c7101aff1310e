package locale

import (
	"strings"
	"testing"

	"mafia/engine"
)

func TestPluralFormsFollowEachLanguagesRules(t *testing.T) {
	for _, c := range []struct {
		lang Lang
		id   string
		n    int
		want string
	}{
		{Ru, "event.tally", 1, "1 голос "},
		{Ru, "event.tally", 2, "2 голоса "},
		{Ru, "event.tally", 5, "5 голосов "},
		{Ru, "event.tally", 11, "11 голосов "},
		{Ru, "event.tally", 21, "21 голос "},
		{Ru, "event.tally", 22, "22 голоса "},
		{Ru, "event.game_started", 1, "1 игрок."},
		{Ru, "event.game_started", 2, "2 игрока."},
		{Ru, "event.game_started", 5, "5 игроков."},
		{Ru, "event.game_started", 21, "21 игрок."},
		{Ru, "event.fouled", 1, "1 фол."},
		{Ru, "event.fouled", 2, "2 фола."},
		{Ru, "event.fouled", 5, "5 фолов."},
		{Ru, "event.fouled", 21, "21 фол."},
		{Ru, "setup.citizen", 1, "1 мирный житель"},
		{Ru, "setup.citizen", 2, "2 мирных жителя"},
		{Ru, "setup.citizen", 5, "5 мирных жителей"},
		{Ru, "setup.citizen", 21, "21 мирный житель"},
		{Ka, "event.tally", 1, "1 ხმა "},
		{Ka, "event.tally", 2, "2 ხმა "},
		{Ka, "event.tally", 5, "5 ხმა "},
		{Ka, "event.tally", 21, "21 ხმა "},
		{Ka, "event.game_started", 1, "1 მოთამაშეა."},
		{Ka, "event.game_started", 2, "2 მოთამაშეა."},
		{Ka, "event.game_started", 5, "5 მოთამაშეა."},
		{Ka, "event.game_started", 21, "21 მოთამაშეა."},
		{Ka, "event.fouled", 21, "21 შენიშვნა."},
		{En, "event.tally", 1, "1 vote "},
		{En, "event.tally", 2, "2 votes "},
		{En, "event.tally", 5, "5 votes "},
		{En, "event.tally", 21, "21 votes "},
		{En, "event.game_started", 1, "1 player at"},
		{En, "event.game_started", 21, "21 players at"},
	} {
		p := New(c.lang)
		got := p.Plural(c.id, c.n, map[string]any{"Count": c.n, "Seat": 3, "Target": 3, "Voters": "1"})
		if !strings.Contains(got, c.want) {
			t.Errorf("%s %s n=%d: %q does not contain %q", c.lang, c.id, c.n, got, c.want)
		}
	}
}

func TestRefusalsCountInTheRightForm(t *testing.T) {
	for _, c := range []struct {
		lang Lang
		err  *engine.Error
		want string
	}{
		{Ru, &engine.Error{Code: engine.CodeTooFewSeats, N: 3}, "не меньше 3 игроков"},
		{Ru, &engine.Error{Code: engine.CodeTooManySeats, N: 21}, "не больше 21 игрока"},
		{Ru, &engine.Error{Code: engine.CodeNoShotsLeft, N: 2}, "2 выстрела"},
		{Ru, &engine.Error{Code: engine.CodeNoShotsLeft, N: 5}, "5 выстрелов"},
		{Ka, &engine.Error{Code: engine.CodeTooManySeats, N: 20}, "20 მოთამაშე"},
		{En, &engine.Error{Code: engine.CodeTooFewSeats, N: 1}, "at least 1 player."},
		{En, &engine.Error{Code: engine.CodeMafiaMajority, N: 3}, "3 mafiosi are"},
	} {
		if got := New(c.lang).Refusal(c.err); !strings.Contains(got, c.want) {
			t.Errorf("%s %s N=%d: %q does not contain %q", c.lang, c.err.Code, c.err.N, got, c.want)
		}
	}
}

// TestTheMorningCountsTheNightsVictims: the morning's sentence says how
// many players the night took, in the form the number takes, from the
// event's own set of victims.
func TestTheMorningCountsTheNightsVictims(t *testing.T) {
	for _, c := range []struct {
		lang    Lang
		victims []engine.Seat
		want    string
	}{
		{En, []engine.Seat{3}, "1 player was killed"},
		{En, []engine.Seat{3, 7}, "2 players were killed"},
		{Ka, []engine.Seat{3, 7}, "ამ ღამით 2 მოთამაშე მოკლეს"},
		{Ru, []engine.Seat{3}, "убит 1 игрок"},
		{Ru, []engine.Seat{3, 7}, "убиты 2 игрока"},
		{Ru, []engine.Seat{1, 2, 3, 4, 5}, "убиты 5 игроков"},
		{En, nil, "Nobody was killed tonight."},
	} {
		got := New(c.lang).Event(engine.Event{Kind: engine.EvNightEnded, Set: engine.SetOf(c.victims...)}, 0)
		if !strings.Contains(got, c.want) {
			t.Errorf("%s, victims %v: %q does not contain %q", c.lang, c.victims, got, c.want)
		}
	}
}
