package assist_test

import (
	"strconv"
	"testing"
	"time"

	"mafia/assist/record"
)

// TestTheHostLinksTheSeatsToTheRosterAtTheEnd (issue 29, defect 2): a
// club's game whose names were typed, not picked (every seat a guest), is
// played to the end; on the result screen the host searches the roster
// under seat 1's name, picks the entry and saves the links: the game's
// protocol carries seat 1's roster id.
func TestTheHostLinksTheSeatsToTheRosterAtTheEnd(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	cl, people := newClubWith(t, ts, "Nino", "Keti")
	h := openHost(t, ts, "link")
	h.tap("new-game")
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.tap("size-7")
	h.click(`[data-t="deal-pass"]`)
	h.setValue(`[data-t="club-code"]`, cl.ID+"."+cl.Token)
	h.tap("club-join")
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="club-joined"]')`)
	for i, n := range []string{"Nino", "Keti", "Zura", "Dato", "Lika", "Gela", "Tako"} {
		h.setValue(`[data-t="name-`+strconv.Itoa(i+1)+`"]`, n)
	}
	h.tap("create")
	h.waitJS(10*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame`)
	id := eval[string](h.tab, `window.__assistGame.rec.id`)
	h.play(townDriver())
	h.waitJS(syncWait, `!!document.querySelector('[data-t="link-save"]')`)
	h.noSideScroll("the links to the roster")
	h.setValue(`[data-t="link-name-1"]`, "nino")
	sel := `[data-t="pick-1"][data-person="` + people[0].ID + `"]`
	h.waitJS(5*time.Second, `!!document.querySelector('`+sel+`')`)
	h.click(sel)
	h.tap("link-save")
	h.waitJS(10*time.Second, `document.querySelector('[data-t="link"]').dataset.saved === 'yes'`)
	h.calm("link-save")
	var p struct {
		Club *record.ClubInfo `json:"club"`
	}
	ts.getJSON(t, "/host/api/games/"+id+"/protocol.json", h.token(id), &p)
	if p.Club == nil || p.Club.PersonOf(1) != people[0].ID || p.Club.PersonOf(2) != "" {
		t.Errorf("after the links: club %+v; want seat 1 Nino (%s), seat 2 a guest", p.Club, people[0].ID)
	}
}
