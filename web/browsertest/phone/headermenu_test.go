package phone

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web/internal/webtest"
)

// headerReport is a JavaScript expression: what is wrong with the header at
// the screen's width: a visible target under 44x44 px, two that overlap,
// two rows, a header wider than the screen, and a brand (the link home)
// not shown.
const headerReport = `(() => {
  const vw = document.documentElement.clientWidth;
  const top = document.querySelector('header.top');
  const bs = [...top.querySelectorAll('button, a')].filter((b) => b.offsetParent !== null && !b.closest('#settings')).map((b) => [b.id || b.className, b.getBoundingClientRect()]);
  const bad = [];
  for (const [n, r] of bs) if (r.height < 43.5 || r.width < 43.5) bad.push(n + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  for (let i = 0; i < bs.length; i++) for (let j = i + 1; j < bs.length; j++) {
    const a = bs[i][1], b = bs[j][1];
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) bad.push(bs[i][0] + ' overlaps ' + bs[j][0]);
  }
  if (new Set(bs.map(([, r]) => Math.round(r.top))).size > 1) bad.push('two rows');
  if (top.scrollWidth > vw || top.getBoundingClientRect().right > vw + 0.5) bad.push('header ' + top.scrollWidth + ' > ' + vw);
  const brand = top.querySelector('a.brand');
  if (!brand || brand.offsetParent === null || brand.getBoundingClientRect().width < 43.5) bad.push('no brand');
  if (!top.querySelector('#account-link') || top.querySelector('#account-link').offsetParent === null) bad.push('no account button');
  return bad.join('; ');
})()`

// panelReport is a JavaScript expression: what is wrong with the open
// settings panel: out of the screen, a target under 44 px high, a
// language's button under 44 px wide.
const panelReport = `(() => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const p = document.querySelector('#settings');
  if (!p || p.hidden) return 'closed';
  const bad = [];
  const r = p.getBoundingClientRect();
  if (r.left < 0 || r.right > vw + 0.5 || r.bottom > vh) bad.push('panel ' + Math.round(r.left) + '..' + Math.round(r.right) + ' bottom ' + Math.round(r.bottom));
  for (const b of p.querySelectorAll('button')) {
    const q = b.getBoundingClientRect();
    if (q.height < 43.5 || (b.dataset.lang && q.width < 43.5)) bad.push((b.id || b.dataset.lang) + ' ' + Math.round(q.width) + 'x' + Math.round(q.height));
    if (b.scrollWidth > b.clientWidth + 1) bad.push((b.id || b.dataset.lang) + ' cut');
  }
  if (document.documentElement.scrollWidth > vw) bad.push('page ' + document.documentElement.scrollWidth);
  return bad.join('; ');
})()`

// axButtons returns the page's buttons as a screen reader is told of them
// (Chromium's accessibility tree): "name [expanded=…] [pressed=…]" each.
func axButtons(p *webtest.Tab) []string {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, webtest.Slack*10*time.Second)
	defer cancel()
	var out []string
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		tree, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
		if err != nil {
			return err
		}
		for _, n := range tree.Nodes {
			if n.Ignored || n.Role == nil || axString(n.Role) != "button" || n.Name == nil {
				continue
			}
			s := axString(n.Name)
			for _, pr := range n.Properties {
				if pr.Name == accessibility.PropertyNameExpanded || pr.Name == accessibility.PropertyNamePressed {
					s += fmt.Sprintf(" %s=%s", pr.Name, axString(pr.Value))
				}
			}
			out = append(out, s)
		}
		return nil
	}))
	if err != nil {
		p.T.Fatalf("%s: the accessibility tree: %v", p.Name, err)
	}
	return out
}

// axString is an accessibility value as text (a string's, or the JSON of
// any other: true, false).
func axString(v *accessibility.Value) string {
	if v == nil {
		return ""
	}
	var s string
	if err := json.Unmarshal(v.Value, &s); err == nil {
		return s
	}
	return string(v.Value)
}

// TestBrowserTheHeaderKeepsTheBrandAndAMenuOfSettings (issue 28, item 4's
// remainder): at 360x740 with an account, in Georgian, English and
// Russian, the header shows the brand (the link home), the account, how to
// play and one settings button, each at least 44x44 px in one row; the
// language, sound and vibration switches are in the menu it opens. The
// menu works from the keyboard (Enter opens it, Tab reaches a language,
// Escape closes it and gives the focus back) and says to a screen reader
// what it is and whether it is open; its panel fits the screen with 44 px
// targets; a language chosen closes it; a tap outside closes it; the sound
// switch keeps it open and says its state.
func TestBrowserTheHeaderKeepsTheBrandAndAMenuOfSettings(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	base, _ := webtest.StartRatedSite(t)
	p := webtest.NewTab(t, "header", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(base+"/account"))
	webtest.SignUp(p, "Nino", "password1")
	p.WaitJS(10*time.Second, `location.pathname === '/players/Nino' && document.querySelector('#account-link').classList.contains('in')`)
	webtest.CreateTable(p, base, "Nino", 7, webtest.FastTimings)

	for _, l := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		cat := locale.New(l)
		p.Do(10*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		p.WaitJS(10*time.Second, fmt.Sprintf(`document.documentElement.lang === %q && document.querySelector('#settings').hidden`, l))
		if bad := webtest.Eval[string](p, headerReport); bad != "" {
			t.Errorf("%s: the header at 360 px: %s", l, bad)
		}
		p.Shot("header-closed-" + string(l) + "-360")
		name := cat.T("web.settings", nil)
		if bs := axButtons(p); !slices.Contains(bs, name+" expanded=false") {
			t.Errorf("%s: a screen reader is not told of a closed settings button %q: %q", l, name, bs)
		}

		// The keyboard: Enter opens, Tab goes into the panel, Escape
		// closes and gives the focus back.
		p.Do(5*time.Second, browsertest.Focus(chromedp.CSS("#settings-open")), chromedp.KeyEvent(kb.Enter))
		p.WaitJS(5*time.Second, `!document.querySelector('#settings').hidden && document.querySelector('#settings-open').getAttribute('aria-expanded') === 'true'`)
		if bad := webtest.Eval[string](p, panelReport); bad != "" {
			t.Errorf("%s: the open settings at 360 px: %s", l, bad)
		}
		bs := axButtons(p)
		for _, want := range []string{name + " expanded=true", "ქართული pressed=" + fmt.Sprint(l == locale.Ka), "English pressed=" + fmt.Sprint(l == locale.En),
			"Русский pressed=" + fmt.Sprint(l == locale.Ru), cat.T("web.mute", nil) + " pressed=false", cat.T("web.vibrate", nil) + " pressed=true"} {
			if !slices.Contains(bs, want) {
				t.Errorf("%s: with the menu open a screen reader is not told of %q: %q", l, want, bs)
			}
		}
		p.Shot("header-open-" + string(l) + "-360")
		p.Do(5*time.Second, chromedp.KeyEvent(kb.Tab))
		if got := webtest.Eval[string](p, `document.activeElement.dataset.lang || document.activeElement.id`); got != "ka" {
			t.Errorf("%s: Tab from the open menu's button goes to %q, want the first language", l, got)
		}
		p.Do(5*time.Second, chromedp.KeyEvent(kb.Escape))
		p.WaitJS(5*time.Second, `document.querySelector('#settings').hidden && document.activeElement === document.querySelector('#settings-open')`)

		// The sound switch keeps the menu open and says its state; a tap
		// outside closes the menu.
		p.Do(5*time.Second, webtest.TapSetting("#mute"))
		p.WaitJS(5*time.Second, `document.querySelector('#mute').getAttribute('aria-pressed') === 'true' && !document.querySelector('#settings').hidden`)
		p.Do(5*time.Second, webtest.TapSetting("#mute"))
		p.WaitJS(5*time.Second, `document.querySelector('#mute').getAttribute('aria-pressed') === 'false' && !document.querySelector('#settings').hidden`)
		p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#seats-h")))
		p.WaitJS(5*time.Second, `document.querySelector('#settings').hidden`)
	}

	// The brand takes the player to the lobby.
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("header .brand")))
	p.WaitJS(10*time.Second, `location.pathname === '/' && !!document.querySelector('#create')`)
	if bad := webtest.Eval[string](p, headerReport); bad != "" {
		t.Errorf("the lobby's header at 360 px: %s", bad)
	}
}
