package webtest

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
	"mafia/room"
	"mafia/server"
	"mafia/wire"
)

// A table of people played from Go: every seat is a real player's token
// over a real WebSocket, so that a test knows the deal and can hand any
// seat (the mafioso, the maniac) to a browser tab by its cookie, and play
// the others as it needs (a nomination, a vote, the mafia's victim).

// Person is one seat played from Go: it reads its frames all the time and
// keeps its latest view and the chat lines it was sent.
type Person struct {
	Seat  int
	Token string
	C     *client.Conn
	Mu    sync.Mutex
	view  *wire.View
	Chat  []wire.ServerMessage
	// Refused are the refusals it was sent, and err why its reading
	// stopped: what a test says when a line does not come.
	Refused []string
	Err     error
}

// Now returns the person's latest view.
func (p *Person) Now() *wire.View {
	p.Mu.Lock()
	defer p.Mu.Unlock()
	return p.view
}

// Heard reports whether the seat was sent a chat line with text in channel.
func (p *Person) Heard(channel string, from int, text string) bool {
	p.Mu.Lock()
	defer p.Mu.Unlock()
	return slices.ContainsFunc(p.Chat, func(m wire.ServerMessage) bool {
		return m.Channel == channel && m.From == from && m.Text == text
	})
}

// WaitView waits up to d for the seat's view to satisfy ok, and fails the
// test saying what did not happen if it does not.
func (p *Person) WaitView(t *testing.T, d time.Duration, what string, ok func(*wire.View) bool) {
	t.Helper()
	for until := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
		if v := p.Now(); v != nil && ok(v) {
			return
		}
		if time.Now().After(until) {
			t.Fatalf("seat %d: %s", p.Seat, what)
		}
	}
}

// StartPeopleServer is the server for a table of people: all its seats
// are joined from the test's one address.
func StartPeopleServer(t *testing.T) *TestServer {
	t.Helper()
	return StartServerWith(t, func(c *server.Config) { c.SeatsPerAddress = -1 })
}

// PeopleTable is a table of people, all dialled from Go.
type PeopleTable struct {
	T     *testing.T
	Ctx   context.Context
	TS    *TestServer
	API   *client.API
	Table string
	Seats []*Person // seat i+1
	Roles []engine.Role
}

// NewPeopleTable creates a public table of n players with the options and
// timings (ms) given, seats n people (seat 1 with the host's token) and
// starts the game.
func NewPeopleTable(ctx context.Context, t *testing.T, ts *TestServer, name string, n int, options map[string]string, timings map[string]int64) *PeopleTable {
	t.Helper()
	api := &client.API{Base: ts.URL}
	created, err := api.Create(ctx, client.CreateRequest{Name: name, Players: n, Options: options, TimingsMS: timings, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	pt := SeatPeople(ctx, t, ts, api, created, n)
	for until := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if evs, err := ts.DB.Events(ctx, created.Table); err == nil && len(evs) > 0 {
			break
		}
		if time.Now().After(until) {
			t.Fatal("the game did not start")
		}
	}
	g, _ := ts.Game(t, created.Table)
	for s := 1; s <= n; s++ {
		pt.Roles = append(pt.Roles, g.Role(engine.Seat(s)))
	}
	return pt
}

// SeatPeople seats n people at the table made (seat 1 with the host's
// token), each dialled from Go and read all the time, and starts the game.
func SeatPeople(ctx context.Context, t *testing.T, ts *TestServer, api *client.API, created client.Created, n int) *PeopleTable {
	t.Helper()
	pt := &PeopleTable{T: t, Ctx: ctx, TS: ts, API: api, Table: created.Table}
	for s := 1; s <= n; s++ {
		tok := ""
		if s == 1 {
			tok = created.HostToken
		}
		j, err := api.Join(ctx, created.Table, Names[(s-1)%len(Names)], s, tok)
		if err != nil {
			t.Fatal(err)
		}
		c, err := api.Dial(ctx, created.Table, j.Token, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		p := &Person{Seat: s, Token: j.Token, C: c, view: c.View}
		go func() {
			for {
				m, err := c.Read(ctx)
				if err != nil {
					p.Mu.Lock()
					p.Err = err
					p.Mu.Unlock()
					return
				}
				p.Mu.Lock()
				if m.Type == "error" {
					p.Refused = append(p.Refused, m.Code)
				}
				if m.View != nil {
					p.view = m.View
				}
				if m.Type == "chat" {
					p.Chat = append(p.Chat, m)
				}
				p.Mu.Unlock()
			}
		}()
		pt.Seats = append(pt.Seats, p)
	}
	if _, err := pt.Seats[0].C.Send(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	return pt
}

// Names are the people's names, seat by seat.
var Names = []string{"Nino", "Giorgi", "Tamar", "Dato", "Eka", "Levan", "Mariam", "Sandro", "Ana", "Luka", "Salome", "Irakli"}

// Name returns the name of the person in seat s.
func (pt *PeopleTable) Name(s int) string { return Names[(s-1)%len(Names)] }

// SeatsWith returns the seats whose card is one of roles, lowest first.
func (pt *PeopleTable) SeatsWith(roles ...engine.Role) []int {
	var out []int
	for i, r := range pt.Roles {
		if slices.Contains(roles, r) {
			out = append(out, i+1)
		}
	}
	return out
}

// Open hands seat s to the tab: its token becomes the tab's cookie (as the
// join would have set it) and the tab opens the table.
func (pt *PeopleTable) Open(tb *Tab, s int) {
	tb.T.Helper()
	tb.Do(10*time.Second, chromedp.Navigate(pt.TS.URL+"/healthz"), chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		yes := true
		_, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{
			Name: "mafia_" + pt.Table, Value: pt.Seats[s-1].Token, URL: pt.TS.URL, Path: "/", HTTPOnly: &yes,
			SameSite: network.CookieSameSiteStrict,
		})
		return err
	}))
	tb.Do(15*time.Second, chromedp.Navigate(pt.TS.URL+"/t/"+pt.Table))
	// Polled again and again: a poll begun as the new page replaces the
	// old one fails with the old page's context.
	ready := fmt.Sprintf(`!!window.__mafia && window.__mafia.state.seat === %d && !!window.__mafia.state.view`, s)
	for until := time.Now().Add(15 * time.Second); !tb.Eventually(2*time.Second, ready); {
		if time.Now().After(until) {
			tb.T.Fatalf("%s: seat %d's page did not open:\n%s", tb.Name, s, tb.Text())
		}
	}
}

// Policy is what a Go seat does with a view: a move, or nothing.
type Policy func(v *wire.View) (wire.ClientMessage, bool)

// Play plays seat s by pol, once a step (and again when the view changes),
// until the test ends.
func (pt *PeopleTable) Play(s int, pol Policy) {
	p := pt.Seats[s-1]
	go func() {
		last := ""
		for pt.Ctx.Err() == nil {
			time.Sleep(80 * time.Millisecond)
			v := p.Now()
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
				_, _ = p.C.Send(pt.Ctx, m)
			}
		}
	}()
}

// Passer ends its own speeches at once and does nothing else.
func Passer(v *wire.View) (wire.ClientMessage, bool) {
	if v.Speaker == v.Seat && v.Legal.Pass {
		return wire.ClientMessage{Type: "command", Verb: "pass"}, true
	}
	return wire.ClientMessage{}, false
}

// With plays the moves of more before passing: the first that applies.
func With(more ...Policy) Policy {
	return func(v *wire.View) (wire.ClientMessage, bool) {
		for _, p := range more {
			if m, ok := p(v); ok {
				return m, true
			}
		}
		return Passer(v)
	}
}

// Nominates names target in its speech (once: the view then offers no more).
func Nominates(target int) Policy {
	return func(v *wire.View) (wire.ClientMessage, bool) {
		if v.Phase == "speech" && v.Speaker == v.Seat && slices.Contains(v.Legal.Nominate, target) {
			return wire.ClientMessage{Type: "command", Verb: "nominate", Target: target}, true
		}
		return wire.ClientMessage{}, false
	}
}

// VotesFor votes for target in every vote that offers it.
func VotesFor(target int) Policy {
	return func(v *wire.View) (wire.ClientMessage, bool) {
		if slices.Contains(v.Legal.Vote, target) {
			return wire.ClientMessage{Type: "command", Verb: "vote", Target: target}, true
		}
		return wire.ClientMessage{}, false
	}
}

// Kills names target as the mafia's victim in the night of round (0: any).
func Kills(target, round int) Policy {
	return func(v *wire.View) (wire.ClientMessage, bool) {
		if v.Phase == "night" && (round == 0 || v.Round == round) && slices.Contains(v.Legal.Kill, target) {
			return wire.ClientMessage{Type: "command", Verb: "kill", Target: target}, true
		}
		return wire.ClientMessage{}, false
	}
}

// Eventually waits for a JavaScript expression to be true; unlike waitJS it
// only reports whether it came true, so that a test can say which rule a
// page broke and go on to the next.
func (tb *Tab) Eventually(d time.Duration, expr string) bool {
	tb.T.Helper()
	ctx, cancel := context.WithTimeout(tb.Ctx, d)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0)))
	return err == nil
}

// InView is a JavaScript expression: the first element matching sel whose
// text includes text (any, when text is "") lies within the screen as it
// is, unscrolled.
func InView(sel, text string) string {
	return fmt.Sprintf(`(() => {
  const el = [...document.querySelectorAll(%q)].find((e) => e.offsetParent !== null && e.textContent.includes(%q));
  if (!el || window.scrollY !== 0) return false;
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
})()`, sel, text)
}

// WaitPhase waits until the page's view is in phase (and, if speaker is
// not 0, that seat holds the floor).
func WaitPhase(tb *Tab, d time.Duration, phase string, round, speaker int) {
	tb.T.Helper()
	tb.WaitJS(d, fmt.Sprintf(`(() => { const v = window.__mafia.state.view || {}; return v.phase === %q && (%d === 0 || v.round === %d) && (%d === 0 || v.speaker === %d); })()`,
		phase, round, round, speaker, speaker))
}

// WaitEvents waits until the table's stored events (the server's record,
// night moves included before they are delivered) satisfy ok: a test on
// the test's clock waits for the moves a step needs before it moves the
// clock past the step's end.
func (pt *PeopleTable) WaitEvents(d time.Duration, what string, ok func([]engine.Event) bool) {
	pt.T.Helper()
	for until := time.Now().Add(Slack * d); ; time.Sleep(50 * time.Millisecond) {
		if evs, err := pt.TS.DB.Events(pt.Ctx, pt.Table); err == nil && ok(evs) {
			return
		}
		if time.Now().After(until) {
			pt.T.Fatalf("the table's events never showed %s", what)
		}
	}
}

// MafiaChose reports whether n members of the mafia have chosen victim in
// the stored events (a night's kill is made once every living mafioso has
// chosen): what WaitEvents waits for before a night is moved past.
func MafiaChose(victim, n int) func([]engine.Event) bool {
	return func(evs []engine.Event) bool {
		chose := map[engine.Seat]bool{}
		for _, e := range evs {
			if e.Kind == engine.EvMafiaChose && e.Target == engine.Seat(victim) {
				chose[e.Actor] = true
			}
		}
		return len(chose) == n
	}
}

// VotesCast counts the votes cast in the table's latest vote (since its
// last vote_began).
func VotesCast(evs []engine.Event) int {
	n := 0
	for _, e := range evs {
		switch e.Kind {
		case engine.EvVoteBegan:
			n = 0
		case engine.EvVoteCast:
			n++
		}
	}
	return n
}

// ClockUntil moves the table's clock until the expression until is true
// on the page: while the page's phase is one that move gives a time for
// (the rest of the step: the step began on the clock as it stands, as
// nothing moved it since), the clock moves by it, and the page's step is
// waited for to change before the next look (a page a step behind would
// move the clock through the next step).
func ClockUntil(tb *Tab, clk *room.FakeClock, until string, move func(phase string) time.Duration) {
	tb.T.Helper()
	for tick := 0; !tb.Eventually(300*time.Millisecond, until); tick++ {
		if tick > 200 {
			tb.T.Fatalf("%s: waiting for %s: the view is %s", tb.Name, until, Eval[string](tb, `JSON.stringify(window.__mafia.state.view)`))
		}
		v := Eval[struct {
			Phase string `json:"phase"`
			Step  int    `json:"step"`
		}](tb, `window.__mafia.state.view || {}`)
		if d := move(v.Phase); d > 0 {
			clk.Advance(d)
			tb.WaitJS(20*time.Second, fmt.Sprintf(`(window.__mafia.state.view || {}).step !== %d`, v.Step))
		}
	}
}

// GoVotesIn reports whether every Go seat but those skipped whose view
// offers a vote for target has voted.
func (pt *PeopleTable) GoVotesIn(target int, skip ...int) bool {
	for i, p := range pt.Seats {
		if slices.Contains(skip, i+1) {
			continue
		}
		if v := p.Now(); v != nil && v.Phase == "vote" && slices.Contains(v.Legal.Vote, target) && !v.Voted {
			return false
		}
	}
	return true
}
