package assist_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/record"
)

// TestGamesKeptByAnOlderPageAreMoved: a phone that ran the page before it
// kept its games in IndexedDB holds them in localStorage. Opened with this
// page, the game is moved to IndexedDB whole (its entries, its screens),
// listed among the phone's games, opened where it stood, and gone from
// localStorage.
func TestGamesKeptByAnOlderPageAreMoved(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	h := openHost(t, ts, "host")
	id := h.create(gameSpec{Names: names7, Deal: record.DealPass})
	d := townDriver()
	d.stop = func(st record.State) bool { return st.Phase == "speech" }
	h.play(d)
	h.waitJS(syncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	before := h.state()
	entries := h.localEntries(id)
	rec := h.storedRecord(id)
	// As the older page kept it: in localStorage, and not in IndexedDB.
	evalAwait[bool](h.tab, `(async () => {
		localStorage.setItem('assist.game.`+id+`', `+jsString(rec)+`);
		localStorage.setItem('assist.games', JSON.stringify([{id: `+jsString(id)+`, name: '', created: '', ended: false}]));
		await new Promise((resolve, reject) => {
			const r = indexedDB.open('assist');
			r.onsuccess = () => {
				const tx = r.result.transaction('games', 'readwrite');
				tx.objectStore('games').delete(`+jsString(id)+`);
				tx.oncomplete = () => { r.result.close(); resolve(); };
				tx.onerror = () => reject(tx.error);
			};
		});
		return true;
	})()`)
	if h.storedRecord(id) != "" {
		t.Fatal("the game is still in IndexedDB")
	}
	h.do(30*time.Second, chromedp.Navigate(ts.URL+"/host/#/"), chromedp.Reload())
	h.waitJS(30*time.Second, `window.__assistReady === true && !!document.querySelector('[data-t="resume"]')`)
	if got := h.localEntries(id); len(got) != len(entries) || got[len(got)-1].ID != entries[len(entries)-1].ID {
		t.Fatalf("moved with %d entries, the older page held %d", len(got), len(entries))
	}
	if eval[bool](h.tab, `localStorage.getItem('assist.game.`+id+`') !== null || localStorage.getItem('assist.games') !== null`) {
		t.Error("the game is still in localStorage")
	}
	h.click(`[data-t="resume"]`)
	h.waitJS(10*time.Second, `!!window.__assistGame && location.hash === '#/game/`+id+`'`)
	if got := h.state(); got.Phase != before.Phase || got.Round != before.Round || got.Speaker != before.Speaker {
		t.Fatalf("the moved game stands at %+v, it stood at %+v", got, before)
	}
	if got := h.screen(); got != "speech" {
		t.Fatalf("the moved game shows %q", got)
	}
}
