package web_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/client"
	"mafia/locale"
	"mafia/wire"
)

// goSeat is a seat played from Go beside the page: it reads its frames
// all the time (a connection that stops reading is dropped) and keeps its
// latest view.
type goSeat struct {
	c    *client.Conn
	mu   sync.Mutex
	view *wire.View
}

func dialSeat(ctx context.Context, t *testing.T, api *client.API, table, token string) *goSeat {
	t.Helper()
	c, err := api.Dial(ctx, table, token, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	g := &goSeat{c: c, view: c.View}
	go func() {
		for {
			m, err := c.Read(ctx)
			if err != nil {
				return
			}
			if m.View != nil {
				g.mu.Lock()
				g.view = m.View
				g.mu.Unlock()
			}
		}
	}()
	return g
}

func (g *goSeat) now() *wire.View {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.view
}

// send sends a message for the current step (answers are read by the
// reading goroutine and not waited for).
func (g *goSeat) send(ctx context.Context, t *testing.T, m wire.ClientMessage) {
	t.Helper()
	if v := g.now(); v != nil {
		m.Step = v.Step
	}
	if _, err := g.c.Send(ctx, m); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserAVoteSaysWhatWasSentUntilTheClose: once a vote is taken the
// page shows the vote it sent and offers no other (a second tap would be
// refused, already_voted), its view saying it has voted; at the close the
// page shows the vote's result as usual.
func TestBrowserAVoteSaysWhatWasSentUntilTheClose(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	ts := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	api := &client.API{Base: ts.URL}
	long := int64(600_000)
	created, err := api.Create(ctx, client.CreateRequest{Name: "vote", Players: 5,
		Options: map[string]string{"first_night": "meeting"}, // nobody dies on night 1
		TimingsMS: map[string]int64{"speech": long, "defence": long, "tie_speech": long, "last_words": long,
			"night": 1000, "vote": 15_000}})
	if err != nil {
		t.Fatal(err)
	}
	p := newTab(t, "voter", 1280, 900)
	joinTable(p, ts.URL+"/t/"+created.Table, "Nino")
	if s := mySeat(p); s != 1 {
		t.Fatalf("the page sits at seat %d, want 1", s)
	}
	gio, err := api.Join(ctx, created.Table, "Gio", 2, "")
	if err != nil {
		t.Fatal(err)
	}
	host := dialSeat(ctx, t, api, created.Table, created.HostToken)
	seat2 := dialSeat(ctx, t, api, created.Table, gio.Token)
	host.send(ctx, t, wire.ClientMessage{Type: "host", Action: "add_bots"})
	// The bots have their seats (the page shows none free) before the start.
	p.waitJS(10*time.Second, `document.querySelectorAll('#t-seats li[data-seat]').length === 5 && document.querySelectorAll('#t-seats li.free').length === 0`)
	host.send(ctx, t, wire.ClientMessage{Type: "host", Action: "start"})

	// Day 1: the page passes its speech; seat 2 nominates seat 3 (a bot)
	// and passes; bots speak and defend at once. Whoever of the two people
	// holds the floor passes it, until the vote.
	const pass = `#t-act button[data-verb=pass]:not([disabled])`
	nominated := false
	for {
		if ctx.Err() != nil {
			t.Fatal("no vote in time")
		}
		phase := eval[string](p, `(window.__mafia && window.__mafia.state.view || {}).phase || ''`)
		if phase == "vote" {
			break
		}
		if eval[bool](p, fmt.Sprintf(`!!document.querySelector(%q)`, pass)) {
			p.do(5*time.Second, chromedp.Click(chromedp.CSS(pass)))
		}
		if v := seat2.now(); v != nil && v.Phase != "vote" && v.Speaker == 2 {
			if v.Phase == "speech" && !nominated && slices.Contains(v.Legal.Nominate, 3) {
				nominated = true
				seat2.send(ctx, t, wire.ClientMessage{Type: "command", Verb: "nominate", Target: 3})
				time.Sleep(50 * time.Millisecond)
			}
			if v.Legal.Pass {
				seat2.send(ctx, t, wire.ClientMessage{Type: "command", Verb: "pass"})
			}
		}
		time.Sleep(150 * time.Millisecond)
	}

	// The page votes; seat 2 has not, so the vote runs on (for 15 s at most).
	const vote = `#t-act button[data-verb=vote]:not([disabled])`
	p.waitJS(10*time.Second, fmt.Sprintf(`!!document.querySelector(%q)`, vote))
	target := eval[int](p, fmt.Sprintf(`(() => { const b = document.querySelector(%q); b.click(); return +b.dataset.target; })()`, vote))
	want := locale.New(locale.En).T("web.act.voted", map[string]any{"Seat": target})
	p.waitJS(10*time.Second, fmt.Sprintf(`[...document.querySelectorAll('#t-act .note')].some((n) => n.textContent === %q)`, want))
	if eval[bool](p, `!!document.querySelector('#t-act button[data-verb=vote]')`) {
		t.Error("the page still offers a vote after its vote was taken")
	}
	if ph := eval[string](p, `window.__mafia.state.view.phase`); ph != "vote" {
		t.Fatalf("the vote closed before seat 2 voted: %q", ph)
	}
	// The voter's own vote_cast and view come at once, with the public
	// vote_made (protocol.md): the view says it has voted.
	p.waitJS(10*time.Second, `window.__mafia.state.view.voted === true`)

	// Seat 2 votes; the vote closes (at once, or by the clock when a bot
	// abstains: the server's bots choose "nothing" too), and the page moves
	// on.
	seat2.send(ctx, t, wire.ClientMessage{Type: "command", Verb: "vote", Target: target})
	p.waitJS(25*time.Second, `window.__mafia.state.view.phase !== 'vote' && !window.__mafia.state.waitView`)
}
