package assist_test

import (
	"net/http"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestARewriteOfAnUndoIsStoredAsTheReplayedGame: the host fouled seat 1,
// took it back and fouled again, then took that back too; a correction
// rewrites the last undo into two fouls. The undo had taken events back,
// so the stored log must change from where the old and the new log part,
// not from where the entries before the rewrite end (it was refused
// internal: the store was asked to append past its end).
func TestARewriteOfAnUndoIsStoredAsTheReplayedGame(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	list := hosttest.Entries(0, hosttest.Kill7, hosttest.Next, hosttest.Next, foul(1))
	list = append(list, undoOf(4, 3))
	list = append(list, hosttest.Entries(5, foul(1))...)
	list = append(list, undoOf(6, 5))
	if code, a := hosttest.SyncUp(t, ts, c, list...); code != http.StatusOK || a.Applied != len(list) {
		t.Fatalf("%d %+v", code, a)
	}
	two := hosttest.Entries(6, foul(2), foul(3))
	code, _, b := postJSON(t, ts.URL+"/host/api/games/"+c.ID+"/sync", c.HostToken, "en",
		map[string]any{"commands": two, "rewrite": map[string]any{"from": 6, "was": list[6].ID}})
	if code != http.StatusOK {
		t.Fatalf("the rewrite: %d %s", code, b)
	}
	_, want := wantLog(t, &c.Settings, append(list[:6:6], two...)...)
	sameLog(t, "after the rewrite", hosttest.StoredEvents(t, ts, c.ID), want)
}

// TestARewriteSavedWithoutItsEventsIsRecovered: a correction's rewrite
// (here a foul given to another seat) is saved in the game's entries but
// the log's rewrite fails (a full disk; or the host's page reloaded as the
// write went on). The phone sends it again: reading the game rewrites the
// log from the entries, the repeat is taken as a repeat, and the stored log
// is the corrected game's. (It was refused internal for good: reading the
// game knew only an undo's unfinished rewrite, so the host's phone stayed
// "offline" with its entries waiting.)
func TestARewriteSavedWithoutItsEventsIsRecovered(t *testing.T) {
	ts, fs := rewriteFailing(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	list := hosttest.Entries(0, hosttest.Kill7, hosttest.Next, hosttest.Next, foul(1))
	if code, a := hosttest.SyncUp(t, ts, c, list...); code != http.StatusOK || a.Applied != len(list) {
		t.Fatalf("%d %+v", code, a)
	}
	fixed := hosttest.Entries(3, foul(2))
	fixed[0].ID = "fixed-3"
	req := map[string]any{"commands": fixed, "rewrite": map[string]any{"from": 3, "was": list[3].ID}}
	fs.fail = true
	if code, _, b := postJSON(t, ts.URL+"/host/api/games/"+c.ID+"/sync", c.HostToken, "en", req); code != http.StatusInternalServerError {
		t.Fatalf("a failed rewrite of the log answers %d %s", code, b)
	}
	code, _, b := postJSON(t, ts.URL+"/host/api/games/"+c.ID+"/sync", c.HostToken, "en", req)
	if code != http.StatusOK {
		t.Fatalf("the repeat: %d %s", code, b)
	}
	_, want := wantLog(t, &c.Settings, append(list[:3:3], fixed...)...)
	sameLog(t, "recovered", hosttest.StoredEvents(t, ts, c.ID), want)
}
