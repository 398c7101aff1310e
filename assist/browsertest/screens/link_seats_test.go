package screens

import (
	"strconv"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestTheHostLinksTheSeatsToTheRosterAtTheEnd (issue 29, defect 2): a
// club's game whose names were typed, not picked (every seat a guest), is
// played to the end; on the result screen the host searches the roster
// under seat 1's name, picks the entry and saves the links: the game's
// protocol carries seat 1's roster id.
func TestTheHostLinksTheSeatsToTheRosterAtTheEnd(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	cl, people := hosttest.NewClubWith(t, ts, "Nino", "Keti")
	h := hosttest.OpenHost(t, ts, "link")
	h.Tap("new-game")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.Tap("size-7")
	h.Click(`[data-t="deal-pass"]`)
	h.SetValue(`[data-t="club-code"]`, cl.ID+"."+cl.Token)
	h.Tap("club-join")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="club-joined"]')`)
	for i, n := range []string{"Nino", "Keti", "Zura", "Dato", "Lika", "Gela", "Tako"} {
		h.SetValue(`[data-t="name-`+strconv.Itoa(i+1)+`"]`, n)
	}
	h.Tap("create")
	h.WaitJS(10*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame`)
	id := hosttest.Eval[string](h.Tab, `window.__assistGame.rec.id`)
	h.Play(hosttest.TownDriver())
	h.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="link-save"]')`)
	h.NoSideScroll("the links to the roster")
	h.SetValue(`[data-t="link-name-1"]`, "nino")
	sel := `[data-t="pick-1"][data-person="` + people[0].ID + `"]`
	h.WaitJS(5*time.Second, `!!document.querySelector('`+sel+`')`)
	h.Click(sel)
	h.Tap("link-save")
	h.WaitJS(10*time.Second, `document.querySelector('[data-t="link"]').dataset.saved === 'yes'`)
	h.Calm("link-save")
	var p struct {
		Club *record.ClubInfo `json:"club"`
	}
	ts.GetJSON(t, "/host/api/games/"+id+"/protocol.json", h.Token(id), &p)
	if p.Club == nil || p.Club.PersonOf(1) != people[0].ID || p.Club.PersonOf(2) != "" {
		t.Errorf("after the links: club %+v; want seat 1 Nino (%s), seat 2 a guest", p.Club, people[0].ID)
	}
}
