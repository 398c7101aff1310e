package assist_test

import (
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
	ts := startServer(t)
	cl, people := newClubWith(t, ts, "Keti")
	keti := people[0]
	h := openHost(t, ts, "roster")
	h.tap("new-game")
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.tap("size-7")
	h.setValue(`[data-t="club-code"]`, cl.ID+"."+cl.Token)
	h.tap("club-join")
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="club-joined"]')`)

	h.setValue(`[data-t="name-1"]`, "keti")
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="add-1"]')`)
	h.tap("add-1")
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="same-1"]')`)
	entry := eval[string](h.tab, `document.querySelector('[data-t="same-pick-1"]').textContent`)
	if !strings.Contains(entry, keti.ID) || !strings.Contains(entry, "Keti") {
		t.Errorf("the entry offered reads %q; want Keti and its id %s", entry, keti.ID)
	}
	if !h.exists("add-again-1") || !h.exists("merge-open-1") {
		t.Errorf("the warning offers no second Keti or no merge:\n%s", h.text())
	}
	h.noSideScroll("the warning of a name on the roster")
	h.shot("roster-same-name")
	h.tap("same-pick-1")
	h.waitJS(5*time.Second, `document.querySelector('[data-t="name-1"]').dataset.person === `+jsString(keti.ID))

	// Another Keti, on purpose.
	h.setValue(`[data-t="name-2"]`, "Keti")
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="add-2"]')`)
	h.tap("add-2")
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="add-again-2"]')`)
	h.tap("add-again-2")
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="name-2"]').dataset.person`)
	if got := eval[string](h.tab, `document.querySelector('[data-t="name-2"]').dataset.person`); got == keti.ID {
		t.Errorf("seat 2's new Keti is the old entry")
	}
	var found struct{ People []personJSON }
	ts.getJSON(t, "/host/api/clubs/"+cl.ID+"/people?q=keti", cl.Token, &found)
	if len(found.People) != 2 {
		t.Errorf("the roster holds %d Keti, want 2 (the first and the one added on purpose)", len(found.People))
	}
}
