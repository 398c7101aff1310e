package webtest

import (
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
)

// SlowNight keeps the game at night 1 while the pages are checked.
var SlowNight = map[string]string{"night": "600", "speech": "5", "vote": "2"}

// JoinTable opens an invite link and takes a seat with a name.
func JoinTable(tb *Tab, url, name string) {
	tb.T.Helper()
	tb.Do(15*time.Second,
		chromedp.Navigate(url),
		browsertest.WaitVisible(chromedp.CSS("#join-name")),
		browsertest.SendKeys(chromedp.CSS("#join-name"), name),
		browsertest.Click(chromedp.CSS("#join")),
		browsertest.WaitVisible(chromedp.CSS("#seated")),
	)
}

// MySeat returns the seat the page says is its own.
func MySeat(tb *Tab) int {
	tb.T.Helper()
	return Eval[int](tb, `+(document.querySelector('.seat.me') || {dataset: {seat: 0}}).dataset.seat`)
}
