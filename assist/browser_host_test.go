package assist_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/record"
)

// host is the host's phone running the assistant.
type host struct {
	*tab
	ts        *testServer
	deadWakes int // wakes of cards out of the game
}

// openHost opens the assistant on a 360 px phone and waits for the engine.
func openHost(t *testing.T, ts *testServer, name string, opts ...chromedp.ContextOption) *host {
	t.Helper()
	tb := newTab(t, name, 360, 740, opts...)
	tb.do(30*time.Second, chromedp.Navigate(ts.URL+"/host/"))
	tb.waitJS(30*time.Second, `window.__assistReady === true`)
	return &host{tab: tb, ts: ts}
}

// gameSpec is what the setup screen is given.
type gameSpec struct {
	Names   []string
	Roles   []string          // for a deal by hand (and custom setups)
	Custom  map[string]int    // role counts for a custom setup
	Options map[string]string // house rules
	Deal    string            // links, pass, manual
	Timings map[string]int    // seconds
	Double  bool              // "Create" is double-tapped
}

// create fills the setup screen and creates the game; it returns the id.
func (h *host) create(g gameSpec) string {
	h.t.Helper()
	h.tap("new-game")
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	if g.Custom != nil {
		h.tap("size-custom")
		for r, n := range g.Custom {
			h.setValue(`[data-t="count-`+r+`"]`, strconv.Itoa(n))
		}
	} else {
		h.tap("size-" + strconv.Itoa(len(g.Names)))
	}
	h.click(`[data-t="deal-` + g.Deal + `"]`)
	for i, n := range g.Names {
		h.setValue(`[data-t="name-`+strconv.Itoa(i+1)+`"]`, n)
		if g.Deal == record.DealManual {
			h.setValue(`[data-t="role-`+strconv.Itoa(i+1)+`"]`, g.Roles[i])
		}
	}
	for k, v := range g.Options {
		h.setValue(`[data-t="opt-`+k+`"]`, v)
	}
	for k, v := range g.Timings {
		h.setValue(`[data-t="time-`+k+`"]`, strconv.Itoa(v))
	}
	if g.Double {
		h.doubleTap(`[data-t="create"]`)
	} else {
		h.tap("create")
	}
	h.waitJS(10*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame && location.hash === '#/game/' + window.__assistGame.rec.id`)
	return strings.TrimPrefix(eval[string](h.tab, `location.hash`), "#/game/")
}

// setValue sets an input's or a select's value as a person would, firing
// input and change events (the screens redraw on change).
func (h *host) setValue(sel, v string) {
	h.t.Helper()
	h.waitJS(5*time.Second, fmt.Sprintf(`!!document.querySelector(%q)`, sel))
	js := fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.value = %q;
		el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, sel, v)
	eval[bool](h.tab, js)
}

// state is the game's state as the page holds it.
func (h *host) state() record.State {
	h.t.Helper()
	s := eval[string](h.tab, `JSON.stringify(window.__assistGame.state)`)
	var st record.State
	if err := json.Unmarshal([]byte(s), &st); err != nil {
		h.t.Fatal(err)
	}
	return st
}

// screen returns what the page shows now: "announce", "deal", a wake
// ("wake:don"), "morning", a phase of the day, or "result".
func (h *host) screen() string {
	return eval[string](h.tab, `(() => {
		const q = (s) => document.querySelector(s);
		if (q('[data-t="announce"]')) return 'announce';
		if (q('[data-t="start-night"]') || q('[data-t="reveal"]') || q('[data-t="hide"]')) return 'deal';
		if (q('[data-t="result"]')) return 'result';
		const w = q('[data-t="wake"]');
		if (w) return 'wake:' + w.dataset.role;
		if (q('[data-t="morning"]')) return 'morning';
		const p = q('[data-t="phase"]');
		if (p) return p.dataset.phase;
		return 'other';
	})()`)
}

// pickSeat taps a seat in the grid on the screen.
func (h *host) pickSeat(s int) {
	h.t.Helper()
	h.click(`.seats [data-seat="` + strconv.Itoa(s) + `"]`)
}
