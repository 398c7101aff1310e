package chat

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/web/internal/webtest"
)

// recordSent wraps the page's WebSocket and its night beat (conn.js) so
// that the page keeps, for every frame it sends, its length in bytes and
// the beat it went out on (0: outside any beat), and counts the beats.
const recordSent = `(() => {
  const conn = window.__mafia.conn;
  const ws = conn.ws;
  const send = ws.send.bind(ws);
  const beat = conn.beat.bind(conn);
  window.__sent = [];
  window.__beats = 0;
  let inBeat = 0;
  conn.beat = () => { inBeat = ++window.__beats; try { beat(); } finally { inBeat = 0; } };
  ws.send = (d) => { window.__sent.push({n: new TextEncoder().encode(d).length, beat: inBeat}); send(d); };
  return true;
})()`

// actAtNight taps one of the night's moves the page offers, if any.
const actAtNight = `(() => {
  const b = document.querySelector('#t-act button[data-verb=kill]:not([disabled]), #t-act button[data-verb=check]:not([disabled]), #t-act button[data-verb=heal]:not([disabled])');
  if (!b) return false;
  b.click();
  return true;
})()`

// nightMoves is a deal of six where four seats have a move on night 1 (the
// Don, the mafioso, the Detective, the Doctor) and two have none: of any
// three people at the table at least one has a move.
var nightMoves = map[string]string{"Don": "1", "Mafia": "1", "Maniac": "0", "Detective": "1", "Doctor": "1", "Citizens": "2"}

// sentFrame is one frame a page sent at night (recordSent).
type sentFrame struct {
	N    int `json:"n"`    // its length in bytes
	Beat int `json:"beat"` // the beat it went out on, 0 for none
}

// TestBrowserNightTrafficIsOneFrameASecond: at night the page's own frames
// do not show whether its player acts: each page sends one frame on each
// beat of the night (conn.js's, once a second) and none between them, its
// move or a ping, every one a multiple of 512 bytes, whether or not it has
// a night role and taps it; a tapped move is accepted and its view comes
// (at the server's next tick), closing the move. The deal (nightMoves)
// gives one of the three pages a move, always: the first page offered one
// taps it, the others do not.
func TestBrowserNightTrafficIsOneFrameASecond(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	a := webtest.NewTab(t, "host", 360, 780)
	b := webtest.NewTab(t, "phone", 360, 780)
	c := webtest.NewTab(t, "desktop", 1280, 900)
	createCustomTable(a, ts.URL, "Ana", nightMoves, webtest.SlowNight)
	invite := webtest.Eval[string](a, `document.querySelector('#invite-url').value`)
	webtest.JoinTable(b, invite, "Beka")
	webtest.JoinTable(c, invite, "Cira")
	a.WaitJS(10*time.Second, `document.querySelectorAll('#t-seats li:not(.free)').length === 3`)
	a.Do(10*time.Second,
		browsertest.Click(chromedp.CSS("#add-bots")),
		browsertest.WaitEnabled(chromedp.CSS("#start")),
		browsertest.Click(chromedp.CSS("#start")),
	)
	tabs := []*webtest.Tab{a, b, c}
	for _, p := range tabs {
		p.WaitJS(15*time.Second, `document.querySelector('#phase').dataset.phase === 'night' && !!window.__mafia.conn.ws`)
		webtest.Eval[bool](p, recordSent)
	}
	acted := map[*webtest.Tab]bool{}
	actor := false
	for _, p := range tabs {
		if !actor {
			acted[p] = webtest.Eval[bool](p, actAtNight)
			actor = acted[p]
		}
	}
	if !actor {
		t.Fatalf("none of the three pages was offered a night move, the deal %v gives one of them one", nightMoves)
	}
	// Four beats after the tap on every page (the night is ten minutes).
	for _, p := range tabs {
		p.WaitJS(30*time.Second, `window.__beats >= 4`)
	}
	for _, p := range tabs {
		// One look at both (the page's script runs one beat at a time).
		got := webtest.Eval[struct {
			Sent  []sentFrame `json:"sent"`
			Beats int         `json:"beats"`
		}](p, `({sent: window.__sent, beats: window.__beats})`)
		on := map[int]int{}
		for _, f := range got.Sent {
			if f.N%512 != 0 {
				t.Errorf("%s (acted: %v) sent a frame of %d bytes at night", p.Name, acted[p], f.N)
			}
			if f.Beat == 0 {
				t.Errorf("%s (acted: %v) sent a frame of %d bytes between the night's beats", p.Name, acted[p], f.N)
			}
			on[f.Beat]++
		}
		for i := 1; i <= got.Beats; i++ {
			if on[i] != 1 {
				t.Errorf("%s (acted: %v) sent %d frames on beat %d, want one: %+v", p.Name, acted[p], on[i], i, got.Sent)
			}
		}
		if acted[p] && webtest.Eval[bool](p, `document.querySelector('#phase').dataset.phase === 'night'`) {
			// The move's view has come: the page offers that move no more.
			p.WaitJS(5*time.Second, `!window.__mafia.state.busy`)
		}
	}
	t.Logf("acted: host %v, phone %v, desktop %v", acted[a], acted[b], acted[c])
}

// createCustomTable is createTable with the lobby's custom deal: counts by
// the form's role names (see nightMoves); the table's size is their sum.
func createCustomTable(tb *webtest.Tab, base, name string, counts, timings map[string]string) string {
	tb.T.Helper()
	tb.Do(15*time.Second,
		chromedp.Navigate(base+"/"),
		browsertest.WaitVisible(chromedp.CSS("#create")),
		browsertest.SendKeys(chromedp.CSS("#your-name"), name),
		browsertest.SendKeys(chromedp.CSS("#create-name"), name+"'s table"),
		browsertest.Click(chromedp.CSS(`input[name=mode][value=custom]`)),
		browsertest.WaitVisible(chromedp.CSS("#count-Don")),
	)
	for k, v := range counts {
		tb.Do(5*time.Second, browsertest.SetValue(chromedp.CSS("#count-"+k), v))
	}
	for k, v := range timings {
		tb.Do(5*time.Second, browsertest.SetValue(chromedp.CSS("#time-"+k), v))
	}
	tb.Do(15*time.Second,
		browsertest.Click(chromedp.CSS("#create")),
		browsertest.WaitVisible(chromedp.CSS("#seated")),
	)
	if got, want := webtest.Eval[int](tb, `window.__mafia.state.lobby.players`), sum(counts); got != want {
		tb.T.Fatalf("%s: the table has %d seats, the custom deal %d", tb.Name, got, want)
	}
	return tb.TableOf()
}

// sum adds the form's counts.
func sum(counts map[string]string) int {
	n := 0
	for _, v := range counts {
		var k int
		fmt.Sscan(v, &k)
		n += k
	}
	return n
}
