package screens

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/locale"
)

// TestTheCSVColumnsAreNamedInTheReadersLanguage checks that the CSV's
// header row is the catalogs' names of its columns, in the language asked
// for.
func TestTheCSVColumnsAreNamedInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	hosttest.PlayTie(t, ts, c)
	for _, l := range locale.Langs() {
		p := locale.New(l)
		req, _ := http.NewRequest("GET", ts.URL+"/host/api/games/"+c.ID+"/protocol.csv?lang="+string(l), nil)
		req.Header.Set("Authorization", "Bearer "+c.HostToken)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		rows := hosttest.ReadCSV(t, res.Body)
		res.Body.Close()
		want := []string{p.T("assist.csv.game", nil)}
		for _, col := range record.CSVHeader {
			want = append(want, p.T("assist.csv."+col, nil))
		}
		if !slices.Equal(rows[0], want) {
			t.Errorf("%s: the header row is %q, want %q", l, rows[0], want)
		}
		if l != locale.En && slices.Equal(rows[0][1:], record.CSVHeader) {
			t.Errorf("%s: the header row is the column ids", l)
		}
	}
}

// TestTheStartUpFailureScreenSaysASentence starts the host's page with the
// engine module blocked, and with the phone's storage refused: each time
// the page says what happened in a sentence of the catalogs, in the page's
// language, with a button to reload, never a raw error.
func TestTheStartUpFailureScreenSaysASentence(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	for _, tc := range []struct {
		name    string
		prepare chromedp.Action[chromedp.Void]
		id      string
	}{
		{"the engine does not load", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
				return err
			}
			_, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/host/static/*/engine.wasm", Block: true}}})
			return err
		}), "assist.boot.engine_failed"},
		{"the phone keeps no games", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
				Source: `IDBFactory.prototype.open = function () { throw new DOMException('The user denied permission to access the database.', 'SecurityError'); };`})
			return err
		}), "assist.storage.unavailable"},
	} {
		for _, l := range []locale.Lang{locale.Ka, locale.Ru, locale.En} {
			t.Run(tc.name+"/"+string(l), func(t *testing.T) {
				t.Parallel() // each on its own page
				p := locale.New(l)
				tb := hosttest.NewTab(t, "host", 360, 740)
				tb.Do(10*time.Second, tc.prepare)
				tb.Do(30*time.Second, chromedp.Navigate(ts.URL+"/host/?lang="+string(l)))
				// The page has started, or says why not.
				tb.WaitJS(30*time.Second, `!!document.querySelector('[data-t="boot-failed"]') || !!window.__assistReady ||
					(!!document.getElementById('boot') && document.getElementById('boot').textContent !== `+strconv.Quote(p.T("assist.loading", nil))+`)`)
				got := hosttest.Eval[string](tb, `(document.querySelector('[data-t="boot-failed"] .error') || document.getElementById('app')).textContent`)
				if want := p.T(tc.id, nil); got != want {
					t.Errorf("the failure screen says %q, want %q", got, want)
				}
				txt := tb.Text()
				for _, bad := range []string{"Error", "error", "wasm", "undefined", "assist."} {
					if strings.Contains(txt, bad) {
						t.Errorf("the failure screen shows %q:\n%s", bad, txt)
					}
				}
				if b := hosttest.Eval[string](tb, `(document.querySelector('[data-t="reload"]') || {}).textContent || ''`); b != p.T("assist.boot.reload", nil) {
					t.Errorf("the reload button says %q", b)
				}
				tb.Shot("boot-failed-" + string(l))
			})
		}
	}
}

// TestTheLanguageSwitchShowsLanguageNames checks the language switches of
// the host's page, the card page and the printable protocol: each language
// by its own name, never its code.
func TestTheLanguageSwitchShowsLanguageNames(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	want := []string{"English", "ქართული", "Русский"}
	h := hosttest.OpenHost(t, ts, "host")
	got := hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('[data-t="lang"] option')].map((o) => o.value + '=' + o.textContent)`)
	if w := []string{"ka=ქართული", "en=English", "ru=Русский"}; !slices.Equal(got, w) {
		t.Errorf("the host's language switch shows %q, want %q", got, w)
	}
	h.SetValue(`[data-t="lang"]`, "ru")
	h.WaitJS(5*time.Second, `document.documentElement.lang === 'ru'`)
	got = hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('[data-t="lang"] option')].map((o) => o.textContent)`)
	if w := []string{"ქართული", "English", "Русский"}; !slices.Equal(got, w) {
		t.Errorf("in Russian the switch shows %q, want %q", got, w)
	}

	c := hosttest.Create7(t, ts, record.DealManual)
	hosttest.PlayTie(t, ts, c)
	h.Do(10*time.Second, chromedp.Navigate(ts.URL+"/host/card/"+c.ID+"/1?lang=ka"))
	h.WaitJS(5*time.Second, `document.querySelectorAll('.langs a').length === 3`)
	got = hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('.langs a')].map((a) => a.innerText.trim())`)
	if !slices.Equal(got, want) {
		t.Errorf("the card page's language links show %q, want %q", got, want)
	}
	// The printable protocol of a game still going on is the host's.
	req, _ := http.NewRequest("GET", ts.URL+"/host/games/"+c.ID+"?lang=ka", nil)
	req.Header.Set("Authorization", "Bearer "+c.HostToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, l := range []string{"en=English", "ka=ქართული", "ru=Русский"} {
		code, name, _ := strings.Cut(l, "=")
		if a := fmt.Sprintf(`data-lang="%s">%s</a>`, code, name); !strings.Contains(string(b), a) {
			t.Errorf("the printable protocol has no link %s:\n%s", a, b)
		}
	}
}
