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
