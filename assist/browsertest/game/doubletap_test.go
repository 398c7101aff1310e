package game

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestADoubleTapActsOnce double-taps the controls whose second tap would
// act again: "Create the game", the card to reveal when the phone is
// passed round, a night role's "skip", "Nominate", "End" of a speech, a
// foul in the fouls panel and "Confirm hands" (with hands and without). Each time only the
// first tap acts (one entry, or one screen on), and the page says nothing
// alarming about the second.
func TestADoubleTapActsOnce(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	// A tall phone: every control of the game is on screen without
	// scrolling (a new screen starts at the top), so the second tap lands
	// where the first did, whatever the first draws.
	h.Do(5*time.Second, chromedp.EmulateViewport(360, 1400))
	// Names of one length: the screens of one kind are laid out alike.
	// A double tap on "Create the game" makes one game.
	h.Create(hosttest.GameSpec{Names: []string{"Nino", "Keti", "Zura", "Dato", "Lika", "Gela", "Tako"}, Deal: record.DealPass, Double: true})
	if n := hosttest.TableCount(t, ts); n != 1 {
		t.Errorf("a double tap on Create made %d games", n)
	}

	// The deal: a double tap on "tap to see your card" shows seat 1's card
	// and leaves it shown (a second tap would hide it and pass the phone on).
	h.DoubleTap(`[data-t="reveal"]`)
	if !h.Exists("hide") || hosttest.Eval[int](h.Tab, `window.__assistGame.rec.ui.pass.seat`) != 1 {
		t.Errorf("a double tap on the hidden card: seat %d's card, %q shown", hosttest.Eval[int](h.Tab, `window.__assistGame.rec.ui.pass.seat`), h.Screen())
	}
	h.Calm("reveal")
	h.Deal()

	// Night 1: the mafia choose; a double tap on the Don's "skip" skips his
	// check only, and the detective's wake comes next, not yet acted on.
	st := h.State()
	w := st.Night.Wakes[0]
	if w.Role != "mafia" || len(w.Targets) == 0 {
		t.Fatalf("the first wake is %+v", w)
	}
	h.PickSeat(w.Targets[0])
	h.Tap("confirm")
	h.Settle()
	if got := h.Screen(); got != "wake:don" {
		t.Fatalf("after the mafia the page shows %q", got)
	}
	n := h.EntryCount()
	h.DoubleTap(`[data-t="skip"]`)
	if got := h.Screen(); got != "wake:detective" || h.EntryCount() != n+1 {
		t.Errorf("a double tap on the Don's skip: %d entries (want %d), the page shows %q", h.EntryCount(), n+1, got)
	}
	if det := h.State().Night.Wakes[2]; det.Acted {
		t.Errorf("a double tap on the Don's skip skipped the detective too: %+v", det)
	}
	h.Calm("skip")

	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "speech" }
	h.Play(d)

	// Day 1, the first speech: a double tap on "Nominate" opens the choice
	// and nominates nobody.
	st = h.State()
	first := st.Speaker
	n = h.EntryCount()
	h.DoubleTap(`[data-t="nominate"]`)
	if h.EntryCount() != n || !h.Exists("cancel") {
		t.Errorf("a double tap on Nominate: %d entries (want %d); the choice is open: %v", h.EntryCount(), n, h.Exists("cancel"))
	}
	h.Calm("nominate")
	if h.Exists("cancel") {
		h.PickSeat(st.Nominate[0])
	}
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="nominated"]')`)

	// A double tap on "End" ends this speech only.
	n = h.EntryCount()
	h.DoubleTap(`[data-t="end"]`)
	st = h.State()
	if h.EntryCount() != n+1 || st.Phase != "speech" || st.Speaker == first {
		t.Errorf("a double tap on End: %d entries (want %d), %s of %d", h.EntryCount(), n+1, st.Phase, st.Speaker)
	}
	second := st.Speaker
	if q := st.Queue; len(q) == 0 {
		t.Fatal("nobody speaks after the second speaker")
	}
	h.Calm("end")

	// A double tap on a seat in the fouls panel gives one foul.
	victim := st.Queue[len(st.Queue)-1]
	h.Tap("fouls")
	n = h.EntryCount()
	h.DoubleTap(`.seats [data-seat="` + strconv.Itoa(victim) + `"]`)
	if got := h.State().Fouls[victim]; got != 1 || h.EntryCount() != n+1 {
		t.Errorf("a double tap on seat %d in the fouls panel: %d fouls, %d entries (want 1 and %d)", victim, got, h.EntryCount(), n+1)
	}
	h.Calm("foul")
	h.Tap("back")
	h.Settle()

	// Two more candidates, then the vote: nobody raises a hand for the
	// first candidate, and a double tap on "Confirm hands" moves on to the
	// second candidate only (the second tap would pass over the second
	// candidate's hands as well).
	for h.State().Speaker == second || len(h.State().Candidates) < 3 {
		st := h.State()
		if st.Phase != "speech" {
			t.Fatalf("the day reached %s with candidates %v", st.Phase, st.Candidates)
		}
		if !st.Nominated {
			for _, s := range st.Nominate {
				if !slices.Contains(st.Candidates, s) {
					h.Tap("nominate")
					h.PickSeat(s)
					h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="nominated"]')`)
					break
				}
			}
		}
		h.Tap("end")
		h.Settle()
	}
	for sc := h.Screen(); sc == "speech" || sc == "defence"; sc = h.Screen() {
		h.Tap("end")
		h.Settle()
	}
	st = h.State()
	if h.Screen() != "vote" || len(st.Candidates) != 3 {
		t.Fatalf("the vote has candidates %v (%s)", st.Candidates, h.Screen())
	}
	candidate := func() string {
		return hosttest.Eval[string](h.Tab, `(document.querySelector('[data-t="candidate"]') || {dataset: {}}).dataset.seat || ''`)
	}
	n = h.EntryCount()
	h.DoubleTap(`[data-t="confirm-hands"]`)
	if got := candidate(); h.EntryCount() != n || got != strconv.Itoa(st.Candidates[1]) {
		t.Errorf("a double tap on Confirm hands: %d entries (want %d), the page counts the hands for %q (want %d, the second candidate)",
			h.EntryCount(), n, got, st.Candidates[1])
	}
	h.Calm("confirm-hands")
	// With hands raised, a double tap enters them once.
	hands := h.State().Pending[:2]
	for _, s := range hands {
		h.PickSeat(s)
	}
	n = h.EntryCount()
	h.DoubleTap(`[data-t="confirm-hands"]`)
	if got := candidate(); h.EntryCount() != n+len(hands) || got != strconv.Itoa(st.Candidates[2]) {
		t.Errorf("a double tap on Confirm hands with %d hands: %d entries (want %d), the page shows candidate %q",
			len(hands), h.EntryCount(), n+len(hands), got)
	}
	h.Calm("confirm-hands with hands")
	h.Shot("double-tap-vote")
}
