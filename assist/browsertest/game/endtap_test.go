package game

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// fingerTap taps the screen at xy as a phone reports a tap that is not
// the second of a double tap (a click count of one): slower than the
// phone's double-tap timeout (300 ms on Android), a double tap is two such.
func fingerTap(ctx context.Context, xy []float64) error {
	for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		buttons := int64(1)
		if typ == input.DispatchMouseEventTypeMouseReleased {
			buttons = 0
		}
		if _, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
			Type: typ, X: xy[0], Y: xy[1], Button: input.MouseButtonLeft, Buttons: buttons, ClickCount: 1,
		}); err != nil {
			return err
		}
	}
	return nil
}

// TestASlowDoubleTapOnEndEndsOneSpeech: a host's finger double-taps "End"
// of a speech with the two taps 350 ms apart, slower than the phone's
// double tap (the phone reports the second as a tap of its own, a click
// count of one). The End
// tap names the speech it ends: the second tap continues the first, on the
// same spot, so it is for the speech already ended and does nothing; the
// next speaker keeps their speech. A tap elsewhere ends the gesture, and
// the next tap on End ends the next speech.
func TestASlowDoubleTapOnEndEndsOneSpeech(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	h.Create(hosttest.GameSpec{Names: []string{"Nino", "Keti", "Zura", "Dato", "Lika", "Gela", "Tako"}, Deal: record.DealPass})
	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "speech" }
	h.Play(d)

	st := h.State()
	first := st.Speaker
	if len(st.Queue) < 2 {
		t.Fatalf("the day's queue is %v", st.Queue)
	}
	second, third := st.Queue[0], st.Queue[1]
	n := h.EntryCount()
	xy := h.TouchAt(`[data-t="end"]`)
	h.Do(5*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		// The gesture: two taps on one spot, the second 350 ms after the
		// first began (the finger's timing, not a wait for the page).
		began := time.Now()
		if err := fingerTap(ctx, xy); err != nil {
			return err
		}
		time.Sleep(time.Until(began.Add(350 * time.Millisecond)))
		return fingerTap(ctx, xy)
	}))
	h.Settle()
	st = h.State()
	if h.EntryCount() != n+1 || st.Phase != "speech" || st.Speaker != second {
		t.Fatalf("a double tap 350 ms apart on End of seat %d's speech: %d entries (want %d), %s of seat %d (want seat %d's speech)",
			first, h.EntryCount(), n+1, st.Phase, st.Speaker, second)
	}
	h.Calm("end")

	// A tap elsewhere (the speaker's name), then End: the next speech ends.
	name := h.TouchAt(`[data-t="speaker"]`)
	h.Do(5*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error { return fingerTap(ctx, name) }))
	xy = h.TouchAt(`[data-t="end"]`)
	h.Do(5*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error { return fingerTap(ctx, xy) }))
	h.Settle()
	if st = h.State(); st.Speaker != third || h.EntryCount() != n+2 {
		t.Errorf("End after a tap elsewhere: seat %d speaks, %d entries (want seat %d, %d)", st.Speaker, h.EntryCount(), third, n+2)
	}
}
