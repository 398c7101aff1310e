package screens

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/locale"
)

// TestAnAbandonedGameIsDeletedAndNamesAreCorrected deletes a game left
// unfinished from the club's history (after a confirmation), and corrects a
// player's name in a game already made: the server's record takes the new
// name, keeps the change, and the protocol lists it.
func TestAnAbandonedGameIsDeletedAndNamesAreCorrected(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	gone := h.Create(hosttest.GameSpec{Names: hosttest.Names11[:7], Deal: record.DealPass})
	token := h.Token(gone)
	h.Do(5*time.Second, chromedp.Navigate(ts.URL+"/host/#/"))
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="history"] tr[data-id="`+gone+`"]')`)
	h.Click(`.games li[data-id="` + gone + `"] [data-t="delete"]`)
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="delete-question"]')`)
	h.Shot("manage-delete-confirm")
	h.Tap("delete-yes")
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="history"]') && !document.querySelector('.games li[data-id="`+gone+`"]')`)
	h.WaitJS(10*time.Second, `!document.querySelector('[data-t="history"] tr[data-id="`+gone+`"]') &&
		document.querySelector('[data-t="history"]').textContent !== `+strconv.Quote(locale.New(locale.En).T("assist.loading", nil)))
	var list struct{ Games []struct{ ID string } }
	ts.GetJSON(t, "/host/api/games", token, &list) // listed to its host, were it kept
	for _, g := range list.Games {
		if g.ID == gone {
			t.Fatalf("the deleted game is still in the history: %+v", list)
		}
	}
	req, _ := http.NewRequest("GET", ts.URL+"/host/api/games/"+gone, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Fatalf("the deleted game still answers: %v", res.Status)
	}

	// A name corrected after the game was made.
	id := h.Create(hosttest.GameSpec{Names: hosttest.Names11[:7], Deal: record.DealPass})
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="reveal"]')`)
	h.Deal()
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="wake"]')`)
	h.Tap("menu")
	h.Tap("menu-names")
	h.SetValue(`[data-t="rename-3"]`, "Tamuna")
	h.Tap("save-names")
	h.WaitJS(10*time.Second, `window.__assistGame.rec.settings.names[2] === 'Tamuna' && !!document.querySelector('[data-t="wake"]')`)
	var game struct{ Settings record.Settings }
	ts.GetJSON(t, "/host/api/games/"+id, h.Token(id), &game)
	if game.Settings.NameOf(3) != "Tamuna" || game.Settings.NameOf(2) != hosttest.Names11[1] {
		t.Fatalf("the server's names: %v", game.Settings.Names)
	}
	var p struct{ Renames []assist.Rename }
	ts.GetJSON(t, "/host/api/games/"+id+"/protocol.json", h.Token(id), &p)
	if len(p.Renames) != 1 || p.Renames[0].Seat != 3 || p.Renames[0].From != "Tamar" || p.Renames[0].To != "Tamuna" {
		t.Fatalf("the record's renames: %+v", p.Renames)
	}
	req, _ = http.NewRequest("GET", ts.URL+"/host/games/"+id+"?lang=en", nil)
	req.Header.Set("Authorization", "Bearer "+h.Token(id))
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	want := locale.New(locale.En).T("assist.rename.line", map[string]any{"Seat": 3, "From": "Tamar", "To": "Tamuna"})
	if !strings.Contains(string(b), want) && !strings.Contains(string(b), strings.NewReplacer("“", "&#34;", "”", "&#34;").Replace(want)) {
		t.Errorf("the printable protocol does not say %q", want)
	}
}
