package screens

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
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
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	h.SetValue(`[data-t="lang"]`, "ka")
	h.WaitJS(5*time.Second, `document.documentElement.lang === 'ka'`)
	ka := locale.New(locale.Ka)
	long := ka.T("assist.storage.failed", nil) // one of the longest toasts
	// The speech's clock still runs at the clock's checks below, on a busy machine.
	h.Create(hosttest.GameSpec{Names: hosttest.Names11, Deal: record.DealPass, Timings: map[string]int{"speech": 12}})

	for _, height := range []int64{740, 568} {
		h.Do(5*time.Second, chromedp.EmulateViewport(360, height))
		tag := "@" + strconv.Itoa(int(height))
		h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="reveal"]')`)
		h.ShowToast(long)
		if tb, pass := h.BoxOf("#toast"), h.BoxOf(".step-head h2"); tb.Overlaps(pass) {
			t.Errorf("%s: the toast %v covers “pass the phone to …” %v", tag, tb, pass)
		}
		h.Shot("glance-pass-toast" + tag)
		h.Tap("reveal")
		h.ShowToast(long)
		if tb, role := h.BoxOf("#toast"), h.BoxOf(`[data-t="role"]`); tb.Overlaps(role) || !role.Found {
			t.Errorf("%s: the toast %v covers the card's name %v", tag, tb, role)
		}
		if tb, who := h.BoxOf("#toast"), h.BoxOf(".step-head"); tb.Overlaps(who) {
			t.Errorf("%s: the toast %v covers whose card it is %v", tag, tb, who)
		}
		h.Shot("glance-card-toast" + tag)
		h.Tap("hide")
	}
	h.Do(5*time.Second, chromedp.EmulateViewport(360, 740))

	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "speech" && st.Round == 1 }
	h.Play(d)
	h.Settle()

	// Who speaks next.
	next := h.BoxOf(`[data-t="queue"] li`)
	if !next.InView(360, 740) {
		t.Errorf("the next speaker %v is not on the screen", next)
	}
	if ls := hosttest.Eval[string](h.Tab, `getComputedStyle(document.querySelector('[data-t="queue"]')).listStyleType`); ls != "none" {
		t.Errorf("the queue is numbered (%s): “1. 2 · …” beside the seat numbers", ls)
	}
	first := hosttest.Eval[float64](h.Tab, `parseFloat(getComputedStyle(document.querySelector('[data-t="queue"] li')).fontSize)`)
	rest := hosttest.Eval[float64](h.Tab, `parseFloat(getComputedStyle(document.querySelectorAll('[data-t="queue"] li')[1]).fontSize)`)
	body := hosttest.Eval[float64](h.Tab, `parseFloat(getComputedStyle(document.body).fontSize)`)
	if first <= rest || first < body {
		t.Errorf("the next speaker is in %.0f px, the others in %.0f px: not set apart", first, rest)
	}
	if c := h.Contrast(`[data-t="queue"] li`); c < 7 {
		t.Errorf("the next speaker's contrast is %.1f, under 7", c)
	}
	if k := h.Contrast(`.list h3`); k < 7 {
		t.Errorf("“Speaking next” has a contrast of %.1f, under 7", k)
	}
	h.NoSideScroll("the speech")
	h.Shot("glance-speech")

	// The clock while giving a foul, and while choosing a nominee.
	for _, over := range []struct{ open, close string }{{"fouls", "back"}, {"nominate", "cancel"}} {
		h.Tap(over.open)
		h.Settle()
		c := h.BoxOf(`[data-t="clock"]`)
		if !c.InView(360, 740) {
			t.Errorf("%s: the clock %v is not on the screen", over.open, c)
		} else {
			was := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="clock"]').textContent`)
			h.WaitJS(5*time.Second, `document.querySelector('[data-t="clock"]').textContent !== `+strconv.Quote(was))
		}
		h.Shot("glance-clock-" + over.open)
		h.Tap(over.close)
		h.Settle()
	}

	// 0:00.
	h.WaitJS(25*time.Second, `document.querySelector('[data-t="clock"]').textContent === '0:00'`)
	h.WaitJS(5*time.Second, `new Promise((r) => setTimeout(() => r(true), 300))`)
	zero := h.Contrast(`[data-t="clock"]`)
	low, where := h.DimmestText(`[data-t="clock"]`)
	if zero < 7 || zero <= low {
		t.Errorf("0:00 has a contrast of %.1f; the dimmest other text (%s) %.1f", zero, where, low)
	}
	h.Shot("glance-zero")
}
