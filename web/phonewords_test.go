package web_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/engine"
	"mafia/locale"
	"mafia/room"
	"mafia/server"
)

// Issue 28, defect 6 (the rest): the deal's card drawn once, the chat's
// placeholders whole at 360 px in every language, dates in the reader's
// language. (The English tally's capital is pinned in table_test.go.)

// fitsInput is a script that says whether text, in #chat-input's font,
// fits inside the box (its width less its padding).
func fitsInput(text string) string {
	return fmt.Sprintf(`(() => {
  const i = document.querySelector('#chat-input');
  if (!i || !i.clientWidth) return false;
  const cs = getComputedStyle(i);
  const c = document.createElement('canvas').getContext('2d');
  c.font = cs.fontStyle + ' ' + cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
  return c.measureText(%q).width <= i.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
})()`, text)
}

// TestBrowserTheDealDrawsTheCardOnceAndPlaceholdersFit: at night 1 a
// mafioso's page shows the card's name once and what it does once (the
// deal's announcement and the card were two cards); every chat's
// placeholder fits its box at 360 px in Georgian, English and Russian
// (the Russian dead chat's was cut off).
func TestBrowserTheDealDrawsTheCardOnceAndPlaceholdersFit(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	// Night 1 lasts until the test moves the clock, which it never does.
	clk := room.NewFakeClock(time.Now())
	ts := startServerWith(t, func(c *server.Config) { c.SeatsPerAddress = -1; c.Clock = clk })
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	pt := newPeopleTable(ctx, t, ts, "The deal", 7, nil, map[string]int64{
		"night": 60_000, "speech": 40_000, "defence": 2_000, "tie_speech": 2_000, "last_words": 2_000, "vote": 3_000})
	m := pt.seatsWith(engine.Mafioso, engine.Don)[0]
	for s := 1; s <= 7; s++ {
		if s != m {
			pt.play(s, passer)
		}
	}
	mp := newTab(t, "deal", 360, 740)
	pt.open(mp, m)
	waitPhase(mp, 10*time.Second, "night", 1, 0)
	mp.waitJS(5*time.Second, `!!document.querySelector('#deal') && !!document.querySelector('#my-card')`)
	help := locale.New(locale.En).T("web.role_help."+pt.roles[m-1].String(), nil)
	if n := eval[int](mp, fmt.Sprintf(`document.body.innerText.split(%q).length - 1`, help)); n != 1 {
		t.Errorf("at the deal what the card does is written %d times, want once:\n%s", n, mp.text())
	}
	if n := eval[int](mp, `document.querySelectorAll('.card-role, .deal-role').length`); n != 1 {
		t.Errorf("at the deal the card's name is drawn %d times, want once", n)
	}
	mp.shot("d6-deal-once-360")
	// The × on the deal: the card then says what it does. Tapped from the
	// page (a tap aimed from the test may land while the night's clock
	// redraws the announcement, and be lost: it failed so in CI).
	mp.waitJS(10*time.Second, `(() => { const b = document.querySelector('#deal button'); if (b) b.click(); return !document.querySelector('#deal'); })()`)
	if !mp.eventually(5*time.Second, fmt.Sprintf(`!document.querySelector('#deal') && (document.querySelector('#my-card .card-help') || {}).textContent === %q`, help)) {
		t.Errorf("with the deal closed the card does not say what it does:\n%s", mp.text())
	}

	for _, l := range []locale.Lang{locale.Ru, locale.En, locale.Ka} {
		mp.do(10*time.Second, tapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		mp.waitJS(10*time.Second, fmt.Sprintf(`document.documentElement.lang === %q && !!document.querySelector('#chat-input')`, l))
		tr := locale.New(l)
		for _, ch := range []string{"town", "mafia", "dead"} {
			text := tr.T("web.chat.placeholder_"+ch, nil)
			if !mp.eventually(3*time.Second, fitsInput(text)) {
				t.Errorf("%s: the %s chat's placeholder %q is cut off at 360 px (box %d px)", l, ch, text,
					eval[int](mp, `document.querySelector('#chat-input').clientWidth`))
			}
		}
	}
	mp.shot("d6-placeholder-ka-360")
}

// TestBrowserProfileDatesInTheReadersLanguage: a player's recent game is
// dated in the page's language (it was 12/5/2026 in all three).
func TestBrowserProfileDatesInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	base, _ := startAccountsSite(t)
	p := newTab(t, "dates", 360, 740)
	p.do(15*time.Second, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#account-link")),
		chromedp.Click(chromedp.CSS("#account-link")), chromedp.WaitVisible(chromedp.CSS("#account-form")))
	p.do(5*time.Second, chromedp.Click(chromedp.CSS("#account-switch")), chromedp.WaitVisible(chromedp.CSS("#acct-name")))
	p.do(5*time.Second, chromedp.Click(chromedp.CSS("#account-switch")))
	signUp(p, "Nino", "password1")
	p.waitJS(10*time.Second, `location.pathname === '/players/Nino' && !!document.querySelector('#played')`)
	table := createTable(p, base, "Dated", 7, fastTimings)
	startWithBots(p)
	playToTheEnd(p)
	p.do(10*time.Second, chromedp.Click(chromedp.CSS("#account-link")))
	p.waitJS(10*time.Second, `!!document.querySelector('#recent li[data-table="`+table+`"] time')`)
	script := map[locale.Lang]*regexp.Regexp{
		locale.En: regexp.MustCompile(`^[A-Z][a-z]+ \d{1,2}, \d{4}$`),
		locale.Ka: regexp.MustCompile(`\p{Georgian}|^\d{2}\.\d{2}\.\d{4}$`),
		locale.Ru: regexp.MustCompile(`\p{Cyrillic}`),
	}
	for _, l := range []locale.Lang{locale.En, locale.Ka, locale.Ru} {
		p.do(10*time.Second, tapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		p.waitJS(10*time.Second, fmt.Sprintf(`document.documentElement.lang === %q && !!document.querySelector('#recent time')`, l))
		got := eval[string](p, `document.querySelector('#recent time').textContent`)
		if !script[l].MatchString(got) {
			t.Errorf("%s: the recent game is dated %q, not in the page's language", l, got)
		}
		p.shot("d6-profile-date-" + string(l) + "-360")
	}
}
