package chat

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mafia/web/internal/webtest"
	"mafia/wire"
)

// Issue 28, defect 2: the floor box lists what the speaker says in the
// order it was said.

// TestBrowserTheFloorIsOneListInTimeOrder: while a seat speaks, a
// listener's floor box shows its chat lines and its statements in one list
// in the order they were said (a line, a statement, a line: not the lines
// first), the newest in view at the top of the screen, and no scroll of its
// own inside the scrolling page.
func TestBrowserTheFloorIsOneListInTimeOrder(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartPeopleServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	pt := webtest.NewPeopleTable(ctx, t, ts, "The floor", 5, map[string]string{"first_night": "meeting"}, map[string]int64{
		"night": 1_000, "speech": 600_000, "defence": 2_000, "tie_speech": 2_000, "last_words": 2_000, "vote": 3_000})
	// The speaker's floor is long (it never passes): its eight lines are
	// each waited for on the page.
	const speaker, listener = 3, 2
	for s := 1; s <= 5; s++ {
		if s != speaker {
			pt.Play(s, webtest.Passer)
		}
	}
	lp := webtest.NewTab(t, "listener", 360, 740)
	pt.Open(lp, listener)
	sp := pt.Seats[speaker-1]
	sp.WaitView(t, 60*time.Second, "never got the floor", func(v *wire.View) bool {
		return v.Phase == "speech" && v.Speaker == speaker && v.Legal.Pass
	})
	webtest.WaitPhase(lp, 20*time.Second, "speech", 1, speaker)
	send := func(m wire.ClientMessage) {
		t.Helper()
		if _, err := sp.C.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	count := `document.querySelectorAll('#speech li').length`
	say := func(text string, n int) {
		t.Helper()
		send(wire.ClientMessage{Type: "chat", Channel: "town", Text: text})
		lp.WaitJS(15*time.Second, fmt.Sprintf(`%s === %d`, count, n))
	}
	say("Good morning, all.", 1)
	target := 1
	send(wire.ClientMessage{Type: "command", Verb: "suspect", Target: target, Step: sp.Now().Step})
	lp.WaitJS(15*time.Second, fmt.Sprintf(`%s === 2`, count))
	say("Seat 1 was too quiet last night.", 3)
	got := webtest.Eval[[]string](lp, `[...document.querySelectorAll('#speech li')].map((li) => (li.classList.contains('said') ? 'said:' : 'line:') + li.textContent)`)
	want := []string{"line:", "said:", "line:"}
	for i := range want {
		if i >= len(got) || got[i][:5] != want[i] {
			t.Fatalf("the floor is not in the order said (a line, a statement, a line): %q", got)
		}
	}
	if got[2] != "line:Seat 1 was too quiet last night." {
		t.Errorf("the newest line is not last: %q", got)
	}
	// More lines than the floor shows: the newest is still in view, and
	// the box never scrolls inside the page.
	// A seat's chat has a rate (3 lines a second, bursts of 6): a line
	// sent past it is refused chat_busy, and said again until the page
	// shows it (on a quiet machine the eighth came within the burst's
	// refill and was refused).
	for i := 4; i <= 8; i++ {
		text := fmt.Sprintf("Point %d of my speech.", i)
		shown := fmt.Sprintf(`[...document.querySelectorAll('#speech li')].some((li) => li.textContent === %q)`, text)
		for try := 0; ; try++ {
			sp.Mu.Lock()
			before := len(sp.Refused)
			sp.Mu.Unlock()
			send(wire.ClientMessage{Type: "chat", Channel: "town", Text: text})
			refused := ""
			for until := time.Now().Add(15 * time.Second); refused == "" && !lp.Eventually(200*time.Millisecond, shown); {
				sp.Mu.Lock()
				if len(sp.Refused) > before {
					refused = sp.Refused[before]
				}
				sp.Mu.Unlock()
				if time.Now().After(until) {
					t.Fatalf("%q: neither shown on the page nor refused", text)
				}
			}
			if refused == "" {
				break
			}
			if refused != "chat_busy" || try == 20 {
				t.Fatalf("%q refused %s (try %d)", text, refused, try+1)
			}
		}
	}
	if !lp.Eventually(5*time.Second, webtest.InView("#speech li:last-child", "Point 8 of my speech.")) {
		t.Errorf("the newest line is not in view at the top of the screen")
	}
	if scroll := webtest.Eval[string](lp, `(() => { const s = document.querySelector('#speech'); const o = getComputedStyle(s).overflowY;
		return (o === 'auto' || o === 'scroll') ? 'overflow-y: ' + o : s.scrollHeight > s.clientHeight + 1 ? 'content taller than the box' : ''; })()`); scroll != "" {
		t.Errorf("the floor box scrolls inside the page: %s", scroll)
	}
	lp.Shot("d2-floor-in-order-360")
}
