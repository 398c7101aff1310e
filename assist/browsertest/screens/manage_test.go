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
	"mafia/engine"
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

// TestCorrectingNamesAndDeletingAreTheHostsAndChecked: another token is
// refused, a blank or too long name is refused with its seat, and nothing
// changes.
func TestCorrectingNamesAndDeletingAreTheHostsAndChecked(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	names := []string{"A", "B", "C", "D", "E", "F", "G"}
	var e struct {
		Error struct{ Code, Message string }
	}
	if code := hosttest.Call(t, "PUT", ts.URL+"/host/api/games/"+c.ID+"/names", "not-the-token", map[string]any{"names": names}, &e); code != http.StatusForbidden {
		t.Fatalf("a foreign token renames: %d %+v", code, e)
	}
	if code := hosttest.Call(t, "DELETE", ts.URL+"/host/api/games/"+c.ID, "not-the-token", nil, &e); code != http.StatusForbidden {
		t.Fatalf("a foreign token deletes: %d %+v", code, e)
	}
	bad := append([]string(nil), names...)
	bad[4] = "   "
	if code := hosttest.Call(t, "PUT", ts.URL+"/host/api/games/"+c.ID+"/names", c.HostToken, map[string]any{"names": bad}, &e); code != http.StatusBadRequest || e.Error.Code != "bad_settings" || !strings.Contains(e.Error.Message, "5") {
		t.Fatalf("a blank name: %d %+v", code, e)
	}
	if code := hosttest.Call(t, "PUT", ts.URL+"/host/api/games/"+c.ID+"/names", c.HostToken, map[string]any{"names": names[:6]}, &e); code != http.StatusBadRequest {
		t.Fatalf("six names for seven seats: %d %+v", code, e)
	}
	var game struct{ Settings record.Settings }
	ts.GetJSON(t, "/host/api/games/"+c.ID, c.HostToken, &game)
	if strings.Join(game.Settings.Names, "") != "ABCDEFG" {
		t.Fatalf("the names changed: %v", game.Settings.Names)
	}
}

// TestAFinishedGameCannotBeDeleted plays a game to the end through the API
// (the mafia kill the first town player each night, the town votes out a
// town player each day) and asks to delete it: refused (game_ended_kept),
// and the game stays in the history.
func TestAFinishedGameCannotBeDeleted(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	g, _, err := record.Replay(&c.Settings, nil)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []engine.Command
	do := func(cs ...engine.Command) {
		for _, x := range cs {
			if _, err := g.Handle(x); err != nil {
				t.Fatalf("%+v: %v", x, err)
			}
			cmds = append(cmds, x)
		}
	}
	town := func(s int) bool { r := c.Settings.Roles[s-1]; return r != "mafia" && r != "don" }
	for step := 0; !g.Ended() && step < 500; step++ {
		st := record.Snapshot(g)
		switch st.Phase {
		case "night":
			acted := false
			for _, w := range st.Night.Wakes {
				if w.Acted || !w.Alive {
					continue
				}
				if w.Role == "mafia" {
					for _, s := range w.Targets {
						if town(s) {
							do(record.MafiaCommands(g, engine.Seat(s))...)
							acted = true
							break
						}
					}
				} else if w.CanSkip {
					do(engine.Command{Verb: engine.Skip, By: engine.Seat(w.Actor)})
					acted = true
				}
				if acted {
					break
				}
			}
			if !acted {
				do(hosttest.Next)
			}
		case "speech":
			if !st.Nominated && len(st.Candidates) == 0 {
				for _, s := range st.Nominate {
					if town(s) {
						do(engine.Command{Verb: engine.Nominate, By: engine.Seat(st.Speaker), Target: engine.Seat(s)})
						break
					}
				}
			}
			do(hosttest.Next)
		default:
			do(hosttest.Next)
		}
	}
	if !g.Ended() {
		t.Fatal("the game did not end")
	}
	list := hosttest.Entries(0, cmds...)
	if code, a := hosttest.SyncUp(t, ts, c, list...); code != 200 || !a.Ended {
		t.Fatalf("sync: %d %+v", code, a)
	}
	var e struct {
		Error struct{ Code, Message string }
	}
	if code := hosttest.Call(t, "DELETE", ts.URL+"/host/api/games/"+c.ID, c.HostToken, nil, &e); code != http.StatusConflict || e.Error.Code != "game_ended_kept" || e.Error.Message == "" {
		t.Fatalf("deleting a finished game: %d %+v", code, e)
	}
	var hist struct{ Games []struct{ ID string } }
	ts.GetJSON(t, "/host/api/games", c.HostToken, &hist) // listed to its host
	if len(hist.Games) != 1 || hist.Games[0].ID != c.ID {
		t.Fatalf("the history: %+v", hist)
	}
}
