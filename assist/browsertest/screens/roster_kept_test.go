package screens

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestTheRosterKeptOnThePhoneSeatsAnOfflineClubGame (issue 29, defect 2):
// the phone keeps a copy of the club's roster while it is online; without
// the server the seat's search runs on that copy ("nino" finds ნინო and
// Нино by the server's folding kept with each entry; "tam" finds Tamar),
// the picks are roster entries, and the game made on the phone counts
// them, not guests, once the server has it.
func TestTheRosterKeptOnThePhoneSeatsAnOfflineClubGame(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	cl, people := hosttest.NewClubWith(t, ts, "ნინო", "Нино", "Tamar")
	h := hosttest.OpenHost(t, ts, "roster-kept")
	h.Tap("new-game")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.Tap("size-7")
	h.Click(`[data-t="deal-pass"]`)
	h.SetValue(`[data-t="club-code"]`, cl.ID+"."+cl.Token)
	h.Tap("club-join")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="club-joined"]')`)
	h.WaitJS(10*time.Second, `(JSON.parse(localStorage.getItem('assist.roster.`+cl.ID+`') || '[]')).length === 3`)

	ts.Down.Store(true)
	h.SetValue(`[data-t="name-1"]`, "nino")
	h.WaitJS(10*time.Second, `document.querySelectorAll('[data-t="pick-1"]').length === 2`)
	found := hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('[data-t="pick-1"]')].map((b) => b.dataset.person)`)
	slices.Sort(found)
	want := []string{people[0].ID, people[1].ID}
	slices.Sort(want)
	if !slices.Equal(found, want) {
		t.Errorf("offline, nino finds %v; want ნინო and Нино %v", found, want)
	}
	h.Click(`[data-t="pick-1"][data-person="` + people[0].ID + `"]`)
	h.SetValue(`[data-t="name-2"]`, "tam")
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="pick-2"][data-person="`+people[2].ID+`"]')`)
	h.Click(`[data-t="pick-2"][data-person="` + people[2].ID + `"]`)
	h.WaitJS(5*time.Second, `document.querySelector('[data-t="name-2"]').dataset.person !== ''`)
	for i, n := range []string{"Levan", "Ana", "Dato", "Eka", "Gela"} {
		h.SetValue(`[data-t="name-`+strconv.Itoa(i+3)+`"]`, n)
	}
	h.Tap("create")
	h.WaitJS(10*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame && !!window.__assistGame.rec.create`)
	id := strings.TrimPrefix(hosttest.Eval[string](h.Tab, `location.hash`), "#/game/")

	ts.Down.Store(false)
	h.WaitJS(hosttest.SyncWait, `!window.__assistGame.rec.create && document.getElementById('sync').dataset.waiting === '0'`)
	var p struct {
		Club *record.ClubInfo `json:"club"`
	}
	ts.GetJSON(t, "/host/api/games/"+id+"/protocol.json", h.Token(id), &p)
	if p.Club == nil || p.Club.PersonOf(1) != people[0].ID || p.Club.PersonOf(2) != people[2].ID || p.Club.PersonOf(3) != "" {
		t.Errorf("the game made offline: club %+v; want seat 1 ნინო, seat 2 Tamar, seat 3 a guest", p.Club)
	}
}
