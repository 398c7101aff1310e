package table

import (
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"mafia/engine"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web/internal/webtest"
)

// autoplayButPass is autoplay, except that when the page offers only the
// end of one's speech it presses nothing and says "pass-only": the solo
// game ends that speech from the keyboard. One script, so that the page
// cannot change between the look and the tap.
const autoplayButPass = `(() => {
  const act = document.querySelector('#t-act');
  if (act && !act.hidden && act.querySelector('button[data-verb=pass]:not([disabled])') && !act.querySelector('button[data-verb=nominate]')) return 'pass-only';
  return ` + webtest.Autoplay + `;
})()`

// pageNow is what the game loop reads of the page.
type pageNow struct {
	Phase   string `json:"phase"`   // the step the page shows
	Actions bool   `json:"actions"` // it offers a move
	Pass    bool   `json:"pass"`    // it offers only the end of one's speech
}

// TestBrowserSoloGame: one player in the browser, bots in the other seats,
// a complete game to the game-over screen, on a phone's screen; then the
// same screen on a desktop.
func TestBrowserSoloGame(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "solo", 360, 780)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/"), browsertest.WaitVisible(chromedp.CSS("#create")))
	p.Shot("01-lobby-360")
	p.Do(5*time.Second, chromedp.EmulateViewport(1280, 900))
	p.Shot("01-lobby-desktop")
	p.Do(5*time.Second, chromedp.EmulateViewport(360, 780))
	// Bots at instant pace: at the pace of people ten bots' speeches, each
	// read and then said a line at a time, would take most of the game's
	// minute (the room's tests pin that pace; this one tests the pages).
	// Nobody dies on the acquaintance night: our seat has a speech on day 1,
	// ended from the keyboard below. The speech is long enough for the
	// phase's screenshot first, however busy the machine (the keyboard ends
	// it at once).
	timings := maps.Clone(webtest.FastTimings)
	timings["speech"] = "30"
	table := webtest.CreateTableWith(p, ts.URL, "Nino", 11, timings, "instant", map[string]string{"first_night": "meeting"})
	p.Do(10*time.Second, browsertest.WaitVisible(chromedp.CSS("#add-bots")))
	p.Shot("02-table-lobby-360")
	p.Do(10*time.Second,
		browsertest.Click(chromedp.CSS("#add-bots")),
		browsertest.WaitEnabled(chromedp.CSS("#start")),
		browsertest.Click(chromedp.CSS("#start")),
		browsertest.WaitVisible(chromedp.CSS("#my-card")),
	)
	g, _ := ts.Game(t, table)
	seat := webtest.Eval[int](p, `+document.querySelector('.seat.me').dataset.seat`)
	role := webtest.Eval[string](p, `document.querySelector('#my-card [data-role]').dataset.role`)
	if want := g.Role(engine.Seat(seat)).String(); role != want {
		t.Fatalf("the card shows %q, the deal gave seat %d %q", role, seat, want)
	}

	shots := map[string]bool{}
	keyboard := false
	// A bound, not a pace: the form's expert bots play longer games than
	// the smart ones did (more of them reach day 4 or 5), each of the
	// person's floors a few seconds of clicks.
	deadline := time.Now().Add(180 * time.Second)
	moves := 0
	for {
		if time.Now().After(deadline) {
			t.Fatalf("no game over after %d moves:\n%s", moves, p.Text())
		}
		now := webtest.Eval[pageNow](p, `({
			phase: (document.querySelector('#phase') || {dataset: {}}).dataset.phase || '',
			actions: !!document.querySelector('#t-act:not([hidden]) button[data-verb]:not([disabled])'),
			pass: !!document.querySelector('#t-act button[data-verb=pass]:not([disabled])') && !document.querySelector('#t-act button[data-verb=nominate]'),
		})`)
		if now.Actions && !shots[now.Phase] && now.Phase != "" {
			shots[now.Phase] = true
			p.Shot("03-" + now.Phase + "-360")
		}
		if !keyboard && now.Pass {
			// The keyboard: focus the button, and Enter presses it.
			keyboard = true
			n := webtest.Eval[int](p, `window.__mafia.state.events.length`)
			p.Do(5*time.Second, browsertest.Focus(chromedp.CSS("#t-act button[data-verb=pass]")), chromedp.KeyEvent(kb.Enter))
			p.WaitJS(5*time.Second, fmt.Sprintf(`window.__mafia.state.events.length > %d`, n))
			continue
		}
		script := webtest.Autoplay
		if !keyboard {
			script = autoplayButPass
		}
		verb := webtest.Eval[string](p, script)
		if verb == "over" {
			break
		}
		if verb == "pass-only" {
			continue
		}
		if verb != "" {
			moves++
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !keyboard {
		t.Error("the game ended and no speech of ours was ended from the keyboard (nobody dies on the acquaintance night: we speak on day 1)")
	}
	p.WaitJS(5*time.Second, `document.querySelectorAll('#cards li').length > 0`)
	p.Shot("04-game-over-360")

	g, evs := ts.Game(t, table)
	if !g.Ended() {
		t.Fatal("the page shows the end, the server's game goes on")
	}
	en := locale.New(locale.En)
	if got, want := webtest.Eval[string](p, `document.querySelector('#winner').textContent`), en.Winner(g.Winner()); got != want {
		t.Errorf("winner: %q, want %q", got, want)
	}
	roles := webtest.Eval[[]string](p, `[...document.querySelectorAll('#cards li')].map((li) => li.dataset.role)`)
	if len(roles) != g.Players() {
		t.Fatalf("%d cards shown, %d players", len(roles), g.Players())
	}
	for i, r := range roles {
		if want := g.Role(engine.Seat(i + 1)).String(); r != want {
			t.Errorf("seat %d: card %q, the deal %q", i+1, r, want)
		}
	}
	groups := webtest.Eval[int](p, `document.querySelectorAll('#timeline .tl-group').length`)
	nights := 0
	for _, e := range evs {
		if e.Kind == engine.EvNightBegan {
			nights++
		}
	}
	if groups < nights {
		t.Errorf("the timeline has %d nights and days, the game had %d nights", groups, nights)
	}
	// The timeline is the whole record: every check and night action of the
	// game, not only this seat's (fetched from /api/tables/{id}/log at the end).
	secret := 0
	for _, e := range evs {
		if e.Kind == engine.EvChecked || e.Kind == engine.EvHealed || e.Kind == engine.EvShot {
			secret++
		}
	}
	for until := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		got := webtest.Eval[int](p, `document.querySelectorAll('#timeline .k-checked, #timeline .k-healed, #timeline .k-shot').length`)
		if got == secret {
			break
		}
		if time.Now().After(until) {
			t.Errorf("the timeline shows %d checks, heals and shots; the game had %d", got, secret)
			break
		}
	}
	text := webtest.Eval[string](p, `document.querySelector('#timeline').innerText`)
	if !strings.Contains(text, en.T("web.timeline.night", map[string]any{"Round": 1})) {
		t.Errorf("the timeline does not tell night 1:\n%s", text)
	}
	t.Logf("game over after %d moves, %d events; %s", moves, len(evs), en.Winner(g.Winner()))

	p.Do(10*time.Second, chromedp.EmulateViewport(1280, 900))
	p.Shot("05-game-over-desktop")
}
