package assist_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"mafia/assist/record"
)

// doubleTap taps the element sel finds twice at its centre, as a double
// tap does: two presses in a row at one point, the second with a click
// count of 2, with nothing in between (the page draws whatever the first
// tap does before the second press, as on a phone).
func (h *host) doubleTap(sel string) {
	h.t.Helper()
	h.waitJS(5*time.Second, `!!document.querySelector(`+jsString(sel)+`)`)
	xy := eval[[]float64](h.tab, `(() => {
		const el = document.querySelector(`+jsString(sel)+`);
		let r = el.getBoundingClientRect();
		if (r.bottom > innerHeight || r.top < 0) { el.scrollIntoView({block: 'center'}); r = el.getBoundingClientRect(); }
		return [r.x + r.width / 2, r.y + r.height / 2];
	})()`)
	h.do(5*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		for _, n := range []int64{1, 2} {
			for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
				buttons := int64(1)
				if typ == input.DispatchMouseEventTypeMouseReleased {
					buttons = 0
				}
				if _, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
					Type: typ, X: xy[0], Y: xy[1], Button: input.MouseButtonLeft, Buttons: buttons, ClickCount: n,
				}); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	h.settle()
}

// entryCount is how many entries the page's game holds.
func (h *host) entryCount() int { return eval[int](h.tab, `window.__assistGame.rec.commands.length`) }

// calm checks that the page shows no refusal: a tap that did nothing says
// nothing alarming.
func (h *host) calm(what string) {
	h.t.Helper()
	if eval[bool](h.tab, `(() => { const t = document.getElementById('toast'); return !!t && t.classList.contains('show') && t.classList.contains('error'); })()`) {
		h.t.Errorf("%s: the page shows a refusal: %s", what, eval[string](h.tab, `document.getElementById('toast').textContent`))
	}
}

// TestADoubleTapActsOnce double-taps the controls whose second tap would
// act again: "Create the game", the card to reveal when the phone is
// passed round, a night role's "skip", "Nominate", "End" of a speech, a
// foul in the fouls panel and "Confirm hands" (with hands and without). Each time only the
// first tap acts (one entry, or one screen on), and the page says nothing
// alarming about the second.
func TestADoubleTapActsOnce(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	h := openHost(t, ts, "host")
	// A tall phone: every control of the game is on screen without
	// scrolling (a new screen starts at the top), so the second tap lands
	// where the first did, whatever the first draws.
	h.do(5*time.Second, chromedp.EmulateViewport(360, 1400))
	// Names of one length: the screens of one kind are laid out alike.
	// A double tap on "Create the game" makes one game.
	h.create(gameSpec{Names: []string{"Nino", "Keti", "Zura", "Dato", "Lika", "Gela", "Tako"}, Deal: record.DealPass, Double: true})
	if n := tableCount(t, ts); n != 1 {
		t.Errorf("a double tap on Create made %d games", n)
	}

	// The deal: a double tap on "tap to see your card" shows seat 1's card
	// and leaves it shown (a second tap would hide it and pass the phone on).
	h.doubleTap(`[data-t="reveal"]`)
	if !h.exists("hide") || eval[int](h.tab, `window.__assistGame.rec.ui.pass.seat`) != 1 {
		t.Errorf("a double tap on the hidden card: seat %d's card, %q shown", eval[int](h.tab, `window.__assistGame.rec.ui.pass.seat`), h.screen())
	}
	h.calm("reveal")
	h.deal()

	// Night 1: the mafia choose; a double tap on the Don's "skip" skips his
	// check only, and the detective's wake comes next, not yet acted on.
	st := h.state()
	w := st.Night.Wakes[0]
	if w.Role != "mafia" || len(w.Targets) == 0 {
		t.Fatalf("the first wake is %+v", w)
	}
	h.pickSeat(w.Targets[0])
	h.tap("confirm")
	h.settle()
	if got := h.screen(); got != "wake:don" {
		t.Fatalf("after the mafia the page shows %q", got)
	}
	n := h.entryCount()
	h.doubleTap(`[data-t="skip"]`)
	if got := h.screen(); got != "wake:detective" || h.entryCount() != n+1 {
		t.Errorf("a double tap on the Don's skip: %d entries (want %d), the page shows %q", h.entryCount(), n+1, got)
	}
	if det := h.state().Night.Wakes[2]; det.Acted {
		t.Errorf("a double tap on the Don's skip skipped the detective too: %+v", det)
	}
	h.calm("skip")

	d := townDriver()
	d.stop = func(st record.State) bool { return st.Phase == "speech" }
	h.play(d)

	// Day 1, the first speech: a double tap on "Nominate" opens the choice
	// and nominates nobody.
	st = h.state()
	first := st.Speaker
	n = h.entryCount()
	h.doubleTap(`[data-t="nominate"]`)
	if h.entryCount() != n || !h.exists("cancel") {
		t.Errorf("a double tap on Nominate: %d entries (want %d); the choice is open: %v", h.entryCount(), n, h.exists("cancel"))
	}
	h.calm("nominate")
	if h.exists("cancel") {
		h.pickSeat(st.Nominate[0])
	}
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="nominated"]')`)

	// A double tap on "End" ends this speech only.
	n = h.entryCount()
	h.doubleTap(`[data-t="end"]`)
	st = h.state()
	if h.entryCount() != n+1 || st.Phase != "speech" || st.Speaker == first {
		t.Errorf("a double tap on End: %d entries (want %d), %s of %d", h.entryCount(), n+1, st.Phase, st.Speaker)
	}
	second := st.Speaker
	if q := st.Queue; len(q) == 0 {
		t.Fatal("nobody speaks after the second speaker")
	}
	h.calm("end")

	// A double tap on a seat in the fouls panel gives one foul.
	victim := st.Queue[len(st.Queue)-1]
	h.tap("fouls")
	n = h.entryCount()
	h.doubleTap(`.seats [data-seat="` + strconv.Itoa(victim) + `"]`)
	if got := h.state().Fouls[victim]; got != 1 || h.entryCount() != n+1 {
		t.Errorf("a double tap on seat %d in the fouls panel: %d fouls, %d entries (want 1 and %d)", victim, got, h.entryCount(), n+1)
	}
	h.calm("foul")
	h.tap("back")
	h.settle()

	// Two more candidates, then the vote: nobody raises a hand for the
	// first candidate, and a double tap on "Confirm hands" moves on to the
	// second candidate only (the second tap would pass over the second
	// candidate's hands as well).
	for h.state().Speaker == second || len(h.state().Candidates) < 3 {
		st := h.state()
		if st.Phase != "speech" {
			t.Fatalf("the day reached %s with candidates %v", st.Phase, st.Candidates)
		}
		if !st.Nominated {
			for _, s := range st.Nominate {
				if !slices.Contains(st.Candidates, s) {
					h.tap("nominate")
					h.pickSeat(s)
					h.waitJS(5*time.Second, `!!document.querySelector('[data-t="nominated"]')`)
					break
				}
			}
		}
		h.tap("end")
		h.settle()
	}
	for sc := h.screen(); sc == "speech" || sc == "defence"; sc = h.screen() {
		h.tap("end")
		h.settle()
	}
	st = h.state()
	if h.screen() != "vote" || len(st.Candidates) != 3 {
		t.Fatalf("the vote has candidates %v (%s)", st.Candidates, h.screen())
	}
	candidate := func() string {
		return eval[string](h.tab, `(document.querySelector('[data-t="candidate"]') || {dataset: {}}).dataset.seat || ''`)
	}
	n = h.entryCount()
	h.doubleTap(`[data-t="confirm-hands"]`)
	if got := candidate(); h.entryCount() != n || got != strconv.Itoa(st.Candidates[1]) {
		t.Errorf("a double tap on Confirm hands: %d entries (want %d), the page counts the hands for %q (want %d, the second candidate)",
			h.entryCount(), n, got, st.Candidates[1])
	}
	h.calm("confirm-hands")
	// With hands raised, a double tap enters them once.
	hands := h.state().Pending[:2]
	for _, s := range hands {
		h.pickSeat(s)
	}
	n = h.entryCount()
	h.doubleTap(`[data-t="confirm-hands"]`)
	if got := candidate(); h.entryCount() != n+len(hands) || got != strconv.Itoa(st.Candidates[2]) {
		t.Errorf("a double tap on Confirm hands with %d hands: %d entries (want %d), the page shows candidate %q",
			len(hands), h.entryCount(), n+len(hands), got)
	}
	h.calm("confirm-hands with hands")
	h.shot("double-tap-vote")
}
