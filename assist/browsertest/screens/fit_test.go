package screens

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestTheHostsPagesFitAPhoneAndTwoSheets checks, in Georgian (the longest
// words) at a phone's 360 px: the setup's house-rule dropdowns lie inside
// the screen, the club's history table and the printable protocol of a
// whole 11-player game scroll only up and down; and that protocol prints
// on one or two A4 sheets.
func TestTheHostsPagesFitAPhoneAndTwoSheets(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	h.SetValue(`[data-t="lang"]`, "ka")
	h.WaitJS(5*time.Second, `document.documentElement.lang === 'ka'`)

	// The setup, every section open.
	h.Tap("new-game")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	hosttest.Eval[bool](h.Tab, `(() => { document.querySelectorAll('details').forEach((d) => d.open = true); return true; })()`)
	out := hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('#screen select, #screen input')].filter((el) => {
		const r = el.getBoundingClientRect(); return r.width > 0 && (r.left < 0 || r.right > document.documentElement.clientWidth); })
		.map((el) => el.dataset.t + ' ' + Math.round(el.getBoundingClientRect().left) + '–' + Math.round(el.getBoundingClientRect().right))`)
	if len(out) > 0 {
		t.Errorf("the setup's fields stick out of the screen: %v", out)
	}
	// Every option of a dropdown can be read whole in it: the widest
	// option's text fits the select's box.
	narrow := hosttest.Eval[[]string](h.Tab, `(() => {
		const c = document.createElement('canvas').getContext('2d');
		const out = [];
		for (const s of document.querySelectorAll('#screen select')) {
			const cs = getComputedStyle(s);
			c.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
			const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16; // the arrow
			for (const o of s.options) if (c.measureText(o.text).width > room && s.getBoundingClientRect().height < 2 * parseFloat(cs.fontSize) * 1.2) out.push(s.dataset.t + ': ' + o.text);
		}
		return out; })()`)
	if len(narrow) > 0 {
		t.Errorf("dropdowns too narrow for their choices at 360 px: %v", narrow)
	}
	h.NoSideScroll("the setup")
	h.Shot("fit-setup-ka")
	h.Do(5*time.Second, chromedp.Navigate(ts.URL+"/host/#/"))
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="new-game"]')`)

	// A whole 11-player game.
	id := h.Create(hosttest.GameSpec{Names: []string{"ნინო", "გიორგი", "თამარი", "ლევანი", "ანა", "დავითი", "ეკატერინე", "ირაკლი", "სალომე", "ზურაბი", "ქეთევანი"},
		Deal: record.DealPass})
	h.Play(clubDriver())
	h.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="exports"]')`)

	// The club's history.
	h.Do(5*time.Second, chromedp.Navigate(ts.URL+"/host/#/"))
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="history"] tr[data-id]')`)
	h.NoSideScroll("the history")
	h.Shot("fit-history-ka")

	// The printable protocol, on the phone and on paper.
	h.Do(10*time.Second, hosttest.Navigate(ts.URL+"/host/games/"+id+"?lang=ka"))
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="winner"]')`)
	h.NoSideScroll("the printable protocol")
	h.Shot("fit-print-ka")
	var pdf []byte
	h.Do(30*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		yes := true
		r, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: 8.27, PaperHeight: 11.69, PreferCSSPageSize: &yes})
		pdf = r.Data
		return err
	}))
	// What the paper shows, for the eye: the page in print media at A4's width.
	h.Do(10*time.Second, chromedp.EmulateViewport(794, 1123), chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
		return err
	}))
	h.Shot("fit-print-ka-paper")
	t.Logf("%d rounds; the page in print media is %.0f px tall", hosttest.Eval[int](h.Tab, `document.querySelectorAll('.round').length`),
		hosttest.Eval[float64](h.Tab, `document.documentElement.scrollHeight`))
	pages := len(regexp.MustCompile(`/Type\s*/Page[^s]`).FindAll(pdf, -1))
	if pages < 1 || pages > 2 {
		t.Errorf("the protocol of an 11-player game prints on %d A4 pages, want 1 or 2", pages)
	}
	t.Logf("the protocol prints on %d A4 pages (%d bytes of PDF)", pages, len(pdf))
	hosttest.WriteArtifact(t, "fit-print-ka.pdf", pdf)
}

// clubDriver plays a game as a club's usually goes: the mafia kill every
// night, the checks and the maniac's shots are made, the doctor saves
// nobody; each day a mafioso (or the maniac) and a town player are
// nominated, and the town votes the first of them out.
func clubDriver() hosttest.Driver {
	bad := func(st record.State, s int) bool {
		r := st.Roles[s]
		return r == "mafia" || r == "don" || r == "maniac"
	}
	return hosttest.Driver{
		Night: func(st record.State, w record.Wake) int {
			for _, s := range w.Targets {
				switch w.Role {
				case "mafia":
					if r := st.Roles[s]; r != "mafia" && r != "don" {
						return s
					}
				case "don", "detective":
					return s
				case "maniac":
					if !bad(st, s) {
						return s
					}
				}
			}
			return 0
		},
		Nominate: func(st record.State) int {
			if len(st.Candidates) >= 2 {
				return 0
			}
			for _, s := range st.Nominate {
				if bad(st, s) == (len(st.Candidates) == 0) {
					return s
				}
			}
			return 0
		},
		Hands: func(st record.State, cand int) []int { return st.Pending },
	}
}
