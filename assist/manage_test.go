package assist_test

import (
	"net/http"
	"strings"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
)

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
