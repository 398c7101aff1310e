package review

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/engine"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web/internal/webtest"
)

// TestBrowserLanguage: a browser that prefers Georgian gets the page in
// Georgian; the visible switch turns it to English and Russian, and the
// choice is remembered over a reload.
func TestBrowserLanguage(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "georgian", 360, 780)
	p.Do(10*time.Second, chromedp.Navigate("about:blank"))
	webtest.PreferLanguage(p, "ka-GE,ka;q=0.9,en;q=0.5")
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/"), browsertest.WaitVisible(chromedp.CSS("#create")))
	ka, en, ru := locale.New(locale.Ka), locale.New(locale.En), locale.New(locale.Ru)
	if got := webtest.Eval[string](p, `document.documentElement.lang`); got != "ka" {
		t.Fatalf("a browser that prefers Georgian gets lang=%q", got)
	}
	for sel, id := range map[string]string{"#create-h": "web.create.heading", "#tables-h": "web.lobby.tables", "#create": "web.create.submit"} {
		if got, want := webtest.Eval[string](p, `document.querySelector('`+sel+`').textContent`), ka.T(id, nil); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	if got, want := webtest.Eval[string](p, `document.title`), ka.T("web.title", nil); got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	preset, _ := engine.Preset(11)
	if got, want := webtest.Eval[string](p, `document.querySelector('#setup-summary').textContent`), ka.Setup(preset); got != want {
		t.Errorf("the setup's summary: %q, want %q", got, want)
	}
	webtest.NoEnglish(p, locale.Ka)
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#more-opts summary")), browsertest.Click(chromedp.CSS("#more-times summary")))
	webtest.NoEnglish(p, locale.Ka)
	p.Shot("20-lobby-ka-360")

	p.Do(10*time.Second, webtest.TapSetting(`button[data-lang="en"]`))
	p.WaitJS(5*time.Second, `document.documentElement.lang === 'en'`)
	if got, want := webtest.Eval[string](p, `document.querySelector('#create-h').textContent`), en.T("web.create.heading", nil); got != want {
		t.Errorf("after the switch to English: %q, want %q", got, want)
	}
	p.Do(10*time.Second, webtest.TapSetting(`button[data-lang="ru"]`))
	p.WaitJS(5*time.Second, `document.documentElement.lang === 'ru'`)
	p.Do(15*time.Second, chromedp.Reload(), browsertest.WaitVisible(chromedp.CSS("#create")))
	if got, want := webtest.Eval[string](p, `document.querySelector('#create-h').textContent`), ru.T("web.create.heading", nil); got != want {
		t.Errorf("after a reload the choice of Russian is lost: %q, want %q", got, want)
	}
	if got := webtest.Eval[string](p, `document.querySelector('button[data-lang="ru"]').getAttribute('aria-pressed')`); got != "true" {
		t.Errorf("the switch does not show Russian as chosen: aria-pressed=%q", got)
	}
	webtest.NoEnglish(p, locale.Ru)
	p.Shot("21-lobby-ru-360")
	// The lobby's entry to the host's assistant for a game at a real table.
	if got, want := webtest.Eval[string](p, `document.querySelector('#host-in-person').textContent`), ru.T("web.lobby.in_person", nil); got != want {
		t.Errorf("the in-person entry: %q, want %q", got, want)
	}
	if got := webtest.Eval[string](p, `new URL(document.querySelector('#host-in-person').href).pathname`); got != "/host/" {
		t.Errorf("the in-person entry leads to %q, want /host/", got)
	}

	// A link to a table that does not exist says so.
	p.Expect("404")
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/t/00000000deadbeef"))
	p.WaitJS(10*time.Second, `document.querySelector('#t-head') && document.querySelector('#t-head').textContent.includes(`+
		webtest.StrconvQuote(ru.T("error.not_found", nil))+`)`)
}
