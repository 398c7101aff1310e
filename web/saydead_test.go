package web_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/engine"
	"mafia/room"
	"mafia/server"
)

// Issue 28, defect 9: a statement names no seat out of the game.

// TestBrowserASuspicionNamesOnlyTheLiving: after the night's victim is out,
// a player's own speech offers to suspect or vouch for the seats still in
// the game only.
func TestBrowserASuspicionNamesOnlyTheLiving(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	clk := room.NewFakeClock(time.Now())
	ts := startServerWith(t, func(c *server.Config) { c.SeatsPerAddress = -1; c.Clock = clk })
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	pt := newPeopleTable(ctx, t, ts, "Say of the living", 7, nil, map[string]int64{
		"night": 30_000, "speech": 40_000, "defence": 2_000, "tie_speech": 2_000, "last_words": 2_000, "vote": 3_000})
	don := pt.seatsWith(engine.Don)[0]
	var victim, speaker int
	for s := 1; s <= 7; s++ {
		if !pt.roles[s-1].IsMafia() {
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
			pt.play(s, with(kills(victim, 1)))
		default:
			pt.play(s, passer)
		}
	}
	sp := newTab(t, "speaker", 360, 740)
	pt.open(sp, speaker)
	waitPhase(sp, 15*time.Second, "night", 1, 0)
	clk.Advance(30 * time.Second) // past the night
	sp.waitJS(20*time.Second, fmt.Sprintf(`(window.__mafia.state.view.seats || [])[%d].alive === false`, victim-1))
	if sp.eventually(5*time.Second, `window.__mafia.state.view.phase === 'last_words'`) {
		clk.Advance(2 * time.Second)
	}
	waitPhase(sp, 30*time.Second, "speech", 1, speaker)
	for _, kind := range []string{"suspect", "vouch"} {
		sp.do(5*time.Second, chromedp.Click(chromedp.CSS(fmt.Sprintf(`button[data-say-kind=%q]`, kind))))
		sp.waitJS(5*time.Second, fmt.Sprintf(`document.querySelectorAll('button[data-say=%q]').length > 0`, kind))
		offered := eval[[]int](sp, fmt.Sprintf(`[...document.querySelectorAll('button[data-say=%q]')].map((b) => +b.dataset.target)`, kind))
		for _, s := range offered {
			if s == victim {
				t.Errorf("the speech offers to %s seat %d, out of the game: %v", kind, victim, offered)
			}
		}
		if len(offered) != 5 {
			t.Errorf("the speech offers to %s %v, want the 5 other living seats", kind, offered)
		}
		sp.do(5*time.Second, chromedp.Click(chromedp.CSS(fmt.Sprintf(`button[data-say-kind=%q]`, kind))))
	}
	sp.shot("d9-say-living-360")
}
