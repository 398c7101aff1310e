package webtest

import (
	"strconv"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
)

// FastTimings are the create form's timings in seconds: short steps, and
// speeches that the page ends with its own button.
var FastTimings = map[string]string{
	"speech": "5", "defence": "5", "tie_speech": "5", "last_words": "5", "night": "0.5", "vote": "1.5",
}

// CreateTable fills the lobby's form as a player would and creates a table
// of n players (a preset), its bots at the form's first pace (like people);
// it returns at the new table's page, seated.
func CreateTable(tb *Tab, base, name string, players int, timings map[string]string) string {
	tb.T.Helper()
	return createTableAt(tb, base, name, players, timings, "")
}

// createTableAt is createTable with the bots' pace chosen in the form ("":
// the form's first).
func createTableAt(tb *Tab, base, name string, players int, timings map[string]string, pace string) string {
	tb.T.Helper()
	return CreateTableWith(tb, base, name, players, timings, pace, nil)
}

// CreateTableWith is createTableAt with rules options chosen in the form
// (by the rulebook's names: "first_night": "meeting").
func CreateTableWith(tb *Tab, base, name string, players int, timings map[string]string, pace string, options map[string]string) string {
	tb.T.Helper()
	tb.Do(15*time.Second,
		chromedp.Navigate(base+"/"),
		browsertest.WaitVisible(chromedp.CSS("#create")),
		browsertest.SendKeys(chromedp.CSS("#your-name"), name),
		browsertest.SendKeys(chromedp.CSS("#create-name"), name+"'s table"),
		browsertest.SetValue(chromedp.CSS("#players"), strconv.Itoa(players)),
	)
	for k, v := range timings {
		tb.Do(5*time.Second, browsertest.SetValue(chromedp.CSS("#time-"+k), v))
	}
	if pace != "" {
		tb.Do(5*time.Second, browsertest.SetValue(chromedp.CSS("#pace"), pace))
	}
	for k, v := range options {
		tb.Do(5*time.Second, browsertest.SetValue(chromedp.CSS("#opt-"+k), v))
	}
	tb.Do(15*time.Second,
		browsertest.Click(chromedp.CSS("#create")),
		browsertest.WaitVisible(chromedp.CSS("#seated")),
	)
	return tb.TableOf()
}

// Autoplay is one step of a player who plays every move the page offers:
// it clicks one of the offered buttons, as a finger would, and says which.
const Autoplay = `(() => {
  if (document.querySelector('#winner')) return 'over';
  const act = document.querySelector('#t-act');
  if (!act || act.hidden) return '';
  const all = (sel) => [...act.querySelectorAll(sel)].filter((b) => !b.disabled);
  const any = (sel) => { const bs = all(sel); return bs.length ? bs[Math.floor(Math.random() * bs.length)] : null; };
  const b = any('button[data-verb=nominate]') || any('button[data-verb=pass]') || any('button[data-verb=vote]') ||
    any('button[data-verb=all_vote]') || any('button[data-verb=kill],button[data-verb=check],button[data-verb=shoot],button[data-verb=heal]') ||
    any('button[data-verb=skip]');
  if (!b) return '';
  b.click();
  return b.dataset.verb;
})()`
