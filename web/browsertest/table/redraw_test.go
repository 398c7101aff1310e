package table

import (
	"context"
	"testing"
	"time"

	"mafia/client"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// TestBrowserAFrameRedrawsOnlyWhatItChanges: the table page draws a frame
// by changing what differs (dom.js morph), not by building the page again.
// At a lobby on a phone's screen, a person taking seat 2 changes seat 2 in
// place and leaves every other seat, and the seats' list, the same DOM
// nodes; a chat line that comes is appended, the lines before it kept.
func TestBrowserAFrameRedrawsOnlyWhatItChanges(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "redraw", 360, 740)
	table := webtest.CreateTable(p, ts.URL, "Dato", 5, webtest.FastTimings)
	p.WaitJS(10*time.Second, `document.querySelectorAll('#t-seats [data-seat]').length === 5`)
	p.WaitJS(5*time.Second, `(() => {
  const seat = (s) => document.querySelector('#t-seats [data-seat="' + s + '"]');
  window.__seen = { list: document.querySelector('#t-seats ol'), s1: seat(1), s2: seat(2), s3: seat(3), s5: seat(5) };
  return !!window.__seen.s2;
})()`)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	api := &client.API{Base: ts.URL}
	j, err := api.Join(ctx, table, "Nino", 2, "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.Dial(ctx, table, j.Token, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	go func() { // read what comes, so the server's writes never wait
		for {
			if _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}()
	p.WaitJS(10*time.Second, `(() => {
  const s2 = document.querySelector('#t-seats [data-seat="2"]');
  return !!s2 && s2.textContent.includes('Nino') && !s2.classList.contains('free');
})()`)
	got := webtest.Eval[string](p, `(() => {
  const seat = (s) => document.querySelector('#t-seats [data-seat="' + s + '"]');
  const w = window.__seen;
  return [w.list === document.querySelector('#t-seats ol'), w.s1 === seat(1), w.s3 === seat(3), w.s5 === seat(5),
    w.s2 === seat(2) && w.s2.isConnected].join('|');
})()`)
	// Seat 2 is updated in place too: the same li, its name and class new.
	if got != "true|true|true|true|true" {
		t.Fatalf("after seat 2 was taken (the list, seats 1, 3, 5 and 2 the same nodes): %s", got)
	}

	say := func(text string) {
		t.Helper()
		if _, err := c.Send(ctx, wire.ClientMessage{Type: "chat", Channel: "town", Text: text}); err != nil {
			t.Fatal(err)
		}
		p.WaitJS(10*time.Second, `[...document.querySelectorAll('#chat-msgs li .text')].some((e) => e.textContent === `+webtest.StrconvQuote(text)+`)`)
	}
	say("the first line")
	p.WaitJS(5*time.Second, `(() => { window.__first = [...document.querySelectorAll('#chat-msgs li')].find((e) => e.textContent.includes('the first line')); return !!window.__first; })()`)
	say("the second line")
	if !webtest.Eval[bool](p, `window.__first === [...document.querySelectorAll('#chat-msgs li')].find((e) => e.textContent.includes('the first line'))`) {
		t.Fatal("the chat's first line was drawn again for the second")
	}
}
