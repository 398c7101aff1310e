package table

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/client"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/room"
	"mafia/server"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// Issue 28, "What to build" 1: the vote as people see it at a table.

// phoneAtTheVote opens a 5-seat table (first night a meeting: nobody dies)
// in a 360x740 tab at seat 1, seats 2 and 3 played from Go, bots in 4 and
// 5, and plays day 1 to its vote (seat 2 nominates the page's seat 1,
// seat 3 nominates seat 2). The three people's votes decide it whatever
// the two bots vote (voteTarget: seat 1, or seat 2 when the page holds the
// only mafia card, whose leaving would end the game): a person is voted
// out and holds their last words, and the day stays. (With three bots, a
// bot voted out by them passed its last words at once and the night took
// the grid away before the page was looked at.) The vote lasts 60 s
// unless everyone votes.
//
// The table is on the test's clock (clk): the test moves it past the
// meeting night, and past the vote once the people's votes are in.
func phoneAtTheVote(t *testing.T, ctx context.Context) (p *webtest.Tab, seat2, seat3 *webtest.GoSeat, clk *room.FakeClock) {
	t.Helper()
	clk = room.NewFakeClock(time.Now())
	ts := webtest.StartServerWith(t, func(c *server.Config) { c.Clock = clk })
	api := &client.API{Base: ts.URL}
	long := int64(600_000)
	created, err := api.Create(ctx, client.CreateRequest{Name: "marks", Players: 5,
		Options: map[string]string{"first_night": "meeting"},
		TimingsMS: map[string]int64{"speech": long, "defence": long, "tie_speech": long, "last_words": long,
			"night": 1000, "vote": 60_000}})
	if err != nil {
		t.Fatal(err)
	}
	p = webtest.NewTab(t, "voter", 360, 740)
	webtest.JoinTable(p, ts.URL+"/t/"+created.Table, "Nino")
	if s := webtest.MySeat(p); s != 1 {
		t.Fatalf("the page sits at seat %d, want 1", s)
	}
	gio, err := api.Join(ctx, created.Table, "Gio", 2, "")
	if err != nil {
		t.Fatal(err)
	}
	eka, err := api.Join(ctx, created.Table, "Eka", 3, "")
	if err != nil {
		t.Fatal(err)
	}
	host := webtest.DialSeat(ctx, t, api, created.Table, created.HostToken)
	seat2 = webtest.DialSeat(ctx, t, api, created.Table, gio.Token)
	seat3 = webtest.DialSeat(ctx, t, api, created.Table, eka.Token)
	host.Send(ctx, t, wire.ClientMessage{Type: "host", Action: "add_bots"})
	p.WaitJS(10*time.Second, `document.querySelectorAll('#t-seats li[data-seat]').length === 5 && document.querySelectorAll('#t-seats li.free').length === 0`)
	host.Send(ctx, t, wire.ClientMessage{Type: "host", Action: "start"})
	const pass = `#t-act button[data-verb=pass]:not([disabled])`
	nominated, nominated3 := false, false
	for {
		if ctx.Err() != nil {
			t.Fatal("no vote in time")
		}
		switch webtest.Eval[string](p, `(window.__mafia && window.__mafia.state.view || {}).phase || ''`) {
		case "vote":
			return p, seat2, seat3, clk
		case "night":
			// The meeting night (1 s) ends on the clock; a second more
			// moves a speech of ten minutes or the vote's first second.
			clk.Advance(time.Second)
		}
		if webtest.Eval[bool](p, fmt.Sprintf(`!!document.querySelector(%q)`, pass)) {
			p.Do(5*time.Second, browsertest.Click(chromedp.CSS(pass)))
		}
		if v := seat2.Now(); v != nil && v.Phase != "vote" && v.Speaker == 2 {
			if v.Phase == "speech" && !nominated && slices.Contains(v.Legal.Nominate, 1) {
				nominated = true
				seat2.Send(ctx, t, wire.ClientMessage{Type: "command", Verb: "nominate", Target: 1})
				time.Sleep(50 * time.Millisecond)
			}
			if v.Legal.Pass {
				seat2.Send(ctx, t, wire.ClientMessage{Type: "command", Verb: "pass"})
			}
		}
		if v := seat3.Now(); v != nil && v.Phase != "vote" && v.Speaker == 3 {
			if v.Phase == "speech" && !nominated3 && slices.Contains(v.Legal.Nominate, 2) {
				nominated3 = true
				seat3.Send(ctx, t, wire.ClientMessage{Type: "command", Verb: "nominate", Target: 2})
				time.Sleep(50 * time.Millisecond)
			}
			if v.Legal.Pass {
				seat3.Send(ctx, t, wire.ClientMessage{Type: "command", Verb: "pass"})
			}
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// voteTarget is the seat the people vote out: the page's seat 1, or seat 2
// when the page holds the Don, the only mafia card of five seats (voted
// out, it would end the game, and the grid with the day).
func voteTarget(p *webtest.Tab) int {
	if webtest.Eval[string](p, `window.__mafia.state.view.role`) == "don" {
		return 2
	}
	return 1
}

// noTargetBeforeTheClose is a script: "" when nothing the page holds or
// shows tells another seat's vote before the close, else what does.
const noTargetBeforeTheClose = `(() => {
  const st = window.__mafia.state, out = [];
  for (const e of st.events) {
    if (e.kind === 'vote_made' && (e.target || e.yes !== undefined)) out.push('vote_made with a target: ' + JSON.stringify(e));
    if ((e.kind === 'vote_cast' || e.kind === 'all_vote_cast') && e.actor !== st.seat) out.push('another seat\'s vote: ' + JSON.stringify(e));
  }
  if (document.querySelector('#t-votes table.vgrid')) out.push('a grid before the close');
  return out.join('; ');
})()`

// TestBrowserTheVoteShowsWhoHasVotedThenWhoVotedForWhom: at 360 px, while
// the vote runs the page marks who has voted, live ("N of 5 have voted",
// a mark per living seat), and never for whom; once it closes, a grid of
// who voted for whom stays for the day, and the log holds it too. In
// Georgian, English and Russian; nothing wider than the screen.
func TestBrowserTheVoteShowsWhoHasVotedThenWhoVotedForWhom(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	p, seat2, seat3, clk := phoneAtTheVote(t, ctx)

	// The bots vote at once (instant pace): the marks show them, seats 1
	// and 2 waiting.
	p.WaitJS(10*time.Second, `!!document.querySelector('#vote-progress')`)
	mark := func(s int) string {
		return webtest.Eval[string](p, fmt.Sprintf(`(document.querySelector('#vote-marks li[data-seat="%d"]') || {dataset: {}}).dataset.voted || ''`, s))
	}
	if mark(1) != "0" || mark(2) != "0" || mark(3) != "0" {
		t.Errorf("before seats 1, 2 and 3 voted their marks are %q, %q and %q, want 0", mark(1), mark(2), mark(3))
	}
	bots := webtest.Eval[int](p, `+document.querySelector('#vote-progress').dataset.voted`)
	if of := webtest.Eval[int](p, `+document.querySelector('#vote-progress').dataset.of`); of != 5 {
		t.Errorf("the progress counts %d voters, want 5", of)
	}
	en := locale.New(locale.En)
	if got, want := webtest.Eval[string](p, `document.querySelector('#vote-progress').textContent`), en.Plural("web.votes.progress", bots, map[string]any{"Count": bots, "Total": 5}); got != want && webtest.Eval[string](p, `document.documentElement.lang`) == "en" {
		t.Errorf("the progress says %q, want %q", got, want)
	}
	if bad := webtest.Eval[string](p, noTargetBeforeTheClose); bad != "" {
		t.Errorf("before the page voted: %s", bad)
	}
	// A first game's hint (hints.js) says what to do now.
	p.WaitJS(10*time.Second, `(document.querySelector('#hint') || {dataset: {}}).dataset.hint === 'web.hint.vote'`)

	// The page votes for the people's target (their three votes put it
	// out): its own mark, the count one up, still no target of anyone
	// else's.
	vote := fmt.Sprintf(`#t-act button[data-verb=vote][data-target="%d"]:not([disabled])`, voteTarget(p))
	p.WaitJS(10*time.Second, fmt.Sprintf(`!!document.querySelector(%q)`, vote))
	target := webtest.Eval[int](p, fmt.Sprintf(`(() => { const b = document.querySelector(%q); b.click(); return +b.dataset.target; })()`, vote))
	p.WaitJS(10*time.Second, `(document.querySelector('#vote-marks li[data-seat="1"]') || {dataset: {}}).dataset.voted === '1'`)
	if got := webtest.Eval[int](p, `+document.querySelector('#vote-progress').dataset.voted`); got != bots+1 {
		t.Errorf("after the page's vote %d have voted, want %d", got, bots+1)
	}
	if mark(2) != "0" {
		t.Error("seat 2 is marked as having voted before it did")
	}
	p.WaitJS(10*time.Second, `(document.querySelector('#hint') || {dataset: {}}).dataset.hint === 'web.hint.voted'`)
	if bad := webtest.Eval[string](p, noTargetBeforeTheClose); bad != "" {
		t.Errorf("after the page voted: %s", bad)
	}
	p.Shot("vote-marks-en-360")

	// Seats 2 and 3 vote: the vote closes (at once, or, when a bot
	// abstained, at the clock's minute, which the test then moves past:
	// every vote is in, the bots' at the vote's start; the last words that
	// may follow last ten minutes).
	seat2.Send(ctx, t, wire.ClientMessage{Type: "command", Verb: "vote", Target: target})
	seat3.Send(ctx, t, wire.ClientMessage{Type: "command", Verb: "vote", Target: target})
	taken := func(g *webtest.GoSeat) bool { v := g.Now(); return v.Voted || v.Phase != "vote" }
	for until := time.Now().Add(webtest.Slack * 10 * time.Second); !taken(seat2) || !taken(seat3); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(until) {
			t.Fatalf("seats 2 and 3's votes were not taken: %+v; %+v", *seat2.Now(), *seat3.Now())
		}
	}
	clk.Advance(60 * time.Second)
	p.WaitJS(70*time.Second, `!!document.querySelector('#t-votes table.vgrid')`)
	ballot := webtest.Eval[[]int](p, `window.__mafia.state.events.filter((e) => e.kind === 'vote_closed').pop().ballot`)
	// The grid: one row per counted voter, the mark in the column of the
	// candidate the ballot counted them for, the counts below.
	rows := webtest.Eval[[][]int](p, `[...document.querySelectorAll('#vote-grid-1 tbody tr')].map((tr) => [+tr.dataset.voter, +(tr.querySelector('td.mark') || {dataset: {for: 0}}).dataset.for])`)
	want := [][]int{}
	for i, c := range ballot {
		if c != 0 {
			want = append(want, []int{i + 1, c})
		}
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("the grid's rows (voter, candidate) are %v, want %v from the ballot %v", rows, want, ballot)
	}
	if got := webtest.Eval[int](p, fmt.Sprintf(`+document.querySelector('#vote-grid-1 tfoot td[data-count="%d"]').textContent`, target)); got < 2 {
		t.Errorf("seat %d's count in the grid is %d, want at least the two people's votes", target, got)
	}
	if n := webtest.Eval[int](p, `document.querySelectorAll('#log .k-vote_closed table.vgrid').length`); n != 1 {
		t.Errorf("the log holds %d vote grids, want 1", n)
	}
	if n := webtest.Eval[int](p, `document.querySelectorAll('#log .k-vote_made').length`); n != 0 {
		t.Errorf("the log lists %d vote_made lines: who has voted is the marks' job", n)
	}
	// The grid stays for the day, in every language.
	for _, l := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		p.Do(5*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		p.WaitJS(10*time.Second, fmt.Sprintf(`document.documentElement.lang === %q && !!document.querySelector('#vote-grid-1')`, l))
		cat := locale.New(l)
		p.WaitJS(10*time.Second, fmt.Sprintf(`document.querySelector('#vote-grid-1 caption').textContent === %q`, cat.T("web.votes.caption", nil)))
		if ph := webtest.Eval[string](p, `window.__mafia.state.view.phase`); ph == "night" {
			t.Fatalf("%s: the night came before the grid was looked at", l)
		}
		if txt := webtest.Eval[string](p, `document.querySelector('#t-votes').textContent`); !strings.Contains(txt, cat.T("web.votes.total", nil)) {
			t.Errorf("%s: the grid has no %q row: %q", l, cat.T("web.votes.total", nil), txt)
		}
		p.Shot("vote-grid-" + string(l) + "-360")
	}
}
