package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// recordSent wraps the page's WebSocket so that it keeps the length in bytes
// of every frame the page sends.
const recordSent = `(() => {
  const ws = window.__mafia.conn.ws;
  const send = ws.send.bind(ws);
  window.__sent = [];
  ws.send = (d) => { window.__sent.push(new TextEncoder().encode(d).length); send(d); };
  return true;
})()`

// actAtNight taps one of the night's moves the page offers, if any.
const actAtNight = `(() => {
  const b = document.querySelector('#t-act button[data-verb=kill]:not([disabled]), #t-act button[data-verb=check]:not([disabled]), #t-act button[data-verb=heal]:not([disabled])');
  if (!b) return false;
  b.click();
  return true;
})()`

// TestBrowserNightTrafficIsOneFrameASecond: at night the page's own frames
// do not show whether its player acts: each page sends one frame a second,
// its move or a ping, every one a multiple of 512 bytes, whether or not it
// has a night role and taps it; a tapped move is accepted and its view
// comes (at the server's next tick), closing the move.
func TestBrowserNightTrafficIsOneFrameASecond(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	ts := startServer(t)
	a := newTab(t, "host", 360, 780)
	b := newTab(t, "phone", 360, 780)
	c := newTab(t, "desktop", 1280, 900)
	createTable(a, ts.URL, "Ana", 7, slowNight)
	invite := eval[string](a, `document.querySelector('#invite-url').value`)
	joinTable(b, invite, "Beka")
	joinTable(c, invite, "Cira")
	a.waitJS(10*time.Second, `document.querySelectorAll('#t-seats li:not(.free)').length === 3`)
	a.do(10*time.Second,
		chromedp.Click(chromedp.CSS("#add-bots")),
		chromedp.WaitEnabled(chromedp.CSS("#start")),
		chromedp.Click(chromedp.CSS("#start")),
	)
	tabs := []*tab{a, b, c}
	for _, p := range tabs {
		p.waitJS(15*time.Second, `document.querySelector('#phase').dataset.phase === 'night' && !!window.__mafia.conn.ws`)
		eval[bool](p, recordSent)
	}
	acted := map[*tab]bool{}
	for _, p := range tabs {
		acted[p] = eval[bool](p, actAtNight)
	}
	if !acted[a] && !acted[b] && !acted[c] {
		t.Skip("the deal gave no page a night move")
	}
	time.Sleep(4500 * time.Millisecond) // the night is ten minutes: four beats and a half
	counts := map[*tab]int{}
	for _, p := range tabs {
		sent := eval[[]int](p, `window.__sent`)
		counts[p] = len(sent)
		for _, n := range sent {
			if n%512 != 0 {
				t.Errorf("%s (acted: %v) sent a frame of %d bytes at night", p.name, acted[p], n)
			}
		}
		if len(sent) < 3 || len(sent) > 6 {
			t.Errorf("%s (acted: %v) sent %d frames in 4.5 s of night, want one a second", p.name, acted[p], len(sent))
		}
		if acted[p] && eval[bool](p, `document.querySelector('#phase').dataset.phase === 'night'`) {
			// The move's view has come: the page offers that move no more.
			p.waitJS(5*time.Second, `!window.__mafia.state.busy`)
		}
	}
	t.Logf("frames sent in 4.5 s of night: host %d, phone %d, desktop %d (acted: %v %v %v)",
		counts[a], counts[b], counts[c], acted[a], acted[b], acted[c])
}
