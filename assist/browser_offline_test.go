package assist_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/record"
	"mafia/store"
)

// storedEntries returns the entries the server holds for a game.
func (ts *testServer) storedEntries(t *testing.T, id string) []record.Command {
	t.Helper()
	tbl, _, err := ts.db.Table(context.Background(), store.KindInPerson, id)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		InPerson struct{ Commands []record.Command } `json:"in_person"`
	}
	if err := json.Unmarshal(tbl.Data, &c); err != nil {
		t.Fatal(err)
	}
	return c.InPerson.Commands
}

// localEntries returns the entries the phone holds for a game.
func (h *host) localEntries(id string) []record.Command {
	h.t.Helper()
	var rec struct{ Commands []record.Command }
	if err := json.Unmarshal([]byte(h.storedRecord(id)), &rec); err != nil {
		h.t.Fatal(err)
	}
	return rec.Commands
}

// TestADroppedConnectionLosesNothing plays a 7-player game while the
// connection fails three ways: the phone is offline for over a minute
// (the whole of day 1), the server's answers are lost (the entries arrive
// but the phone does not hear so), and the server cannot be reached (the
// connection is closed on every request). The host keeps playing; the
// entries made meanwhile wait on the phone, survive a reload, arrive when
// the connection returns, and none is applied twice.
func TestADroppedConnectionLosesNothing(t *testing.T) {
	// Its minute offline is a wait: the package's other browser tests run
	// meanwhile (they are all parallel).
	t.Parallel()
	offlineFor := 61 * time.Second
	if testing.Short() {
		offlineFor = 3 * time.Second
	}
	ts := startServer(t)
	h := openHost(t, ts, "host")
	names := []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}
	id := h.create(gameSpec{Names: names, Deal: record.DealPass})

	var (
		cutAt      time.Time
		cutEntries int
		phase      = "online" // online → offline → back → lost answers → unreachable → done
		reloaded   bool
	)
	d := townDriver()
	d.each = func(screen string, st record.State) {
		switch {
		case phase == "online" && screen == "speech" && st.Round == 1:
			// Day 1 begins: everything so far has arrived; cut the network.
			h.waitJS(syncWait, `document.getElementById('sync').dataset.waiting === '0'`)
			cutEntries = len(h.localEntries(id))
			h.offline(true)
			cutAt = time.Now()
			phase = "offline"
		case phase == "offline" && screen == "speech" && st.Speaker == 3 && !reloaded:
			// A reload while offline would not load the page; the
			// phone keeps its entries across a reload once back.
			h.waitJS(5*time.Second, `document.getElementById('sync').dataset.state === 'offline'`)
			h.shot("offline-speech")
		case phase == "offline" && strings.HasPrefix(screen, "wake:") && st.Round == 2:
			// The town sleeps again. Nothing entered today reached
			// the server; the phone says how many wait.
			if got := len(ts.storedEntries(t, id)); got != cutEntries {
				t.Fatalf("the server holds %d entries while offline, want %d", got, cutEntries)
			}
			waiting := len(h.localEntries(id)) - cutEntries
			if waiting < 10 {
				t.Fatalf("only %d entries were made offline", waiting)
			}
			h.waitJS(5*time.Second, `document.getElementById('sync').dataset.waiting === '`+itoa(waiting)+`'`)
			h.shot("offline-waiting")
			if left := offlineFor - time.Since(cutAt); left > 0 {
				time.Sleep(left) // the connection stays down for over a minute
			}
			h.offline(false)
			h.waitJS(syncWait, `document.getElementById('sync').dataset.waiting === '0'`)
			phase = "back"
			// Reload: the phone rebuilds the game from its own entries.
			before := h.state()
			h.do(30*time.Second, chromedp.Reload())
			h.waitJS(30*time.Second, `window.__assistReady === true && !!window.__assistGame`)
			if after := h.state(); after.Phase != before.Phase || after.Round != before.Round || !slices.Equal(after.Alive, before.Alive) {
				t.Fatalf("after a reload: %+v, before %+v", after, before)
			}
			reloaded = true
		case phase == "back" && screen == "speech" && st.Round == 2:
			// Day 2: the next two answers of the server are lost.
			ts.dropAnswers.Store(2)
			phase = "lost"
		case phase == "lost" && screen == "defence":
			// Then the server cannot be reached at all for a while.
			ts.down.Store(true)
			phase = "unreachable"
		case phase == "unreachable" && (screen == "vote" || screen == "last_words" || strings.HasPrefix(screen, "wake:")):
			h.waitJS(10*time.Second, `document.getElementById('sync').dataset.state === 'offline'`)
			ts.down.Store(false)
			phase = "done"
		}
	}
	h.play(d)
	if phase != "done" || ts.dropAnswers.Load() != 0 {
		t.Fatalf("the game ended before every failure was tried (at %q, %d answers still to lose)", phase, ts.dropAnswers.Load())
	}
	h.waitJS(syncWait, `document.getElementById('sync').dataset.waiting === '0'`)

	local, stored := h.localEntries(id), ts.storedEntries(t, id)
	if len(local) != len(stored) {
		t.Fatalf("the phone holds %d entries, the server %d", len(local), len(stored))
	}
	for i := range local {
		if local[i].ID != stored[i].ID || local[i].Seq != i || stored[i].Seq != i {
			t.Fatalf("entry %d: phone %+v, server %+v", i, local[i], stored[i])
		}
	}
	g, log := ts.replay(t, id) // fails on any duplicate or a log that is not the entries'
	if !g.Ended() {
		t.Fatal("the server's game has not ended")
	}
	p := ts.protocol(t, h, id)
	checkLog(t, p.Events, log)
	if ts.syncs.Load() < 4 {
		t.Errorf("only %d sync requests", ts.syncs.Load())
	}
	h.shot("offline-result")
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
