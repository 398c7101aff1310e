package assist_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

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
	ts := startServer(t)
	first := openHost(t, ts, "first")
	names := []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}
	id := first.create(gameSpec{Names: names, Deal: record.DealPass})
	d := townDriver()
	at := func(phase string, round int) func(st record.State) bool {
		return func(st record.State) bool { return st.Phase == phase && st.Round == round }
	}
	d.stop = func(st record.State) bool {
		return st.Phase == "speech" && st.Round == 1 && st.Speaker != 0 && len(st.Queue) < 3
	}
	first.play(d)
	first.waitJS(syncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	before := first.state()
	screen := first.screen()

	// The hand-off screen, from the game's menu.
	first.tap("menu")
	first.tap("handoff")
	first.waitJS(5*time.Second, `!!document.querySelector('[data-t="handoff-link"]')`)
	link := eval[string](first.tab, `document.querySelector('[data-t="handoff-link"]').value`)
	src := eval[string](first.tab, `document.querySelector('[data-t="handoff-qr"]').getAttribute('src')`)
	if !strings.HasPrefix(src, "data:image/svg+xml") || !strings.Contains(src, "svg") {
		t.Fatalf("the QR code is %.60s", src)
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	token := first.token(id)
	if u.Fragment != "/join/"+id+"/"+token || strings.Contains(u.RawQuery, token) || strings.Contains(u.Path, token) {
		t.Fatalf("the link %s does not carry the game and the token in its fragment only", link)
	}
	first.shot("handoff-screen")

	// The second phone opens the link.
	second := openHost(t, ts, "second")
	second.do(30*time.Second, navigate(link))
	second.waitJS(30*time.Second, `window.__assistReady === true && !!window.__assistGame && location.hash === '#/game/`+id+`'`)
	if got := second.state(); got.Phase != before.Phase || got.Round != before.Round || got.Speaker != before.Speaker ||
		!slices.Equal(got.Alive, before.Alive) || !slices.Equal(got.Candidates, before.Candidates) {
		t.Fatalf("the second phone: %+v; the first: %+v", got, before)
	}
	if got := second.screen(); got != screen {
		t.Fatalf("the second phone shows %s, the first showed %s", got, screen)
	}
	if a, b := second.localEntries(id), first.localEntries(id); len(a) != len(b) || a[len(a)-1].ID != b[len(b)-1].ID {
		t.Fatalf("the second phone holds %d entries, the first %d", len(a), len(b))
	}
	if strings.Contains(eval[string](second.tab, `location.href`), token) {
		t.Error("the token stays in the second phone's address bar")
	}
	second.shot("handoff-second-phone")

	// The second phone plays on to night 2.
	d.stop = at("night", 2)
	second.play(d)
	second.waitJS(syncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	onServer := len(ts.storedEntries(t, id))

	// The first phone enters again: the server refuses it as diverged.
	first.tap("back")
	first.waitJS(5*time.Second, `!!document.querySelector('[data-t="end"]')`)
	first.tap("end")
	first.waitJS(syncWait, `!!document.querySelector('[data-t="diverged"]')`)
	first.shot("handoff-diverged")
	if n := len(ts.storedEntries(t, id)); n != onServer {
		t.Fatalf("the first phone's entry changed the server: %d entries, %d before", n, onServer)
	}
	// The refusal counts the other phone's entries: this phone's entry is
	// still waiting, and the sync light does not say that all was sent.
	if w := eval[string](first.tab, `document.getElementById('sync').dataset.waiting`); w != "1" {
		t.Errorf("after the diverged refusal the first phone says %s entries wait, want 1", w)
	}
	first.tap("reload-game")
	first.waitJS(10*time.Second, `!!document.querySelector('[data-t="drop-count"]')`)
	if n := eval[string](first.tab, `document.querySelector('[data-t="drop-count"]').dataset.count`); n != "1" {
		t.Fatalf("the first phone would drop %s entries, want 1", n)
	}
	first.tap("confirm-reload")
	first.waitJS(10*time.Second, `!document.querySelector('[data-t="diverged"]')`)
	if a, b := first.state(), second.state(); a.Phase != b.Phase || a.Round != b.Round || !slices.Equal(a.Alive, b.Alive) {
		t.Fatalf("the first phone after the reload: %+v; the second: %+v", a, b)
	}
	if a, b := first.localEntries(id), ts.storedEntries(t, id); len(a) != len(b) || a[len(a)-1].ID != b[len(b)-1].ID {
		t.Fatalf("the first phone holds %d entries, the server %d", len(a), len(b))
	}
	if first.screen() != second.screen() {
		t.Fatalf("the first phone shows %s, the second %s", first.screen(), second.screen())
	}

	// The second phone goes on while the first lies idle; the first, opened
	// again, says at once that the game continues on another phone, and
	// loads it without a question (none of its entries is dropped).
	d.stop = at("speech", 2)
	second.play(d)
	second.waitJS(syncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	first.do(30*time.Second, chromedp.Reload())
	first.waitJS(30*time.Second, `window.__assistReady === true && !!document.querySelector('[data-t="diverged"]')`)
	first.tap("reload-game")
	first.waitJS(10*time.Second, `!document.querySelector('[data-t="diverged"]')`)
	if a, b := first.state(), second.state(); a.Phase != b.Phase || a.Round != b.Round || a.Speaker != b.Speaker {
		t.Fatalf("the first phone opened again: %+v; the second: %+v", a, b)
	}

	// The first phone takes the game back and finishes it; the protocol is
	// the engine's log of every entry, whichever phone made it.
	d.stop = nil
	first.play(d)
	first.waitJS(syncWait, `document.getElementById('sync').dataset.waiting === '0' && document.getElementById('sync').dataset.state !== 'error'`)
	_, log := ts.replay(t, id)
	checkLog(t, ts.protocol(t, first, id).Events, log)
}
