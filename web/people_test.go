package web_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"mafia/client"
	"mafia/engine"
	"mafia/server"
	"mafia/wire"
)

// A table of people played from Go: every seat is a real player's token
// over a real WebSocket, so that a test knows the deal and can hand any
// seat (the mafioso, the maniac) to a browser tab by its cookie, and play
// the others as it needs (a nomination, a vote, the mafia's victim).

// person is one seat played from Go: it reads its frames all the time and
// keeps its latest view and the chat lines it was sent.
type person struct {
	seat  int
	token string
	c     *client.Conn
	mu    sync.Mutex
	view  *wire.View
	chat  []wire.ServerMessage
	// refused are the refusals it was sent, and err why its reading
	// stopped: what a test says when a line does not come.
	refused []string
	err     error
}

func (p *person) now() *wire.View {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.view
}

// heard reports whether the seat was sent a chat line with text in channel.
func (p *person) heard(channel string, from int, text string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.ContainsFunc(p.chat, func(m wire.ServerMessage) bool {
		return m.Channel == channel && m.From == from && m.Text == text
	})
}

// waitView waits up to d for the seat's view to satisfy ok, and fails the
// test saying what did not happen if it does not.
func (p *person) waitView(t *testing.T, d time.Duration, what string, ok func(*wire.View) bool) {
	t.Helper()
	for until := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
		if v := p.now(); v != nil && ok(v) {
			return
		}
		if time.Now().After(until) {
			t.Fatalf("seat %d: %s", p.seat, what)
		}
	}
}

// startPeopleServer is the server for a table of people: all its seats
// are joined from the test's one address.
func startPeopleServer(t *testing.T) *testServer {
	t.Helper()
	return startServerWith(t, func(c *server.Config) { c.SeatsPerAddress = -1 })
}

// peopleTable is a table of people, all dialled from Go.
type peopleTable struct {
	t     *testing.T
	ctx   context.Context
	ts    *testServer
	api   *client.API
	table string
	seats []*person // seat i+1
	roles []engine.Role
}

// newPeopleTable creates a public table of n players with the options and
// timings (ms) given, seats n people (seat 1 with the host's token) and
// starts the game.
func newPeopleTable(ctx context.Context, t *testing.T, ts *testServer, name string, n int, options map[string]string, timings map[string]int64) *peopleTable {
	t.Helper()
	api := &client.API{Base: ts.URL}
	created, err := api.Create(ctx, client.CreateRequest{Name: name, Players: n, Options: options, TimingsMS: timings, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	pt := seatPeople(ctx, t, ts, api, created, n)
	for until := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if evs, err := ts.db.Events(ctx, created.Table); err == nil && len(evs) > 0 {
			break
		}
		if time.Now().After(until) {
			t.Fatal("the game did not start")
		}
	}
	g, _ := ts.game(t, created.Table)
	for s := 1; s <= n; s++ {
		pt.roles = append(pt.roles, g.Role(engine.Seat(s)))
	}
	return pt
}

// seatPeople seats n people at the table made (seat 1 with the host's
// token), each dialled from Go and read all the time, and starts the game.
func seatPeople(ctx context.Context, t *testing.T, ts *testServer, api *client.API, created client.Created, n int) *peopleTable {
	t.Helper()
	pt := &peopleTable{t: t, ctx: ctx, ts: ts, api: api, table: created.Table}
	for s := 1; s <= n; s++ {
		tok := ""
		if s == 1 {
			tok = created.HostToken
		}
		j, err := api.Join(ctx, created.Table, names[(s-1)%len(names)], s, tok)
		if err != nil {
			t.Fatal(err)
		}
		c, err := api.Dial(ctx, created.Table, j.Token, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		p := &person{seat: s, token: j.Token, c: c, view: c.View}
		go func() {
			for {
				m, err := c.Read(ctx)
				if err != nil {
					p.mu.Lock()
					p.err = err
					p.mu.Unlock()
					return
				}
				p.mu.Lock()
				if m.Type == "error" {
					p.refused = append(p.refused, m.Code)
				}
				if m.View != nil {
					p.view = m.View
				}
				if m.Type == "chat" {
					p.chat = append(p.chat, m)
				}
				p.mu.Unlock()
			}
		}()
		pt.seats = append(pt.seats, p)
	}
	if _, err := pt.seats[0].c.Send(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	return pt
}

// names are the people's names, seat by seat.
var names = []string{"Nino", "Giorgi", "Tamar", "Dato", "Eka", "Levan", "Mariam", "Sandro", "Ana", "Luka", "Salome", "Irakli"}

// name returns the name of the person in seat s.
func (pt *peopleTable) name(s int) string { return names[(s-1)%len(names)] }

// seatsWith returns the seats whose card is one of roles, lowest first.
func (pt *peopleTable) seatsWith(roles ...engine.Role) []int {
	var out []int
	for i, r := range pt.roles {
		if slices.Contains(roles, r) {
			out = append(out, i+1)
		}
	}
	return out
}

// open hands seat s to the tab: its token becomes the tab's cookie (as the
// join would have set it) and the tab opens the table.
func (pt *peopleTable) open(tb *tab, s int) {
	tb.t.Helper()
	tb.do(10*time.Second, chromedp.Navigate(pt.ts.URL+"/healthz"), chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		yes := true
		_, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{
			Name: "mafia_" + pt.table, Value: pt.seats[s-1].token, URL: pt.ts.URL, Path: "/", HTTPOnly: &yes,
			SameSite: network.CookieSameSiteStrict,
		})
		return err
	}))
	tb.do(15*time.Second, chromedp.Navigate(pt.ts.URL+"/t/"+pt.table))
	// Polled again and again: a poll begun as the new page replaces the
	// old one fails with the old page's context.
	ready := fmt.Sprintf(`!!window.__mafia && window.__mafia.state.seat === %d && !!window.__mafia.state.view`, s)
	for until := time.Now().Add(15 * time.Second); !tb.eventually(2*time.Second, ready); {
		if time.Now().After(until) {
			tb.t.Fatalf("%s: seat %d's page did not open:\n%s", tb.name, s, tb.text())
		}
	}
}

// policy is what a Go seat does with a view: a move, or nothing.
type policy func(v *wire.View) (wire.ClientMessage, bool)

// play plays seat s by pol, once a step (and again when the view changes),
// until the test ends.
func (pt *peopleTable) play(s int, pol policy) {
	p := pt.seats[s-1]
	go func() {
		last := ""
		for pt.ctx.Err() == nil {
			time.Sleep(80 * time.Millisecond)
			v := p.now()
			if v == nil {
				continue
			}
			key := fmt.Sprintf("%d|%v|%v|%d", v.Step, v.Legal.Nominate, v.Legal.Pass, len(v.Candidates))
			if key == last {
				continue
			}
			last = key
			if m, ok := pol(v); ok {
				m.Step = v.Step
				_, _ = p.c.Send(pt.ctx, m)
			}
		}
	}()
}

// passer ends its own speeches at once and does nothing else.
func passer(v *wire.View) (wire.ClientMessage, bool) {
	if v.Speaker == v.Seat && v.Legal.Pass {
		return wire.ClientMessage{Type: "command", Verb: "pass"}, true
	}
	return wire.ClientMessage{}, false
}

// with plays the moves of more before passing: the first that applies.
func with(more ...policy) policy {
	return func(v *wire.View) (wire.ClientMessage, bool) {
		for _, p := range more {
			if m, ok := p(v); ok {
				return m, true
			}
		}
		return passer(v)
	}
}

// nominates names target in its speech (once: the view then offers no more).
func nominates(target int) policy {
	return func(v *wire.View) (wire.ClientMessage, bool) {
		if v.Phase == "speech" && v.Speaker == v.Seat && slices.Contains(v.Legal.Nominate, target) {
			return wire.ClientMessage{Type: "command", Verb: "nominate", Target: target}, true
		}
		return wire.ClientMessage{}, false
	}
}

// votesFor votes for target in every vote that offers it.
func votesFor(target int) policy {
	return func(v *wire.View) (wire.ClientMessage, bool) {
		if slices.Contains(v.Legal.Vote, target) {
			return wire.ClientMessage{Type: "command", Verb: "vote", Target: target}, true
		}
		return wire.ClientMessage{}, false
	}
}

// kills names target as the mafia's victim in the night of round (0: any).
func kills(target, round int) policy {
	return func(v *wire.View) (wire.ClientMessage, bool) {
		if v.Phase == "night" && (round == 0 || v.Round == round) && slices.Contains(v.Legal.Kill, target) {
			return wire.ClientMessage{Type: "command", Verb: "kill", Target: target}, true
		}
		return wire.ClientMessage{}, false
	}
}

// eventually waits for a JavaScript expression to be true; unlike waitJS it
// only reports whether it came true, so that a test can say which rule a
// page broke and go on to the next.
func (tb *tab) eventually(d time.Duration, expr string) bool {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, d)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0)))
	return err == nil
}

// inView is a JavaScript expression: the first element matching sel whose
// text includes text (any, when text is "") lies within the screen as it
// is, unscrolled.
func inView(sel, text string) string {
	return fmt.Sprintf(`(() => {
  const el = [...document.querySelectorAll(%q)].find((e) => e.offsetParent !== null && e.textContent.includes(%q));
  if (!el || window.scrollY !== 0) return false;
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
})()`, sel, text)
}

// waitPhase waits until the page's view is in phase (and, if speaker is
// not 0, that seat holds the floor).
func waitPhase(tb *tab, d time.Duration, phase string, round, speaker int) {
	tb.t.Helper()
	tb.waitJS(d, fmt.Sprintf(`(() => { const v = window.__mafia.state.view || {}; return v.phase === %q && (%d === 0 || v.round === %d) && (%d === 0 || v.speaker === %d); })()`,
		phase, round, round, speaker, speaker))
}
