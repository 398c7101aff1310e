package network

import (
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"mafia/assist/bridge"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// requestLog is every URL a set of tabs asked for, as Chromium's network
// events report them (without the fragment, which no request carries).
type requestLog struct {
	mu   sync.Mutex
	urls []string
}

// listener is the context option that records a tab's requests from its
// first one on.
func (l *requestLog) listener() chromedp.ContextOption {
	return chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			l.mu.Lock()
			l.urls = append(l.urls, e.Request.URL)
			l.mu.Unlock()
		}
	})
}

func (l *requestLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.urls...)
}

// TestNoTokenTravelsInAURL plays a whole in-person game dealt by card
// links, as the club does: the host's phone shows every card's link and QR
// code, each player opens their card on a phone of their own, the host
// plays to the result, opens the hand-off screen, a second phone takes the
// game over by its link, and the protocol is opened and downloaded. Every
// request the browser made (Chromium's network events, in every tab) and
// every request line that reached the server holds no token: not the
// host's, not any card's. The QR codes are drawn on the page.
func TestNoTokenTravelsInAURL(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	var log requestLog
	h := hosttest.OpenHost(t, ts, "host", log.listener())
	id := h.Create(hosttest.GameSpec{Names: hosttest.Names7, Deal: record.DealLinks})
	h.WaitJS(10*time.Second, `document.querySelectorAll('[data-t="card-links"] li').length === 7`)
	host := h.Token(id)
	type card struct {
		Seat  int
		Token string
	}
	cards := hosttest.EvalAwait[[]card](h.Tab, `Promise.resolve(window.__assistGame.rec.cards.map((c) => ({Seat: c.seat, Token: c.token})))`)
	if len(cards) != 7 || len(host) < 32 {
		t.Fatalf("the phone holds %d cards and a host token of %d characters", len(cards), len(host))
	}
	tokens := []string{host}
	for _, c := range cards {
		tokens = append(tokens, c.Token)
	}

	// Each card's QR code is drawn on the page, and is the code of its link.
	links := hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('[data-t="card-links"] a.link')].map((a) => a.href)`)
	srcs := hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('[data-t="card-qr"]')].map((i) => i.getAttribute('src'))`)
	if len(links) != 7 || len(srcs) != 7 {
		t.Errorf("%d links and %d QR codes drawn on the deal screen, want 7 of each", len(links), len(srcs))
	}
	for i, src := range srcs {
		svg, err := url.PathUnescape(strings.TrimPrefix(src, "data:image/svg+xml;charset=utf-8,"))
		want, _ := bridge.QRSVG(links[i])
		if !strings.HasPrefix(src, "data:image/svg+xml") || err != nil || svg != want {
			t.Errorf("card %d: the QR code is not the code of its link %s: %.80s", i+1, links[i], src)
		}
	}
	h.Shot("secrets-deal-links")

	// Every player opens their card on their own phone.
	for i, link := range links {
		p := hosttest.NewTab(t, "player", 360, 740, log.listener())
		p.Do(30*time.Second, hosttest.Navigate(link))
		p.WaitJS(10*time.Second, `document.getElementById('who').textContent.includes(`+hosttest.JsString(hosttest.Names7[i])+`)`)
		p.Click(`#face`)
		p.WaitJS(5*time.Second, `!!document.querySelector('#face .role-name')`)
	}
	h.WaitJS(10*time.Second, `document.querySelectorAll('[data-t="card-links"] li.seen').length === 7`)

	// The whole game, with the hand-off screen opened on the way.
	d := hosttest.TownDriver()
	var link string // the hand-off link
	d.Each = func(screen string, st record.State) {
		if screen == "speech" && link == "" {
			h.Tap("menu")
			h.Tap("handoff")
			h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="handoff-qr"]')`)
			link = hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="handoff-link"]').value`)
			h.Tap("back")
			h.Settle()
		}
	}
	h.Play(d)
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0' && !!document.querySelector('[data-t="exports"]')`)
	// The exports, as the host's phone fetches them (its cookie signs them).
	for _, sel := range []string{`[data-t="exports"] a[download$=".json"]`, `[data-t="exports"] a[download$=".csv"]`} {
		ok := hosttest.EvalAwait[bool](h.Tab, `fetch(document.querySelector('`+sel+`').href).then((r) => r.ok)`)
		if !ok {
			t.Fatalf("the export %s failed", sel)
		}
	}
	// A second phone takes the game over by the hand-off link.
	second := hosttest.OpenHost(t, ts, "second", log.listener())
	second.Do(30*time.Second, hosttest.Navigate(link))
	second.WaitJS(30*time.Second, `window.__assistReady === true && location.hash === '#/game/`+id+`'`)
	h.PrintPage(id, "secrets-protocol")

	// Not one URL holds a token.
	seen := append(log.all(), ts.RequestURIs()...)
	if len(log.all()) < 50 || len(ts.RequestURIs()) < 20 {
		t.Fatalf("only %d requests seen by the browser and %d by the server: the scan proves nothing", len(log.all()), len(ts.RequestURIs()))
	}
	for _, u := range seen {
		for _, tok := range tokens {
			if strings.Contains(strings.ToLower(u), strings.ToLower(tok)) {
				t.Errorf("a request's URL holds a token: %s", u)
			}
		}
	}
	t.Logf("%d requests seen by the browser and %d by the server scanned for %d tokens", len(log.all()), len(ts.RequestURIs()), len(tokens))
}
