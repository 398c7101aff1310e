package screens

import (
	"strconv"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
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
	ts := hosttest.StartServer(t)
	cl, people := hosttest.NewClubWith(t, ts, "Nino", "Keti")
	h := hosttest.OpenHost(t, ts, "linkkept")
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
	for s, q := range []string{"nino", "keti"} {
		n := strconv.Itoa(s + 1)
		h.SetValue(`[data-t="link-name-`+n+`"]`, q)
		sel := `[data-t="pick-` + n + `"][data-person="` + people[s].ID + `"]`
		h.WaitJS(5*time.Second, `!!document.querySelector('`+sel+`')`)
		h.Click(sel)
	}
	linked := func(when string) {
		t.Helper()
		for s := range 2 {
			sel := `[data-t="link-name-` + strconv.Itoa(s+1) + `"]`
			h.WaitJS(10*time.Second, `!!document.querySelector('`+sel+`')`)
			if got := hosttest.Eval[string](h.Tab, `document.querySelector('`+sel+`').dataset.person`); got != people[s].ID {
				t.Errorf("%s: seat %d linked to %q, want %s", when, s+1, got, people[s].ID)
			}
		}
	}
	linked("picked")
	h.NoSideScroll("the links picked")
	hosttest.Eval[bool](h.Tab, `(window.__assistGame.render(), true)`)
	linked("after the result screen is drawn again")
	h.Reload(true)
	h.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="link-save"]')`)
	linked("after a reload")
	h.Tap("link-save")
	h.WaitJS(10*time.Second, `document.querySelector('[data-t="link"]').dataset.saved === 'yes'`)
	h.Calm("link-save")
	var p struct {
		Club *record.ClubInfo `json:"club"`
	}
	ts.GetJSON(t, "/host/api/games/"+id+"/protocol.json", h.Token(id), &p)
	if p.Club == nil || p.Club.PersonOf(1) != people[0].ID || p.Club.PersonOf(2) != people[1].ID || p.Club.PersonOf(3) != "" {
		t.Errorf("after the links: club %+v; want seat 1 Nino, seat 2 Keti, seat 3 a guest", p.Club)
	}
}
