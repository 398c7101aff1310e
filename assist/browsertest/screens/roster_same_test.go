package screens

import (
	"mafia/assist/internal/hosttest"
	"strings"
	"testing"
	"time"
)

// TestANameAlreadyOnTheRosterWarnsAndOffersTheEntry (issue 29, defect 3):
// on the setup, "+ Add “keti”" when Keti is on the club's roster does not
// add a second Keti silently: the seat's box says the name is on the
// roster, shows the entry with what tells it apart (its id among them),
// and offers it, adding another person of that name, and the merge on
// the club's screen. Seat 1 takes the entry; seat 2 adds another Keti on
// purpose, a new entry.
func TestANameAlreadyOnTheRosterWarnsAndOffersTheEntry(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	cl, people := hosttest.NewClubWith(t, ts, "Keti")
	keti := people[0]
	h := hosttest.OpenHost(t, ts, "roster")
	h.Tap("new-game")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.Tap("size-7")
	h.SetValue(`[data-t="club-code"]`, cl.ID+"."+cl.Token)
	h.Tap("club-join")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="club-joined"]')`)

	h.SetValue(`[data-t="name-1"]`, "keti")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="add-1"]')`)
	h.Tap("add-1")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="same-1"]')`)
	entry := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="same-pick-1"]').textContent`)
	if !strings.Contains(entry, keti.ID) || !strings.Contains(entry, "Keti") {
		t.Errorf("the entry offered reads %q; want Keti and its id %s", entry, keti.ID)
	}
	if !h.Exists("add-again-1") || !h.Exists("merge-open-1") {
		t.Errorf("the warning offers no second Keti or no merge:\n%s", h.Text())
	}
	h.NoSideScroll("the warning of a name on the roster")
	h.Shot("roster-same-name")
	h.Tap("same-pick-1")
	h.WaitJS(5*time.Second, `document.querySelector('[data-t="name-1"]').dataset.person === `+hosttest.JsString(keti.ID))

	// Another Keti, on purpose.
	h.SetValue(`[data-t="name-2"]`, "Keti")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="add-2"]')`)
	h.Tap("add-2")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="add-again-2"]')`)
	h.Tap("add-again-2")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="name-2"]').dataset.person`)
	if got := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="name-2"]').dataset.person`); got == keti.ID {
		t.Errorf("seat 2's new Keti is the old entry")
	}
	var found struct{ People []hosttest.PersonJSON }
	ts.GetJSON(t, "/host/api/clubs/"+cl.ID+"/people?q=keti", cl.Token, &found)
	if len(found.People) != 2 {
		t.Errorf("the roster holds %d Keti, want 2 (the first and the one added on purpose)", len(found.People))
	}
}
