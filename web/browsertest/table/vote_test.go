package table

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/client"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// TestBrowserAVoteSaysWhatWasSentUntilTheClose: once a vote is taken the
// page shows the vote it sent and offers no other (a second tap would be
// refused, already_voted), its view saying it has voted; at the close the
// page shows the vote's result as usual.
func TestBrowserAVoteSaysWhatWasSentUntilTheClose(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
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
	p := webtest.NewTab(t, "voter", 1280, 900)
	webtest.JoinTable(p, ts.URL+"/t/"+created.Table, "Nino")
	if s := webtest.MySeat(p); s != 1 {
		t.Fatalf("the page sits at seat %d, want 1", s)
	}
	gio, err := api.Join(ctx, created.Table, "Gio", 2, "")
	if err != nil {
		t.Fatal(err)
	}
	host := webtest.DialSeat(ctx, t, api, created.Table, created.HostToken)
	seat2 := webtest.DialSeat(ctx, t, api, created.Table, gio.Token)
	host.Send(ctx, t, wire.ClientMessage{Type: "host", Action: "add_bots"})
	// The bots have their seats (the page shows none free) before the start.
	p.WaitJS(10*time.Second, `document.querySelectorAll('#t-seats li[data-seat]').length === 5 && document.querySelectorAll('#t-seats li.free').length === 0`)
	host.Send(ctx, t, wire.ClientMessage{Type: "host", Action: "start"})

	// Day 1: the page passes its speech; seat 2 nominates seat 3 (a bot)
	// and passes; bots speak and defend at once. Whoever of the two people
	// holds the floor passes it, until the vote.
	const pass = `#t-act button[data-verb=pass]:not([disabled])`
	nominated := false
	for {
		if ctx.Err() != nil {
			t.Fatal("no vote in time")
		}
		phase := webtest.Eval[string](p, `(window.__mafia && window.__mafia.state.view || {}).phase || ''`)
		if phase == "vote" {
			break
		}
		if webtest.Eval[bool](p, fmt.Sprintf(`!!document.querySelector(%q)`, pass)) {
			p.Do(5*time.Second, browsertest.Click(chromedp.CSS(pass)))
		}
		if v := seat2.Now(); v != nil && v.Phase != "vote" && v.Speaker == 2 {
			if v.Phase == "speech" && !nominated && slices.Contains(v.Legal.Nominate, 3) {
				nominated = true
				seat2.Send(ctx, t, wire.ClientMessage{Type: "command", Verb: "nominate", Target: 3})
				time.Sleep(50 * time.Millisecond)
			}
			if v.Legal.Pass {
				seat2.Send(ctx, t, wire.ClientMessage{Type: "command", Verb: "pass"})
			}
		}
		time.Sleep(150 * time.Millisecond)
	}

	// The page votes; seat 2 has not, so the vote runs on (for 15 s at most).
	const vote = `#t-act button[data-verb=vote]:not([disabled])`
	p.WaitJS(10*time.Second, fmt.Sprintf(`!!document.querySelector(%q)`, vote))
	target := webtest.Eval[int](p, fmt.Sprintf(`(() => { const b = document.querySelector(%q); b.click(); return +b.dataset.target; })()`, vote))
	want := locale.New(locale.En).T("web.act.voted", map[string]any{"Seat": target})
	p.WaitJS(10*time.Second, fmt.Sprintf(`[...document.querySelectorAll('#t-act .note')].some((n) => n.textContent === %q)`, want))
	if webtest.Eval[bool](p, `!!document.querySelector('#t-act button[data-verb=vote]')`) {
		t.Error("the page still offers a vote after its vote was taken")
	}
	if ph := webtest.Eval[string](p, `window.__mafia.state.view.phase`); ph != "vote" {
		t.Fatalf("the vote closed before seat 2 voted: %q", ph)
	}
	// The voter's own vote_cast and view come at once, with the public
	// vote_made (protocol.md): the view says it has voted.
	p.WaitJS(10*time.Second, `window.__mafia.state.view.voted === true`)

	// Seat 2 votes; the vote closes (at once, or by the clock when a bot
	// abstains: the server's bots choose "nothing" too), and the page moves
	// on.
	seat2.Send(ctx, t, wire.ClientMessage{Type: "command", Verb: "vote", Target: target})
	p.WaitJS(25*time.Second, `window.__mafia.state.view.phase !== 'vote' && !window.__mafia.state.waitView`)
}
