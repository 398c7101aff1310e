package main

import (
	"strings"
	"testing"

	"mafia/engine"
	"mafia/locale"
)

// TestPlayStatementsAreTypedOnOnesOwnFloor: in her speech the person types
// statements in her language's words (a claim of a card by its name, a
// report with its answer, a suspicion, a vouch, a nomination to come); the
// game tells each as the engine recorded it; a card or an answer missing
// is asked for, in her language, and nothing is said.
func TestPlayStatementsAreTypedOnOnesOwnFloor(t *testing.T) {
	for _, c := range []struct {
		lang  locale.Lang
		lines []string
	}{
		{locale.En, []string{"claim wizard", "report 3", "claim detective", "checked 3 not mafia", "suspect 3", "vouch 2", "will 4"}},
		{locale.Ru, []string{"заявляю волшебник", "проверил 3", "заявляю комиссар", "проверил 3 не мафия", "подозреваю 3", "доверяю 2", "выставлю 4"}},
		{locale.Ka, []string{"ვარ ჯადოქარი", "შევამოწმე 3", "ვარ დეტექტივი", "შევამოწმე 3 არ არის მაფია", "ეჭვი 3", "ვენდობი 2", "დავასახელებ 4"}},
	} {
		t.Run(string(c.lang), func(t *testing.T) {
			p := locale.New(c.lang)
			say := strings.Split(p.T("play.choice_say", map[string]any{"Claim": "", "Report": "", "Suspect": "", "Vouch": "", "Will": ""}), " ")[0]
			queue := append([]string(nil), c.lines...)
			answer := func(screen string) string {
				if len(queue) > 0 && strings.Contains(screen, say) {
					line := queue[0]
					queue = queue[1:]
					return line
				}
				if len(queue) == 0 {
					return "" // Enter: the speech ends; then the bots and the clock
				}
				return sensible(screen)
			}
			out, errs, code := play(t, answer, "--seed", "7", "--seat", "1", "--lang", string(c.lang), "--options", "first_night=meeting")
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			checkClean(t, out)
			if len(queue) != 0 {
				t.Fatalf("the game never offered the statements (left %v):\n%s", queue, out)
			}
			for _, want := range []string{
				p.T("play.need_card", map[string]any{"Word": p.Words("claim")[0], "Example": p.Role(engine.Detective)}),
				p.T("play.need_answer", map[string]any{"Word": p.Words("report")[0], "Example": p.Result(engine.ResultNotMafia)}),
				p.Event(engine.Event{Kind: engine.EvStatement, Actor: 1, Verb: engine.Claim, Role: engine.Detective}, 1),
				p.Event(engine.Event{Kind: engine.EvStatement, Actor: 1, Verb: engine.Report, Target: 3, Result: engine.ResultNotMafia}, 1),
				p.Event(engine.Event{Kind: engine.EvStatement, Actor: 1, Verb: engine.Suspect, Target: 3}, 1),
				p.Event(engine.Event{Kind: engine.EvStatement, Actor: 1, Verb: engine.Vouch, Target: 2}, 1),
				p.Event(engine.Event{Kind: engine.EvStatement, Actor: 1, Verb: engine.WillNominate, Target: 4}, 1),
			} {
				if !strings.Contains(out, want) {
					t.Errorf("the game does not say %q:\n%s", want, out)
				}
			}
			// nothing but the five was said
			if n := strings.Count(out, p.Event(engine.Event{Kind: engine.EvStatement, Actor: 1, Verb: engine.Claim, Role: engine.Detective}, 1)); n != 1 {
				t.Errorf("the claim is told %d times", n)
			}
			// the summary lists the claim
			if !strings.Contains(out, p.T("view.claims", map[string]any{"List": p.T("view.item", map[string]any{"Seat": 1, "What": p.Role(engine.Detective)})})) {
				t.Errorf("no summary lists the claim")
			}
		})
	}
}
