package screens

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestTheClubsListShowsItsGamesAndClosesAnAbandonedOne: a phone that made
// a game of no club keeps the club's code; its home screen's "The club's
// games" lists the club's game made on another phone (still in progress:
// that phone is gone) and not this phone's own game of no club. The host
// closes the abandoned game (Close, then Close the game): it leaves the
// list, and the server no longer lists it.
func TestTheClubsListShowsItsGamesAndClosesAnAbandonedOne(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	cl, _ := hosttest.NewClubWith(t, ts)
	var abandoned hosttest.Created
	body := map[string]any{"name": "Table B", "names": hosttest.Names7, "deal": record.DealManual, "roles": hosttest.Roles7, "club_token": cl.Token,
		"club": map[string]any{"club": cl.ID, "day": "2026-12-01"}}
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", body, &abandoned); code != http.StatusCreated {
		t.Fatalf("the club's game: %d", code)
	}
	h := hosttest.OpenHost(t, ts, "club-games")
	own := h.Create(hosttest.GameSpec{Names: []string{"Nino", "Keti", "Zura", "Dato", "Lika", "Gela", "Tako"}, Deal: record.DealPass})
	h.Do(5*time.Second, hosttest.Navigate(ts.URL+"/host/#/new"))
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="club-code"]')`)
	h.SetValue(`[data-t="club-code"]`, cl.ID+"."+cl.Token)
	h.Tap("club-join")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="club-joined"]')`)
	h.Do(5*time.Second, hosttest.Navigate(ts.URL+"/host/#/"))
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="history"] table, [data-t="history"] p.note:not(:empty)') && !document.querySelector('[data-t="history"]').textContent.includes('…')`)
	rows := func() []string {
		return hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('[data-t="history"] tr[data-id]')].map((r) => r.dataset.id)`)
	}
	if got := rows(); !slices.Equal(got, []string{abandoned.ID}) {
		t.Fatalf("the club's games list %v; want the club's game %s only (not this phone's game %s of no club)", got, abandoned.ID, own)
	}
	h.NoSideScroll("the club's games")
	h.Click(`tr[data-id="` + abandoned.ID + `"] [data-t="close-game"]`)
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="close-question"]')`)
	h.Tap("close-yes")
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="history"]') && !document.querySelector('[data-t="history"]').textContent.includes('…') && !document.querySelector('tr[data-id="`+abandoned.ID+`"]')`)
	h.Calm("close")
	var list struct{ Games []struct{ ID string } }
	ts.GetJSON(t, "/host/api/games?club="+cl.ID, cl.Token, &list)
	if len(list.Games) != 0 {
		t.Errorf("the server still lists %v", list.Games)
	}
}
