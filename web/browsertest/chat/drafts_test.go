package chat

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/engine"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/room"
	"mafia/server"
	"mafia/web/internal/webtest"
)

// Issue 28, defect 1: text goes only to the chat it was typed for.

// TestBrowserADraftStaysInItsChat: a mafioso's plan typed in the mafia's
// chat at night and not sent is not in the town's box at their day speech,
// and the page says it was not sent when the night ends; last words typed
// as the floor closes are not in the dead's box, and the page says they
// were not sent. Nothing of either reaches anyone.
func TestBrowserADraftStaysInItsChat(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	clk := room.NewFakeClock(time.Now())
	ts := webtest.StartServerWith(t, func(c *server.Config) { c.SeatsPerAddress = -1; c.Clock = clk })
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	pt := webtest.NewPeopleTable(ctx, t, ts, "Drafts", 11, nil, map[string]int64{
		"night": 30_000, "speech": 40_000, "defence": 2_000, "tie_speech": 2_000, "last_words": 20_000, "vote": 3_000})
	m := pt.SeatsWith(engine.Mafioso)[0] // not the Don: the Don (played from Go) names the victim
	don := pt.SeatsWith(engine.Don)[0]
	victim := 0
	for s := 1; s <= 11 && victim == 0; s++ {
		if !pt.Roles[s-1].IsMafia() {
			victim = s
		}
	}
	for s := 1; s <= 11; s++ {
		switch s {
		case m, victim:
		case don:
			pt.Play(s, webtest.With(webtest.Kills(victim, 1)))
		default:
			pt.Play(s, webtest.Passer)
		}
	}
	mp := webtest.NewTab(t, "mafioso", 360, 740)
	vp := webtest.NewTab(t, "victim", 360, 740)
	pt.Open(mp, m)
	pt.Open(vp, victim)
	en := locale.New(locale.En)
	composer := func(ch string) string {
		return fmt.Sprintf(`(() => { const i = document.querySelector('#chat-input'); return !i.disabled && i.dataset.channel === %q; })()`, ch)
	}
	value := `document.querySelector('#chat-input').value`
	unsent := func(ch string) string {
		return fmt.Sprintf(`(() => { const n = document.querySelector('#chat-unsent'); return !!n && !n.hidden && n.offsetParent !== null && n.textContent === %q; })()`,
			en.T("web.chat.unsent_"+ch, nil))
	}

	// Night 1: the mafioso types a plan in the mafia's chat, unsent.
	webtest.WaitPhase(mp, 15*time.Second, "night", 1, 0)
	mp.WaitJS(10*time.Second, composer("mafia"))
	plan := fmt.Sprintf("seat %d tonight, he is the host", victim)
	mp.Do(5*time.Second, browsertest.SendKeys(chromedp.CSS("#chat-input"), plan))
	clk.Advance(30 * time.Second) // past the night's end

	// The morning: the victim's last words, typed and not sent.
	webtest.WaitPhase(vp, 30*time.Second, "last_words", 1, victim)
	if !mp.Eventually(5*time.Second, unsent("mafia")) {
		t.Errorf("the night ended under the mafioso's draft and the page does not say it was not sent: %q",
			webtest.Eval[string](mp, `document.querySelector('#t-chat').innerText`))
	}
	vp.WaitJS(10*time.Second, composer("town"))
	words := "avenge me, town"
	vp.Do(5*time.Second, browsertest.SendKeys(chromedp.CSS("#chat-input"), words))
	clk.Advance(20 * time.Second) // past the last words
	vp.WaitJS(20*time.Second, composer("dead"))
	if got := webtest.Eval[string](vp, value); got != "" {
		t.Errorf("the dead's box holds the last words typed for the town: %q", got)
	}
	if !vp.Eventually(5*time.Second, unsent("town")) {
		t.Errorf("the floor closed under the last words and the page does not say they were not sent: %q",
			webtest.Eval[string](vp, `document.querySelector('#t-chat').innerText`))
	}
	vp.Shot("d1-last-words-unsent-360")

	// Day 1: the mafioso's own speech: the town's box is empty.
	webtest.WaitPhase(mp, 45*time.Second, "speech", 1, m)
	mp.WaitJS(10*time.Second, composer("town"))
	if got := webtest.Eval[string](mp, value); got != "" {
		t.Errorf("at the day speech the town's box holds the mafia's plan: %q", got)
	}
	mp.Shot("d1-speech-box-empty-360")
	for s := 1; s <= 11; s++ {
		for _, txt := range []string{plan, words} {
			for _, ch := range []string{"town", "dead", "mafia"} {
				if pt.Seats[s-1].Heard(ch, m, txt) || pt.Seats[s-1].Heard(ch, victim, txt) {
					t.Errorf("seat %d was sent the unsent %q in the %s chat", s, txt, ch)
				}
			}
		}
	}
}
