package phone

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestGamesKeptByAnOlderPageAreMoved: a phone that ran the page before it
// kept its games in IndexedDB holds them in localStorage. Opened with this
// page, the game is moved to IndexedDB whole (its entries, its screens),
// listed among the phone's games, opened where it stood, and gone from
// localStorage.
func TestGamesKeptByAnOlderPageAreMoved(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	id := h.Create(hosttest.GameSpec{Names: hosttest.Names7, Deal: record.DealPass})
	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "speech" }
	h.Play(d)
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	before := h.State()
	entries := h.LocalEntries(id)
	rec := h.StoredRecord(id)
	// As the older page kept it: in localStorage, and not in IndexedDB.
	hosttest.EvalAwait[bool](h.Tab, `(async () => {
		localStorage.setItem('assist.game.`+id+`', `+hosttest.JsString(rec)+`);
		localStorage.setItem('assist.games', JSON.stringify([{id: `+hosttest.JsString(id)+`, name: '', created: '', ended: false}]));
		await new Promise((resolve, reject) => {
			const r = indexedDB.open('assist');
			r.onsuccess = () => {
				const tx = r.result.transaction('games', 'readwrite');
				tx.objectStore('games').delete(`+hosttest.JsString(id)+`);
				tx.oncomplete = () => { r.result.close(); resolve(); };
				tx.onerror = () => reject(tx.error);
			};
		});
		return true;
	})()`)
	if h.StoredRecord(id) != "" {
		t.Fatal("the game is still in IndexedDB")
	}
	h.Do(30*time.Second, chromedp.Navigate(ts.URL+"/host/#/"), chromedp.Reload())
	h.WaitJS(30*time.Second, `window.__assistReady === true && !!document.querySelector('[data-t="resume"]')`)
	if got := h.LocalEntries(id); len(got) != len(entries) || got[len(got)-1].ID != entries[len(entries)-1].ID {
		t.Fatalf("moved with %d entries, the older page held %d", len(got), len(entries))
	}
	if hosttest.Eval[bool](h.Tab, `localStorage.getItem('assist.game.`+id+`') !== null || localStorage.getItem('assist.games') !== null`) {
		t.Error("the game is still in localStorage")
	}
	h.Click(`[data-t="resume"]`)
	h.WaitJS(10*time.Second, `!!window.__assistGame && location.hash === '#/game/`+id+`'`)
	if got := h.State(); got.Phase != before.Phase || got.Round != before.Round || got.Speaker != before.Speaker {
		t.Fatalf("the moved game stands at %+v, it stood at %+v", got, before)
	}
	if got := h.Screen(); got != "speech" {
		t.Fatalf("the moved game shows %q", got)
	}
}
