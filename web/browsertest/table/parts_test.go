package table

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/web"
	"mafia/web/internal/webtest"
)

// partCase is a view of the game and what the page must offer for it.
type partCase struct {
	Name  string         `json:"name"`
	State map[string]any `json:"st"`
	// The buttons the action part offers, as "verb target" (or "verb"),
	// in order.
	Buttons []string `json:"buttons"`
	// Text the action part or the checks part must show, if any.
	Text string `json:"text"`
}

// TestBrowserActionsFollowTheLegalMoves renders the action part for views
// of each step: only the moves view.legal lists, on its targets only, the
// vote in the candidates' order, the check answers so far.
func TestBrowserActionsFollowTheLegalMoves(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	paused := webtest.View(3, "mafia", "night", 0, map[string]any{"kill": []int{1, 2}}, nil)
	paused["paused"] = true
	deadSpeaker := webtest.View(4, "citizen", "last_words", 4, map[string]any{"pass": true},
		map[string]any{"seats": webtest.SeatsOf(7, func(s int) map[string]any { return map[string]any{"alive": s != 4} })})
	deadNight := webtest.View(4, "doctor", "night", 0, map[string]any{},
		map[string]any{"seats": webtest.SeatsOf(7, func(s int) map[string]any { return map[string]any{"alive": s != 4} })})
	detective := webtest.View(5, "detective", "speech", 2, map[string]any{},
		map[string]any{"seats": webtest.SeatsOf(7, func(s int) map[string]any {
			switch s {
			case 1:
				return map[string]any{"check": "not_mafia"}
			case 6:
				return map[string]any{"check": "mafia"}
			}
			return nil
		})})
	cases := []partCase{
		{Name: "the mafia at night", State: webtest.View(3, "mafia", "night", 0, map[string]any{"kill": []int{1, 2, 5, 7}}, nil),
			Buttons: []string{"kill 1", "kill 2", "kill 5", "kill 7"}},
		{Name: "the Don at night", State: webtest.View(1, "don", "night", 0, map[string]any{"kill": []int{2, 4}, "check": []int{2, 3, 4}}, nil),
			Buttons: []string{"kill 2", "kill 4", "check 2", "check 3", "check 4"}},
		{Name: "the maniac may skip", State: webtest.View(6, "maniac", "night", 0, map[string]any{"shoot": []int{1, 2}, "skip": true}, nil),
			Buttons: []string{"shoot 1", "shoot 2", "skip"}},
		{Name: "a citizen sleeps", State: webtest.View(2, "citizen", "night", 0, map[string]any{}, nil), Buttons: []string{},
			Text: "You sleep: there is nothing for you to do tonight."},
		{Name: "the doctor has healed", State: webtest.View(7, "doctor", "night", 0, map[string]any{}, map[string]any{"night": map[string]any{"heal": 3}}),
			Buttons: []string{}, Text: "You heal seat 3 tonight."},
		{Name: "my speech", State: webtest.View(2, "citizen", "speech", 2, map[string]any{"nominate": []int{1, 3, 4}, "pass": true}, nil),
			Buttons: []string{"nominate 1", "nominate 3", "nominate 4", "pass"}},
		{Name: "my speech, nominated", State: webtest.View(2, "citizen", "speech", 2, map[string]any{"pass": true}, map[string]any{"nominated": true}),
			Buttons: []string{"pass"}, Text: "You have made your nomination."},
		{Name: "another's speech", State: webtest.View(2, "citizen", "speech", 3, map[string]any{}, nil), Buttons: nil},
		{Name: "my speech, with statements", State: webtest.View(2, "citizen", "speech", 2, map[string]any{"nominate": []int{1, 3}, "pass": true,
			"claim": true, "report": []int{1, 3}, "suspect": []int{1, 3}, "vouch": []int{1, 3}, "will_nominate": []int{1, 3}}, nil),
			Buttons: []string{"nominate 1", "nominate 3", "pass"}, Text: "My card:citizen"},
		{Name: "my last words, all said", State: webtest.View(4, "citizen", "last_words", 4, map[string]any{"pass": true},
			map[string]any{"seats": webtest.SeatsOf(7, func(s int) map[string]any { return map[string]any{"alive": s != 4} })}),
			Buttons: []string{"pass"}, Text: "You have said all that one floor allows."},
		{Name: "another's speech, no statements", State: webtest.View(2, "citizen", "speech", 3, map[string]any{"claim": true}, nil), Buttons: nil},
		{Name: "the vote, in the candidates' order", State: webtest.View(2, "citizen", "vote", 0, map[string]any{"vote": []int{2, 5, 6}},
			map[string]any{"candidates": []int{6, 2, 5}}), Buttons: []string{"vote 6", "vote 2", "vote 5"}},
		{Name: "voted", State: webtest.View(2, "citizen", "vote", 0, map[string]any{}, map[string]any{"candidates": []int{6, 2}, "voted": true, "my_vote": 6}),
			Buttons: []string{}, Text: "You voted for seat 6."},
		{Name: "shall all of them leave", State: webtest.View(2, "citizen", "all_vote", 0, map[string]any{"all_vote": true}, nil),
			Buttons: []string{"all_vote", "all_vote"}},
		{Name: "out of the game", State: deadNight, Buttons: []string{}, Text: "You are out of the game."},
		{Name: "last words after death", State: deadSpeaker, Buttons: []string{"pass"}},
		{Name: "paused", State: paused, Buttons: []string{}, Text: "The game is paused."},
		{Name: "the detective's answers", State: detective, Buttons: nil, Text: "seat 6 — mafia (Bot 6)"},
	}
	data, _ := json.Marshal(cases)
	p := webtest.NewTab(t, "parts", 360, 780)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/"), browsertest.WaitVisible(chromedp.CSS("#create")))
	base := "/static/" + web.Version() + "/js/"
	script := fmt.Sprintf(`(async () => {
		const { renderActions } = await import(%q);
		const { renderChecks } = await import(%q);
		const { h } = await import(%q);
		const ctx = { command() {}, host() {} };
		return JSON.stringify(%s.map((c) => {
			const acts = renderActions(c.st, ctx);
			const checks = renderChecks(c.st);
			const box = h('div', {}, acts || [], checks || []);
			const buttons = acts === null ? null : [...box.querySelectorAll('button[data-verb]')]
				.filter((b) => !b.disabled).map((b) => b.dataset.target ? b.dataset.verb + ' ' + b.dataset.target : b.dataset.verb);
			return { buttons, text: box.textContent };
		}));
	})()`, base+"actions.js", base+"panels.js", base+"dom.js", data)
	ctx, cancel := webtest.ContextWithTimeout(p, 20*time.Second)
	defer cancel()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Buttons []string `json:"buttons"`
		Text    string   `json:"text"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		g := got[i]
		if c.Buttons == nil {
			if g.Buttons != nil && len(g.Buttons) > 0 {
				t.Errorf("%s: buttons %v, want none", c.Name, g.Buttons)
			}
		} else if !reflect.DeepEqual(g.Buttons, c.Buttons) && !(len(c.Buttons) == 0 && len(g.Buttons) == 0) {
			t.Errorf("%s: buttons %v, want %v", c.Name, g.Buttons, c.Buttons)
		}
		if c.Text != "" && !strings.Contains(g.Text, c.Text) {
			t.Errorf("%s: the page says %q, want %q in it", c.Name, g.Text, c.Text)
		}
	}
}
