package network

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

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
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	names := []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}
	id := h.Create(hosttest.GameSpec{Names: names, Deal: record.DealPass})

	var (
		cutAt      time.Time
		cutEntries int
		phase      = "online" // online → offline → back → lost answers → unreachable → done
		reloaded   bool
	)
	d := hosttest.TownDriver()
	d.Each = func(screen string, st record.State) {
		switch {
		case phase == "online" && screen == "speech" && st.Round == 1:
			// Day 1 begins: everything so far has arrived; cut the network.
			h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
			cutEntries = len(h.LocalEntries(id))
			h.Offline(true)
			cutAt = time.Now()
			phase = "offline"
		case phase == "offline" && screen == "speech" && st.Speaker == 3 && !reloaded:
			// A reload while offline would not load the page; the
			// phone keeps its entries across a reload once back.
			h.WaitJS(5*time.Second, `document.getElementById('sync').dataset.state === 'offline'`)
			h.Shot("offline-speech")
		case phase == "offline" && strings.HasPrefix(screen, "wake:") && st.Round == 2:
			// The town sleeps again. Nothing entered today reached
			// the server; the phone says how many wait.
			if got := len(ts.StoredEntries(t, id)); got != cutEntries {
				t.Fatalf("the server holds %d entries while offline, want %d", got, cutEntries)
			}
			waiting := len(h.LocalEntries(id)) - cutEntries
			if waiting < 10 {
				t.Fatalf("only %d entries were made offline", waiting)
			}
			h.WaitJS(5*time.Second, `document.getElementById('sync').dataset.waiting === '`+hosttest.Itoa(waiting)+`'`)
			h.Shot("offline-waiting")
			if left := offlineFor - time.Since(cutAt); left > 0 {
				time.Sleep(left) // the connection stays down for over a minute
			}
			h.Offline(false)
			h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
			phase = "back"
			// Reload: the phone rebuilds the game from its own entries.
			before := h.State()
			h.Do(30*time.Second, chromedp.Reload())
			h.WaitJS(30*time.Second, `window.__assistReady === true && !!window.__assistGame`)
			if after := h.State(); after.Phase != before.Phase || after.Round != before.Round || !slices.Equal(after.Alive, before.Alive) {
				t.Fatalf("after a reload: %+v, before %+v", after, before)
			}
			reloaded = true
		case phase == "back" && screen == "speech" && st.Round == 2:
			// Day 2: the next two answers of the server are lost.
			ts.DropAnswers.Store(2)
			phase = "lost"
		case phase == "lost" && screen == "defence":
			// Then the server cannot be reached at all for a while.
			ts.Down.Store(true)
			phase = "unreachable"
		case phase == "unreachable" && (screen == "vote" || screen == "last_words" || strings.HasPrefix(screen, "wake:")):
			h.WaitJS(10*time.Second, `document.getElementById('sync').dataset.state === 'offline'`)
			ts.Down.Store(false)
			phase = "done"
		}
	}
	h.Play(d)
	if phase != "done" || ts.DropAnswers.Load() != 0 {
		t.Fatalf("the game ended before every failure was tried (at %q, %d answers still to lose)", phase, ts.DropAnswers.Load())
	}
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)

	local, stored := h.LocalEntries(id), ts.StoredEntries(t, id)
	if len(local) != len(stored) {
		t.Fatalf("the phone holds %d entries, the server %d", len(local), len(stored))
	}
	for i := range local {
		if local[i].ID != stored[i].ID || local[i].Seq != i || stored[i].Seq != i {
			t.Fatalf("entry %d: phone %+v, server %+v", i, local[i], stored[i])
		}
	}
	g, log := ts.Replay(t, id) // fails on any duplicate or a log that is not the entries'
	if !g.Ended() {
		t.Fatal("the server's game has not ended")
	}
	p := ts.Protocol(t, h, id)
	hosttest.CheckLog(t, p.Events, log)
	if ts.Syncs.Load() < 4 {
		t.Errorf("only %d sync requests", ts.Syncs.Load())
	}
	h.Shot("offline-result")
}
