package network

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestAGameMovesToAnotherPhone: the host opens the hand-off screen (a link
// with the host's token in its fragment, and its QR code); a second phone
// (a browser context of its own) opens the link, loads the game from the
// server, shows the same screen and plays on. The first phone, entering
// again, is told the game continues on another phone and, after a
// confirmation that names how many of its entries are dropped, loads the
// server's game and goes on with it.
func TestAGameMovesToAnotherPhone(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	first := hosttest.OpenHost(t, ts, "first")
	names := []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}
	id := first.Create(hosttest.GameSpec{Names: names, Deal: record.DealPass})
	d := hosttest.TownDriver()
	at := func(phase string, round int) func(st record.State) bool {
		return func(st record.State) bool { return st.Phase == phase && st.Round == round }
	}
	d.Stop = func(st record.State) bool {
		return st.Phase == "speech" && st.Round == 1 && st.Speaker != 0 && len(st.Queue) < 3
	}
	first.Play(d)
	first.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	before := first.State()
	screen := first.Screen()

	// The hand-off screen, from the game's menu.
	first.Tap("menu")
	first.Tap("handoff")
	first.WaitJS(5*time.Second, `!!document.querySelector('[data-t="handoff-link"]')`)
	link := hosttest.Eval[string](first.Tab, `document.querySelector('[data-t="handoff-link"]').value`)
	src := hosttest.Eval[string](first.Tab, `document.querySelector('[data-t="handoff-qr"]').getAttribute('src')`)
	if !strings.HasPrefix(src, "data:image/svg+xml") || !strings.Contains(src, "svg") {
		t.Fatalf("the QR code is %.60s", src)
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	token := first.Token(id)
	if u.Fragment != "/join/"+id+"/"+token || strings.Contains(u.RawQuery, token) || strings.Contains(u.Path, token) {
		t.Fatalf("the link %s does not carry the game and the token in its fragment only", link)
	}
	first.Shot("handoff-screen")

	// The second phone opens the link.
	second := hosttest.OpenHost(t, ts, "second")
	second.Do(30*time.Second, hosttest.Navigate(link))
	second.WaitJS(30*time.Second, `window.__assistReady === true && !!window.__assistGame && location.hash === '#/game/`+id+`'`)
	if got := second.State(); got.Phase != before.Phase || got.Round != before.Round || got.Speaker != before.Speaker ||
		!slices.Equal(got.Alive, before.Alive) || !slices.Equal(got.Candidates, before.Candidates) {
		t.Fatalf("the second phone: %+v; the first: %+v", got, before)
	}
	if got := second.Screen(); got != screen {
		t.Fatalf("the second phone shows %s, the first showed %s", got, screen)
	}
	if a, b := second.LocalEntries(id), first.LocalEntries(id); len(a) != len(b) || a[len(a)-1].ID != b[len(b)-1].ID {
		t.Fatalf("the second phone holds %d entries, the first %d", len(a), len(b))
	}
	if strings.Contains(hosttest.Eval[string](second.Tab, `location.href`), token) {
		t.Error("the token stays in the second phone's address bar")
	}
	second.Shot("handoff-second-phone")

	// The second phone plays on to night 2.
	d.Stop = at("night", 2)
	second.Play(d)
	second.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	onServer := len(ts.StoredEntries(t, id))

	// The first phone enters again: the server refuses it as diverged.
	first.Tap("back")
	first.WaitJS(5*time.Second, `!!document.querySelector('[data-t="end"]')`)
	first.Tap("end")
	first.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="diverged"]')`)
	first.Shot("handoff-diverged")
	if n := len(ts.StoredEntries(t, id)); n != onServer {
		t.Fatalf("the first phone's entry changed the server: %d entries, %d before", n, onServer)
	}
	// The refusal counts the other phone's entries: this phone's entry is
	// still waiting, and the sync light does not say that all was sent.
	if w := hosttest.Eval[string](first.Tab, `document.getElementById('sync').dataset.waiting`); w != "1" {
		t.Errorf("after the diverged refusal the first phone says %s entries wait, want 1", w)
	}
	first.Tap("reload-game")
	first.WaitJS(10*time.Second, `!!document.querySelector('[data-t="drop-count"]')`)
	if n := hosttest.Eval[string](first.Tab, `document.querySelector('[data-t="drop-count"]').dataset.count`); n != "1" {
		t.Fatalf("the first phone would drop %s entries, want 1", n)
	}
	first.Tap("confirm-reload")
	first.WaitJS(10*time.Second, `!document.querySelector('[data-t="diverged"]')`)
	if a, b := first.State(), second.State(); a.Phase != b.Phase || a.Round != b.Round || !slices.Equal(a.Alive, b.Alive) {
		t.Fatalf("the first phone after the reload: %+v; the second: %+v", a, b)
	}
	if a, b := first.LocalEntries(id), ts.StoredEntries(t, id); len(a) != len(b) || a[len(a)-1].ID != b[len(b)-1].ID {
		t.Fatalf("the first phone holds %d entries, the server %d", len(a), len(b))
	}
	if first.Screen() != second.Screen() {
		t.Fatalf("the first phone shows %s, the second %s", first.Screen(), second.Screen())
	}

	// The second phone goes on while the first lies idle; the first, opened
	// again, says at once that the game continues on another phone, and
	// loads it without a question (none of its entries is dropped).
	d.Stop = at("speech", 2)
	second.Play(d)
	second.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	first.Do(30*time.Second, chromedp.Reload())
	first.WaitJS(30*time.Second, `window.__assistReady === true && !!document.querySelector('[data-t="diverged"]')`)
	first.Tap("reload-game")
	first.WaitJS(10*time.Second, `!document.querySelector('[data-t="diverged"]')`)
	if a, b := first.State(), second.State(); a.Phase != b.Phase || a.Round != b.Round || a.Speaker != b.Speaker {
		t.Fatalf("the first phone opened again: %+v; the second: %+v", a, b)
	}

	// The first phone takes the game back and finishes it; the protocol is
	// the engine's log of every entry, whichever phone made it.
	d.Stop = nil
	first.Play(d)
	first.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0' && document.getElementById('sync').dataset.state !== 'error'`)
	_, log := ts.Replay(t, id)
	hosttest.CheckLog(t, ts.Protocol(t, first, id).Events, log)
}
