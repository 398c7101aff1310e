package assist_test

import (
	"strconv"
	"testing"
	"time"

	"mafia/assist/record"
)

// TestTheLinksPickedAndNotSavedOutliveARedrawAndAReload (issue 29): on the
// result screen of a club's game played with guests, the host picks seat
// 1's and seat 2's roster entries and, before "Save the links", the screen
// is drawn again (as it is when the phone's entries reach the server) and
// then the page is reloaded: both picks are still there each time, and
// saved they count.
func TestTheLinksPickedAndNotSavedOutliveARedrawAndAReload(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	cl, people := newClubWith(t, ts, "Nino", "Keti")
	h := openHost(t, ts, "linkkept")
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
	for s, q := range []string{"nino", "keti"} {
		n := strconv.Itoa(s + 1)
		h.setValue(`[data-t="link-name-`+n+`"]`, q)
		sel := `[data-t="pick-` + n + `"][data-person="` + people[s].ID + `"]`
		h.waitJS(5*time.Second, `!!document.querySelector('`+sel+`')`)
		h.click(sel)
	}
	linked := func(when string) {
		t.Helper()
		for s := range 2 {
			sel := `[data-t="link-name-` + strconv.Itoa(s+1) + `"]`
			h.waitJS(10*time.Second, `!!document.querySelector('`+sel+`')`)
			if got := eval[string](h.tab, `document.querySelector('`+sel+`').dataset.person`); got != people[s].ID {
				t.Errorf("%s: seat %d linked to %q, want %s", when, s+1, got, people[s].ID)
			}
		}
	}
	linked("picked")
	h.noSideScroll("the links picked")
	eval[bool](h.tab, `(window.__assistGame.render(), true)`)
	linked("after the result screen is drawn again")
	h.reload(true)
	h.waitJS(syncWait, `!!document.querySelector('[data-t="link-save"]')`)
	linked("after a reload")
	h.tap("link-save")
	h.waitJS(10*time.Second, `document.querySelector('[data-t="link"]').dataset.saved === 'yes'`)
	h.calm("link-save")
	var p struct {
		Club *record.ClubInfo `json:"club"`
	}
	ts.getJSON(t, "/host/api/games/"+id+"/protocol.json", h.token(id), &p)
	if p.Club == nil || p.Club.PersonOf(1) != people[0].ID || p.Club.PersonOf(2) != people[1].ID || p.Club.PersonOf(3) != "" {
		t.Errorf("after the links: club %+v; want seat 1 Nino, seat 2 Keti, seat 3 a guest", p.Club)
	}
}
