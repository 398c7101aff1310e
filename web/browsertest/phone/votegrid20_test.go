package phone

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"mafia/client"
	"mafia/engine"
	"mafia/locale"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// newBigPeopleTable is newPeopleTable for a table past the presets' 11
// seats: it is made with its setup (the cards by count, POST /api/tables'
// "setup"), its seats taken by people dialled from Go (seat 1 the host's),
// and started.
func newBigPeopleTable(ctx context.Context, t *testing.T, ts *webtest.TestServer, name string, setup engine.Setup, options map[string]string, timings map[string]int64) *webtest.PeopleTable {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"name": name, "public": true, "options": options, "timings_ms": timings, "setup": map[string]int{
		"don": setup.Don, "mafia": setup.Mafia, "maniac": setup.Maniac, "detective": setup.Detective, "doctor": setup.Doctor, "citizens": setup.Citizens}})
	res, err := http.Post(ts.URL+"/api/tables", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var created client.Created
	err = json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusCreated || created.Table == "" {
		t.Fatalf("the table of %d: %d %v", setup.Players(), res.StatusCode, err)
	}
	api := &client.API{Base: ts.URL}
	return webtest.SeatPeople(ctx, t, ts, api, created, setup.Players())
}

// gridReport is a JavaScript expression: what is wrong with the vote grids
// shown (the vote part's and the log's) at the screen's width: a grid
// wider than its box (a scroll of its own), a grid past its part, a cell
// whose text is cut, a page wider than the screen; "no grid" if none is
// shown.
const gridReport = `(() => {
  const vw = document.documentElement.clientWidth;
  const bad = [];
  const wraps = [...document.querySelectorAll('.vgrid-wrap')].filter((w) => w.offsetParent !== null);
  if (!wraps.length) return 'no grid';
  for (const w of wraps) {
    const tb = w.querySelector('table.vgrid');
    const id = tb.id || 'log';
    if (w.scrollWidth > w.clientWidth + 0.5) bad.push(id + ': scrolls, ' + w.scrollWidth + ' in ' + w.clientWidth);
    const part = w.closest('.part');
    const pr = part.getBoundingClientRect(), tr = tb.getBoundingClientRect();
    if (tr.right > pr.right + 0.5 || tr.left < pr.left - 0.5) bad.push(id + ': ' + Math.round(tr.left) + '..' + Math.round(tr.right) + ' past its part ' + Math.round(pr.left) + '..' + Math.round(pr.right));
    for (const c of tb.querySelectorAll('th, td')) {
      if (c.scrollWidth > c.clientWidth + 0.5) bad.push(id + ': cell "' + c.textContent.trim() + '" cut (' + c.scrollWidth + ' in ' + c.clientWidth + ')');
    }
  }
  if (document.documentElement.scrollWidth > vw) bad.push('page ' + document.documentElement.scrollWidth + ' > ' + vw);
  return bad.join('; ');
})()`

// noteButtonsReport is a JavaScript expression: the seats' note buttons
// under 44x44 px, and how many there are.
const noteButtonsReport = `(() => {
  const bs = [...document.querySelectorAll('.seat .note-open')].filter((b) => b.offsetParent !== null);
  const small = bs.filter((b) => { const r = b.getBoundingClientRect(); return r.width < 43.5 || r.height < 43.5; })
    .map((b) => { const r = b.getBoundingClientRect(); return b.dataset.note + ': ' + Math.round(r.width) + 'x' + Math.round(r.height); });
  return bs.length + (small.length ? ' small: ' + small.join(', ') : '');
})()`

// TestBrowserATwentySeatVoteGridFitsAPhone (issue 28, item 4's remainder):
// a table of twenty people; on day 1 seats 2-11 name seats 12-20 and 2
// (ten candidates), and all twenty vote (seat 12 by twelve, eight others
// by one each). At 360x740, in Georgian, English and Russian, the grid of who
// voted for whom (twenty voters by ten candidates) fits its box with no
// scroll of its own, no cell cut, the page no wider than the screen, each
// voter's name still told (a screen reader's text, the number's title);
// the seats' note buttons are 44x44 px.
func TestBrowserATwentySeatVoteGridFitsAPhone(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ts := webtest.StartPeopleServer(t)
	long := int64(600_000)
	pt := newBigPeopleTable(ctx, t, ts, "Twenty", engine.Setup{Don: 1, Mafia: 4, Maniac: 1, Detective: 1, Doctor: 1, Citizens: 12},
		map[string]string{"first_night": "meeting"}, map[string]int64{
			"speech": long, "defence": long, "tie_speech": long, "last_words": long, "night": 1000, "vote": long})
	// Seats 2-11 name 12-20 and 2; seats 2-10 vote for the seat they
	// named, the others (the page's seat 1 by a tap) for 12.
	pt.Play(1, webtest.Passer)
	for s := 2; s <= 20; s++ {
		vote := 12
		if s <= 10 {
			vote = s + 10
		}
		switch {
		case s <= 10:
			pt.Play(s, webtest.With(webtest.Nominates(s+10), webtest.VotesFor(vote)))
		case s == 11:
			pt.Play(s, webtest.With(webtest.Nominates(2), webtest.VotesFor(vote)))
		case s == 12:
			// The one voted out keeps the floor for its last words: the
			// day, and its grid, stay.
			pt.Play(s, func(v *wire.View) (wire.ClientMessage, bool) {
				if v.Phase == "last_words" {
					return wire.ClientMessage{}, false
				}
				return webtest.With(webtest.VotesFor(vote))(v)
			})
		default:
			pt.Play(s, webtest.With(webtest.VotesFor(vote)))
		}
	}
	p := webtest.NewTab(t, "twenty", 360, 740)
	pt.Open(p, 1)
	const vote12 = `#t-act button[data-verb=vote][data-target="12"]:not([disabled])`
	p.WaitJS(90*time.Second, `!!document.querySelector('`+vote12+`')`)
	webtest.Eval[bool](p, `(document.querySelector('`+vote12+`').click(), true)`)
	p.WaitJS(30*time.Second, `!!document.querySelector('#t-votes table.vgrid')`)
	if got := webtest.Eval[string](p, `document.querySelectorAll('#t-votes table.vgrid thead th[data-cand]').length + ' ' + document.querySelectorAll('#t-votes table.vgrid tbody tr').length`); got != "10 20" {
		t.Fatalf("the grid has %s columns and rows, want 10 candidates by 20 voters", got)
	}
	for _, l := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		p.Do(10*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		p.WaitJS(10*time.Second, fmt.Sprintf(`document.documentElement.lang === %q && !!document.querySelector('#t-votes table.vgrid')`, l))
		// The log's grid too, opened.
		webtest.Eval[bool](p, `([...document.querySelectorAll('#log details')].forEach((d) => { d.open = true; }), true)`)
		if bad := webtest.Eval[string](p, gridReport); bad != "" {
			t.Errorf("%s: the vote grid at 360 px: %s", l, bad)
		}
		for _, s := range []int{1, 12, 20} {
			got := webtest.Eval[string](p, fmt.Sprintf(`(() => { const th = document.querySelector('#t-votes tr[data-voter="%d"] th.voter'); return th ? th.textContent + '|' + (th.title || '') : ''; })()`, s))
			name := webtest.Eval[string](p, fmt.Sprintf(`window.__mafia.state.lobby.seats[%d].name`, s-1))
			if got != fmt.Sprintf("%d %s|%s", s, name, name) {
				t.Errorf("%s: voter %d's row head reads %q, want its number, its name %q (for a screen reader) and its name as its title", l, s, got, name)
			}
		}
		if got := webtest.Eval[string](p, noteButtonsReport); got != "19" {
			t.Errorf("%s: the seats' note buttons: %s, want 19 of 44x44 px", l, got)
		}
		webtest.Eval[bool](p, `(document.querySelector('#t-votes').scrollIntoView(), true)`)
		p.Shot("vote-grid-20-" + string(l) + "-360")
	}
}
