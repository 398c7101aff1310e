package chat

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/engine"
	"mafia/internal/browsertest"
	"mafia/room"
	"mafia/server"
	"mafia/web/internal/webtest"
)

// Issue 28, defect 9: a statement names no seat out of the game.

// TestBrowserASuspicionNamesOnlyTheLiving: after the night's victim is out,
// a player's own speech offers to suspect or vouch for the seats still in
// the game only.
func TestBrowserASuspicionNamesOnlyTheLiving(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	clk := room.NewFakeClock(time.Now())
	ts := webtest.StartServerWith(t, func(c *server.Config) { c.SeatsPerAddress = -1; c.Clock = clk })
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	pt := webtest.NewPeopleTable(ctx, t, ts, "Say of the living", 7, nil, map[string]int64{
		"night": 30_000, "speech": 40_000, "defence": 2_000, "tie_speech": 2_000, "last_words": 2_000, "vote": 3_000})
	don := pt.SeatsWith(engine.Don)[0]
	var victim, speaker int
	for s := 1; s <= 7; s++ {
		if !pt.Roles[s-1].IsMafia() {
			if victim == 0 {
				victim = s
			} else if speaker == 0 {
				speaker = s
			}
		}
	}
	for s := 1; s <= 7; s++ {
		switch s {
		case speaker:
		case don:
			pt.Play(s, webtest.With(webtest.Kills(victim, 1)))
		default:
			pt.Play(s, webtest.Passer)
		}
	}
	sp := webtest.NewTab(t, "speaker", 360, 740)
	pt.Open(sp, speaker)
	webtest.WaitPhase(sp, 15*time.Second, "night", 1, 0)
	clk.Advance(30 * time.Second) // past the night
	sp.WaitJS(20*time.Second, fmt.Sprintf(`(window.__mafia.state.view.seats || [])[%d].alive === false`, victim-1))
	if sp.Eventually(5*time.Second, `window.__mafia.state.view.phase === 'last_words'`) {
		clk.Advance(2 * time.Second)
	}
	webtest.WaitPhase(sp, 30*time.Second, "speech", 1, speaker)
	for _, kind := range []string{"suspect", "vouch"} {
		sp.Do(5*time.Second, browsertest.Click(chromedp.CSS(fmt.Sprintf(`button[data-say-kind=%q]`, kind))))
		sp.WaitJS(5*time.Second, fmt.Sprintf(`document.querySelectorAll('button[data-say=%q]').length > 0`, kind))
		offered := webtest.Eval[[]int](sp, fmt.Sprintf(`[...document.querySelectorAll('button[data-say=%q]')].map((b) => +b.dataset.target)`, kind))
		for _, s := range offered {
			if s == victim {
				t.Errorf("the speech offers to %s seat %d, out of the game: %v", kind, victim, offered)
			}
		}
		if len(offered) != 5 {
			t.Errorf("the speech offers to %s %v, want the 5 other living seats", kind, offered)
		}
		sp.Do(5*time.Second, browsertest.Click(chromedp.CSS(fmt.Sprintf(`button[data-say-kind=%q]`, kind))))
	}
	sp.Shot("d9-say-living-360")
}
