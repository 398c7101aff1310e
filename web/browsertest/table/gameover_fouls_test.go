package table

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/web"
	"mafia/web/internal/webtest"
)

// TestBrowserGameOverARemovalByFoulsIsNoWin renders the game-over part for a
// citizen of a town that won: "You win!" when the citizen was voted out or
// survived, and never when fouls removed them (issue 18: a player removed by
// fouls is never marked as a winner).
func TestBrowserGameOverARemovalByFoulsIsNoWin(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	roles := []string{"citizen", "citizen", "citizen", "detective", "doctor", "mafia", "don"}
	state := func(cause string) map[string]any {
		st := webtest.View(3, "citizen", "ended", 0, map[string]any{}, map[string]any{"winner": "town"})
		events := []any{}
		if cause != "" {
			events = append(events, map[string]any{"kind": "player_out", "target": 3, "cause": cause})
		}
		st["events"] = append(events, map[string]any{"kind": "game_ended", "winner": "town", "roles": roles})
		st["fullLog"] = st["events"]
		st["id"] = "t1"
		return st
	}
	cases := []struct {
		Name  string         `json:"name"`
		State map[string]any `json:"st"`
		Want  string         `json:"-"`
		Not   string         `json:"-"`
	}{
		{Name: "survived", State: state(""), Want: "You win!"},
		{Name: "voted out", State: state("vote"), Want: "You win!"},
		{Name: "removed by fouls", State: state("fouls"), Want: "removed for fouls: it is not a win for you", Not: "You win!"},
	}
	data, _ := json.Marshal(cases)
	p := webtest.NewTab(t, "over-fouls", 360, 780)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/?lang=en"), browsertest.WaitVisible(chromedp.CSS("#create")))
	base := "/static/" + web.Version() + "/js/"
	script := fmt.Sprintf(`(async () => {
		const { renderOver } = await import(%q);
		const { h } = await import(%q);
		const ctx = { navigate() {} };
		return JSON.stringify(%s.map((c) => {
			const box = h('div', {}, renderOver(c.st, ctx) || []);
			const p = box.querySelector('.personal');
			return p ? p.textContent : '(no personal line) ' + box.textContent;
		}));
	})()`, base+"gameover.js", base+"dom.js", data)
	ctx, cancel := webtest.ContextWithTimeout(p, 20*time.Second)
	defer cancel()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if !strings.Contains(got[i], c.Want) || (c.Not != "" && strings.Contains(got[i], c.Not)) {
			t.Errorf("%s: the game over says %q, want %q in it", c.Name, got[i], c.Want)
		}
	}
}
