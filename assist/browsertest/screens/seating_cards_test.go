package screens

import (
	"context"
	"mafia/assist/internal/hosttest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestTheSeatingCardsFitA4 (issue 29, paper for the evening): at 360x740 in
// Georgian the host fills in the seating form (twenty players, two tables,
// ten games each) with no sideways scroll and makes the cards; printed
// (print media at A4 portrait's width less the margins), the twenty cards
// stay inside the sheet, none has a name cut mid-word or a seat number
// over two lines, and counted on the printed cards every player plays ten
// games, in ten different seats.
func TestTheSeatingCardsFitA4(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	tb := hosttest.NewTab(t, "seating-cards", 360, 740)
	tb.Do(30*time.Second, hosttest.Navigate(ts.URL+"/host/seating?lang=ka"))
	tb.WaitJS(10*time.Second, `!!document.querySelector('[data-t="seating-form"]')`)
	tb.NoSideScroll("the seating form at 360 px")
	set := func(sel, v string) {
		t.Helper()
		hosttest.Eval[bool](tb, `(() => { document.querySelector(`+hosttest.JsString(sel)+`).value = `+hosttest.JsString(v)+`; return true; })()`)
	}
	set(`[data-t="seating-names"]`, strings.Join(hosttest.TwentyNames, "\n"))
	set(`[data-t="seating-tables"]`, "2")
	set(`[data-t="seating-games"]`, "10")
	// What the form's submit button sends (read from the form, then opened:
	// a navigation the test waits for, not a click racing it).
	sent := hosttest.Eval[string](tb, `(() => { const f = document.querySelector('[data-t="seating-form"]'); return f.action + '?' + new URLSearchParams(new FormData(f)); })()`)
	tb.Do(30*time.Second, hosttest.Navigate(sent))
	tb.WaitJS(30*time.Second, `document.querySelectorAll('.seating-card').length === 20`)
	tb.NoSideScroll("the seating cards at 360 px")

	// A4 portrait less 10 mm margins, at 96 px an inch: 190 mm.
	tb.Do(10*time.Second, chromedp.EmulateViewport(718, 1000), chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
		return err
	}))
	tb.WaitJS(5*time.Second, `getComputedStyle(document.querySelector('[data-t="seating-form"]')).display === 'none'`)
	if past := hosttest.Eval[[]string](tb, `[...document.querySelectorAll('.seating-card')].filter((c) => c.getBoundingClientRect().right > innerWidth + 0.5 || c.getBoundingClientRect().left < 0).map((c) => c.dataset.round + '/' + c.dataset.table)`); len(past) > 0 {
		t.Errorf("printed cards past the sheet's edge: %v", past)
	}
	if bad := hosttest.BrokenCells(tb, `.seating-card td.c-name, .seating-card th, .seating-card h2`, false); len(bad) > 0 {
		t.Errorf("printed cards cut mid-word: %v", bad)
	}
	if bad := hosttest.BrokenCells(tb, `.seating-card td.c-seat`, true); len(bad) > 0 {
		t.Errorf("printed seat numbers wrap: %v", bad)
	}
	counts := hosttest.Eval[map[string][]int](tb, `(() => {
		const out = {};
		for (const c of document.querySelectorAll('.seating-card')) {
			if (!c.offsetParent) continue;
			for (const tr of c.querySelectorAll('tbody tr')) {
				const name = tr.querySelector('.c-name').textContent, seat = +tr.querySelector('.c-seat').textContent;
				(out[name] = out[name] || []).push(seat);
			}
		}
		return out;
	})()`)
	for _, n := range hosttest.TwentyNames {
		seats := map[int]bool{}
		for _, s := range counts[n] {
			seats[s] = true
		}
		if len(counts[n]) != 10 || len(seats) != 10 {
			t.Errorf("%s: on %d printed cards in %d seat numbers; want 10 and 10", n, len(counts[n]), len(seats))
		}
	}
	tb.Shot("seating-cards-a4")
}
