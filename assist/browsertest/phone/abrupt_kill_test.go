package phone

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/internal/browsertest"
)

// phone is the host's phone with a browser of its own on a profile folder
// that outlives it: the test kills the browser (SIGKILL to every process
// of it, as a dead battery or the phone's system would) and opens it again
// on the same folder.
type phone struct {
	*hosttest.Host
	t    *testing.T
	dir  string
	proc *browsertest.Process
}

func newPhone(t *testing.T, ts *hosttest.Server) *phone {
	ph := &phone{t: t, dir: t.TempDir()}
	ph.Host = &hosttest.Host{Ts: ts}
	return ph
}

// open starts the browser on the phone's folder and loads path.
func (ph *phone) open(path string, game bool) {
	ph.t.Helper()
	ph.proc = browsertest.Start(ph.t, ph.dir)
	ph.Tab = hosttest.NewTabIn(ph.t, ph.proc.Context(), "phone", 360, 740)
	ph.Do(30*time.Second, chromedp.Navigate(ph.Ts.URL+path))
	want := `window.__assistReady === true`
	if game {
		want += ` && !!window.__assistGame`
	}
	ph.WaitJS(30*time.Second, want)
}

// screenJS is the screen as the host sees it, without the ticking clock.
const screenJS = `(() => {
	const s = document.getElementById('screen');
	if (!s) return '';
	const c = s.querySelector('[data-t="clock"]');
	return c ? s.innerText.replace(c.innerText, '') : s.innerText;
})()`

// shown is what the page showed when the browser was killed.
type shown struct {
	Entries int    `json:"entries"` // the entries the game holds (each shown as done)
	Phase   string `json:"phase"`
	Round   int    `json:"round"`
	Speaker int    `json:"speaker"`
}

// tapAndKill taps a control, waits until the page shows the tap as done
// (the screen changes), and kills the browser at once; then it opens the
// browser again on the same folder and the game, and checks that every
// entry shown as done is still there, at the same step. online says
// whether the server can be reached: then the page must sync without
// claiming that another phone took the game over.
func (ph *phone) tapAndKill(id, what, sel string, online bool) {
	ph.t.Helper()
	before := hosttest.Eval[string](ph.Tab, screenJS)
	ph.Click(sel)
	ctx, cancel := context.WithTimeout(ph.Ctx, hosttest.Slack*10*time.Second)
	js, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => {
		if (`+screenJS+` === `+hosttest.JsString(before)+`) return '';
		const g = window.__assistGame, st = g.state;
		return JSON.stringify({entries: g.rec.commands.length, phase: st.phase, round: st.round, speaker: st.speaker});
	})()`, chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(0)))
	cancel()
	if err != nil {
		ph.t.Fatalf("%s: the tap was not shown: %v\n%s", what, err, ph.Text())
	}
	ph.proc.Kill(ph.t)
	var was shown
	if err := json.Unmarshal([]byte(js), &was); err != nil {
		ph.t.Fatal(err)
	}

	ph.open("/host/#/game/"+id, false)
	if !hosttest.Eval[bool](ph.Tab, `!!window.__assistGame`) {
		ph.t.Fatalf("%s: the page showed %d entries as done; after the browser was killed the game is gone from the phone", what, was.Entries)
	}
	kept := hosttest.Eval[int](ph.Tab, `window.__assistGame.rec.commands.length`)
	st := ph.State()
	if kept < was.Entries {
		ph.t.Errorf("%s: the page showed %d entries as done; after the browser was killed it kept %d", what, was.Entries, kept)
	} else if st.Phase != was.Phase || st.Round != was.Round || st.Speaker != was.Speaker {
		ph.t.Errorf("%s: the page showed %s/%d/%d; opened again it stands at %s/%d/%d", what,
			was.Phase, was.Round, was.Speaker, st.Phase, st.Round, st.Speaker)
	}
	if online {
		ph.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0' || !!document.querySelector('[data-t="diverged"]')`)
		ph.Settle()
		if ph.Exists("diverged") {
			ph.t.Errorf("%s: opened again, the page claims the game continues on another phone", what)
		}
	}
	if ph.t.Failed() {
		ph.t.FailNow()
	}
}

// The two tests below kill the host's browser (SIGKILL to all its
// processes, not a closed tab) right after each of a game's taps of every
// kind that enters something: the mafia's choice, the checks, a doctor's
// skip, the morning, the end of last words and of a speech, a nomination, a
// foul, the hands for a candidate, the close of the vote. After each they
// open the browser again on the same profile and the game: every entry the
// page showed as done is there, at the same step. The night's taps are made
// with the server reachable (the page, opened again, must not claim that
// another phone took the game over), the day's without it; when it
// returns, every entry arrives, once. They are two tests (the night's, the
// day's) so that their dozen starts of a browser of their own run side by
// side; their file's name sorts first of the package's browser tests: the
// longest start first and the others run beside them.

// startKilledGame opens the phone's own browser and creates the game of
// seven with the cards dealt by hand; it returns the game's id and a
// selector of seat s.
func startKilledGame(t *testing.T) (*hosttest.Server, *phone, string, func(s int) string) {
	t.Helper()
	ts := hosttest.StartServer(t)
	ph := newPhone(t, ts)
	ph.open("/host/", false)
	id := ph.Create(hosttest.GameSpec{Names: hosttest.Names7, Deal: record.DealManual, Roles: hosttest.Roles7})
	ph.WaitJS(10*time.Second, `!!document.querySelector('[data-t="wake"][data-role="mafia"]')`)
	seat := func(s int) string { return `.seats [data-seat="` + strconv.Itoa(s) + `"]` }
	return ts, ph, id, seat
}

// night1 plays night 1 (the mafia kill 7, the Don checks 5, the detective
// 2, the doctor skips) to the day's first speech; at each tap that enters
// something it calls tapped with the tap's name and selector, which taps.
func (ph *phone) night1(seat func(s int) string, tapped func(what, sel string)) {
	ph.t.Helper()
	pick := func(s int) { ph.Click(seat(s)); ph.Settle() }
	pick(7)
	tapped("the mafia's choice", `[data-t="confirm"]`)
	pick(5)
	tapped("the Don's check", `[data-t="confirm"]`)
	ph.Tap("next")
	pick(2)
	tapped("the detective's check", `[data-t="confirm"]`)
	ph.Tap("next")
	tapped("the doctor's skip", `[data-t="skip"]`)
	tapped("the morning", `[data-t="morning"]`)
	ph.Tap("continue")
	ph.Settle()
	if ph.Screen() == "last_words" {
		tapped("the end of the last words", `[data-t="end"]`)
	}
}

// TestEveryEntryShownAsDoneOutlivesTheBrowserAtNight: the night's taps,
// each followed by a kill, with the server reachable.
func TestEveryEntryShownAsDoneOutlivesTheBrowserAtNight(t *testing.T) {
	t.Parallel()
	_, ph, id, seat := startKilledGame(t)
	ph.night1(seat, func(what, sel string) { ph.tapAndKill(id, what, sel, true) })
}

// TestEveryEntryShownAsDoneOutlivesTheBrowserByDay: the night played
// plainly, then the day's taps, each followed by a kill, without the
// server; when it returns every entry arrives once.
func TestEveryEntryShownAsDoneOutlivesTheBrowserByDay(t *testing.T) {
	t.Parallel()
	ts, ph, id, seat := startKilledGame(t)
	ph.night1(seat, func(_, sel string) { ph.Click(sel); ph.Settle() })
	pick := func(s int) { ph.Click(seat(s)); ph.Settle() }

	// Day 1 without the server.
	ts.Down.Store(true)
	ph.Tap("nominate")
	ph.tapAndKill(id, "a nomination", seat(4), false)
	ph.Tap("fouls")
	ph.tapAndKill(id, "a foul", seat(3), false) // opened again, the page is back at the speech
	ph.tapAndKill(id, "the end of a speech", `[data-t="end"]`, false)
	ph.Tap("nominate")
	pick(6)
	for sc := ph.Screen(); sc == "speech" || sc == "defence"; sc = ph.Screen() {
		ph.Tap("end")
		ph.Settle()
	}
	if got := ph.Screen(); got != "vote" {
		t.Fatalf("after the speeches the page shows %q", got)
	}
	pick(1)
	pick(3)
	ph.tapAndKill(id, "the hands for a candidate", `[data-t="confirm-hands"]`, false)
	ph.tapAndKill(id, "the close of the vote", `[data-t="close-vote"]`, false)

	// The server returns: every entry arrives once, and no hand-off is claimed.
	waiting := hosttest.Eval[string](ph.Tab, `document.getElementById('sync').dataset.waiting`)
	if waiting == "0" {
		t.Fatal("nothing waits to be sent after a day without the server")
	}
	ts.Down.Store(false)
	ph.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0' || !!document.querySelector('[data-t="diverged"]')`)
	if ph.Exists("diverged") {
		t.Fatal("back online, the page claims the game continues on another phone")
	}
	hosttest.SameEntries(t, ts, ph.Host, id)
}
