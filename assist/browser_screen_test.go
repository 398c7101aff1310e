package assist_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/record"
	"mafia/locale"
)

// TestTheHostReadsWhatMattersAtAGlance checks, at a phone's 360 px, what a
// host reads while the game goes on: a toast never covers "pass the phone
// to N" or the card shown; the speech's clock stays in view (and ticking)
// while the host gives a foul or chooses a nominee; 0:00 is not the dimmest
// text on the screen; and who speaks next is read at once (the first in
// the queue, large, with no list numbers beside the seat numbers).
func TestTheHostReadsWhatMattersAtAGlance(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	h := openHost(t, ts, "host")
	h.setValue(`[data-t="lang"]`, "ka")
	h.waitJS(5*time.Second, `document.documentElement.lang === 'ka'`)
	ka := locale.New(locale.Ka)
	long := ka.T("assist.storage.failed", nil) // one of the longest toasts
	// The speech's clock still runs at the clock's checks below, on a busy machine.
	h.create(gameSpec{Names: names11, Deal: record.DealPass, Timings: map[string]int{"speech": 12}})

	for _, height := range []int64{740, 568} {
		h.do(5*time.Second, chromedp.EmulateViewport(360, height))
		tag := "@" + strconv.Itoa(int(height))
		h.waitJS(5*time.Second, `!!document.querySelector('[data-t="reveal"]')`)
		h.showToast(long)
		if tb, pass := h.boxOf("#toast"), h.boxOf(".step-head h2"); tb.overlaps(pass) {
			t.Errorf("%s: the toast %v covers “pass the phone to …” %v", tag, tb, pass)
		}
		h.shot("glance-pass-toast" + tag)
		h.tap("reveal")
		h.showToast(long)
		if tb, role := h.boxOf("#toast"), h.boxOf(`[data-t="role"]`); tb.overlaps(role) || !role.Found {
			t.Errorf("%s: the toast %v covers the card's name %v", tag, tb, role)
		}
		if tb, who := h.boxOf("#toast"), h.boxOf(".step-head"); tb.overlaps(who) {
			t.Errorf("%s: the toast %v covers whose card it is %v", tag, tb, who)
		}
		h.shot("glance-card-toast" + tag)
		h.tap("hide")
	}
	h.do(5*time.Second, chromedp.EmulateViewport(360, 740))

	d := townDriver()
	d.stop = func(st record.State) bool { return st.Phase == "speech" && st.Round == 1 }
	h.play(d)
	h.settle()

	// Who speaks next.
	next := h.boxOf(`[data-t="queue"] li`)
	if !next.inView(360, 740) {
		t.Errorf("the next speaker %v is not on the screen", next)
	}
	if ls := eval[string](h.tab, `getComputedStyle(document.querySelector('[data-t="queue"]')).listStyleType`); ls != "none" {
		t.Errorf("the queue is numbered (%s): “1. 2 · …” beside the seat numbers", ls)
	}
	first := eval[float64](h.tab, `parseFloat(getComputedStyle(document.querySelector('[data-t="queue"] li')).fontSize)`)
	rest := eval[float64](h.tab, `parseFloat(getComputedStyle(document.querySelectorAll('[data-t="queue"] li')[1]).fontSize)`)
	body := eval[float64](h.tab, `parseFloat(getComputedStyle(document.body).fontSize)`)
	if first <= rest || first < body {
		t.Errorf("the next speaker is in %.0f px, the others in %.0f px: not set apart", first, rest)
	}
	if c := h.contrast(`[data-t="queue"] li`); c < 7 {
		t.Errorf("the next speaker's contrast is %.1f, under 7", c)
	}
	if k := h.contrast(`.list h3`); k < 7 {
		t.Errorf("“Speaking next” has a contrast of %.1f, under 7", k)
	}
	h.noSideScroll("the speech")
	h.shot("glance-speech")

	// The clock while giving a foul, and while choosing a nominee.
	for _, over := range []struct{ open, close string }{{"fouls", "back"}, {"nominate", "cancel"}} {
		h.tap(over.open)
		h.settle()
		c := h.boxOf(`[data-t="clock"]`)
		if !c.inView(360, 740) {
			t.Errorf("%s: the clock %v is not on the screen", over.open, c)
		} else {
			was := eval[string](h.tab, `document.querySelector('[data-t="clock"]').textContent`)
			h.waitJS(5*time.Second, `document.querySelector('[data-t="clock"]').textContent !== `+strconv.Quote(was))
		}
		h.shot("glance-clock-" + over.open)
		h.tap(over.close)
		h.settle()
	}

	// 0:00.
	h.waitJS(25*time.Second, `document.querySelector('[data-t="clock"]').textContent === '0:00'`)
	h.waitJS(5*time.Second, `new Promise((r) => setTimeout(() => r(true), 300))`)
	zero := h.contrast(`[data-t="clock"]`)
	low, where := h.dimmestText(`[data-t="clock"]`)
	if zero < 7 || zero <= low {
		t.Errorf("0:00 has a contrast of %.1f; the dimmest other text (%s) %.1f", zero, where, low)
	}
	h.shot("glance-zero")
}
