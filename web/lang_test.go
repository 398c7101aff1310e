package web_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"mafia/engine"
	"mafia/locale"
)

// preferLanguage makes the tab's browser prefer the languages of an
// Accept-Language list (navigator.languages too).
func preferLanguage(tb *tab, accept string) {
	tb.t.Helper()
	ua := eval[string](tb, `navigator.userAgent`)
	tb.do(5*time.Second, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: accept})
		return err
	}))
}

func strconvQuote(s string) string { return strconv.Quote(s) }

var fieldRE = regexp.MustCompile(`\{\{\s*\.\w+\s*\}\}`)

// noEnglish fails the test when the page shows a sentence of the English
// catalog that the page's own language words differently: a string that
// did not come from the page's catalog. A page that has just changed its
// language is still drawing what comes after its reconnect (the chat so
// far, asked for after the welcome, in the new language): it is given up
// to ten seconds to show none, and then what it still shows is reported.
func noEnglish(tb *tab, lang locale.Lang) {
	tb.t.Helper()
	var found []string
	for deadline := time.Now().Add(slack * 10 * time.Second); ; {
		found = englishOn(eval[string](tb, `document.body.innerText`), lang)
		if len(found) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond) // polls the page, as waitJS does
	}
	for _, f := range found {
		tb.t.Errorf("%s: the page in %s shows English %s", tb.name, lang, f)
	}
}

// englishOn lists the English catalog's fixed words (each with its id) that
// text shows where lang words them differently.
func englishOn(text string, lang locale.Lang) []string {
	var found []string
	en, other := locale.Messages(locale.En), locale.Messages(lang)
	for id, forms := range en {
		if !strings.HasPrefix(id, "web.") && !strings.HasPrefix(id, "view.") && !strings.HasPrefix(id, "event.") {
			continue
		}
		for form, s := range forms {
			if s == other[id][form] || strings.HasPrefix(id, "web.lang_") {
				continue
			}
			// The fixed words between a message's fields.
			for _, part := range fieldRE.Split(s, -1) {
				part = strings.TrimSpace(strings.Trim(part, ".:,()"))
				if len(part) < 8 {
					continue
				}
				if strings.Contains(text, part) {
					found = append(found, fmt.Sprintf("%q (from %s)", part, id))
				}
			}
		}
	}
	return found
}

// TestBrowserLanguage: a browser that prefers Georgian gets the page in
// Georgian; the visible switch turns it to English and Russian, and the
// choice is remembered over a reload.
func TestBrowserLanguage(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	ts := startServer(t)
	p := newTab(t, "georgian", 360, 780)
	p.do(10*time.Second, chromedp.Navigate("about:blank"))
	preferLanguage(p, "ka-GE,ka;q=0.9,en;q=0.5")
	p.do(15*time.Second, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#create")))
	ka, en, ru := locale.New(locale.Ka), locale.New(locale.En), locale.New(locale.Ru)
	if got := eval[string](p, `document.documentElement.lang`); got != "ka" {
		t.Fatalf("a browser that prefers Georgian gets lang=%q", got)
	}
	for sel, id := range map[string]string{"#create-h": "web.create.heading", "#tables-h": "web.lobby.tables", "#create": "web.create.submit"} {
		if got, want := eval[string](p, `document.querySelector('`+sel+`').textContent`), ka.T(id, nil); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	if got, want := eval[string](p, `document.title`), ka.T("web.title", nil); got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	preset, _ := engine.Preset(11)
	if got, want := eval[string](p, `document.querySelector('#setup-summary').textContent`), ka.Setup(preset); got != want {
		t.Errorf("the setup's summary: %q, want %q", got, want)
	}
	noEnglish(p, locale.Ka)
	p.do(5*time.Second, chromedp.Click(chromedp.CSS("#more-opts summary")), chromedp.Click(chromedp.CSS("#more-times summary")))
	noEnglish(p, locale.Ka)
	p.shot("20-lobby-ka-360")

	p.do(10*time.Second, tapSetting(`button[data-lang="en"]`))
	p.waitJS(5*time.Second, `document.documentElement.lang === 'en'`)
	if got, want := eval[string](p, `document.querySelector('#create-h').textContent`), en.T("web.create.heading", nil); got != want {
		t.Errorf("after the switch to English: %q, want %q", got, want)
	}
	p.do(10*time.Second, tapSetting(`button[data-lang="ru"]`))
	p.waitJS(5*time.Second, `document.documentElement.lang === 'ru'`)
	p.do(15*time.Second, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#create")))
	if got, want := eval[string](p, `document.querySelector('#create-h').textContent`), ru.T("web.create.heading", nil); got != want {
		t.Errorf("after a reload the choice of Russian is lost: %q, want %q", got, want)
	}
	if got := eval[string](p, `document.querySelector('button[data-lang="ru"]').getAttribute('aria-pressed')`); got != "true" {
		t.Errorf("the switch does not show Russian as chosen: aria-pressed=%q", got)
	}
	noEnglish(p, locale.Ru)
	p.shot("21-lobby-ru-360")
	// The lobby's entry to the host's assistant for a game at a real table.
	if got, want := eval[string](p, `document.querySelector('#host-in-person').textContent`), ru.T("web.lobby.in_person", nil); got != want {
		t.Errorf("the in-person entry: %q, want %q", got, want)
	}
	if got := eval[string](p, `new URL(document.querySelector('#host-in-person').href).pathname`); got != "/host/" {
		t.Errorf("the in-person entry leads to %q, want /host/", got)
	}

	// A link to a table that does not exist says so.
	p.expect("404")
	p.do(15*time.Second, chromedp.Navigate(ts.URL+"/t/00000000deadbeef"))
	p.waitJS(10*time.Second, `document.querySelector('#t-head') && document.querySelector('#t-head').textContent.includes(`+
		strconvQuote(ru.T("error.not_found", nil))+`)`)
}
