package account

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/client"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/rating"
	"mafia/store"
	"mafia/web/internal/webtest"
)

// TestBrowserARatedTablesSeatsShowTheirRatings (issue 28, "What to build"
// item 4): at a rated table (360x740) each account's seat shows the
// account's overall rating, the number its page shows (mu - 3 sigma of the
// stored rating), linking to its page; a bot account's seat is marked a
// bot's; an account with no rating yet shows none.
func TestBrowserARatedTablesSeatsShowTheirRatings(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	base, db := webtest.StartRatedSite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := webtest.NewTab(t, "rated-seats", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(base+"/account"))
	webtest.SignUp(p, "Nino", "password1")
	p.WaitJS(10*time.Second, `location.pathname === '/players/Nino'`)
	p.Do(10*time.Second, chromedp.Navigate(base+"/account"))
	tokens := []string{webtest.MakeBotAccount(p, "Robo1"), webtest.MakeBotAccount(p, "Robo2")}

	// Nino and Robo1 have played a rated game (stored as the server rates
	// one); Robo2 none.
	id := func(key string) string {
		a, err := db.AccountByKey(ctx, account.Key(key))
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(a.ID)
	}
	nino, robo1 := id("Nino"), id("Robo1")
	if _, err := db.RateGame(ctx, store.RatedGame{Game: "seeded", At: time.Now(),
		Seats: []rating.Seat{{Player: nino, Side: rating.Mafia}, {Player: robo1, Side: rating.Town}}, Result: rating.Result{Winner: rating.Town}}); err != nil {
		t.Fatal(err)
	}
	overall := func(player string) string {
		prs, err := db.PlayerRatings(ctx, player)
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range prs {
			if pr.Kind == rating.Overall {
				return fmt.Sprintf("%.1f", pr.Rating.Ordinal())
			}
		}
		t.Fatalf("no overall rating for %s", player)
		return ""
	}

	p.Do(15*time.Second, chromedp.Navigate(base+"/"), browsertest.WaitVisible(chromedp.CSS("#create")))
	p.WaitJS(10*time.Second, `!document.querySelector('#rated').disabled`)
	p.Do(10*time.Second,
		browsertest.SetValue(chromedp.CSS("#your-name"), "Nino"),
		browsertest.SetValue(chromedp.CSS("#create-name"), "Rated"),
		browsertest.SetValue(chromedp.CSS("#players"), "5"),
		browsertest.Click(chromedp.CSS("#rated")),
		browsertest.Click(chromedp.CSS("#create")), browsertest.WaitVisible(chromedp.CSS("#seated")))
	table := p.TableOf()
	api := &client.API{Base: base}
	for _, tok := range tokens {
		if _, err := api.Join(ctx, table, "ignored", 0, tok); err != nil {
			t.Fatalf("a bot account's join: %v", err)
		}
	}
	p.WaitJS(10*time.Second, `document.querySelectorAll('.seat[data-seat-bot]').length === 2 && document.querySelectorAll('.seat .badge.rating').length === 2`)
	got := webtest.Eval[map[string]string](p, `Object.fromEntries([...document.querySelectorAll('.seat')].map((li) => [li.querySelector('.name').textContent, (li.querySelector('.badge.rating') || {}).dataset?.rating || '']))`)
	want := map[string]string{"Nino": overall(nino), "Robo1": overall(robo1), "Robo2": ""}
	for name, r := range want {
		if got[name] != r {
			t.Errorf("%s's seat shows rating %q, the stored %q (all: %v)", name, got[name], r, got)
		}
	}
	for _, lang := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		p.Do(5*time.Second, webtest.TapSetting(`button[data-lang="`+string(lang)+`"]`))
		text := locale.New(lang).T("web.seat_rating", map[string]any{"Rating": want["Nino"]})
		p.WaitJS(10*time.Second, fmt.Sprintf(`[...document.querySelectorAll('.seat .badge.rating')].some((b) => b.textContent === %q)`, text))
		p.Shot("94-seats-rated-" + string(lang) + "-360")
	}
	if href := webtest.Eval[string](p, `document.querySelector('.seat .badge.rating').getAttribute('href')`); href != "/players/Nino" && href != "/players/Robo1" {
		t.Errorf("the rating links to %q", href)
	}
}

// longName is a 30-letter Georgian name with no space.
const longName = "ალექსანდრემთაწმინდელიჯავახიშვი"

// TestBrowserALongNameAndANoteStayInTheSeatGrid (issue 28, item 4, and
// defect 5's remainder): at 360x740 in Georgian, English and Russian, a
// player whose name is 30 Georgian letters with no space sits with four
// bots; the seat grid stays inside its panel and the page does not scroll
// sideways; the note editor opened on a seat takes the whole row (its
// neighbour keeps its height), and the mark and the note show on the seat
// once done. The header keeps one row: every button at least 44 px both
// ways, none overlapping another.
func TestBrowserALongNameAndANoteStayInTheSeatGrid(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "long-name", 360, 740)
	if n := len([]rune(longName)); n != 30 {
		t.Fatalf("the long name has %d letters", n)
	}
	webtest.CreateTable(p, ts.URL, longName, 5, map[string]string{
		"speech": "600", "last_words": "600", "defence": "600", "tie_speech": "600", "night": "0.3", "vote": "60",
	})
	p.Do(10*time.Second,
		browsertest.Click(chromedp.CSS("#add-bots")),
		browsertest.WaitEnabled(chromedp.CSS("#start")),
		browsertest.Click(chromedp.CSS("#start")),
	)
	p.WaitJS(15*time.Second, `!!document.querySelector('.seat[data-seat="2"] .note-open')`)
	const inPanel = `(() => {
	  const grid = document.querySelector('ol.seats').getBoundingClientRect();
	  const panel = document.querySelector('ol.seats').parentElement.getBoundingClientRect();
	  const seats = [...document.querySelectorAll('.seat')].map((s) => s.getBoundingClientRect());
	  const w = document.documentElement.clientWidth;
	  const bad = [];
	  if (grid.right > panel.right + 1 || grid.right > w) bad.push('grid ' + grid.right + ' > ' + panel.right);
	  seats.forEach((r, i) => { if (r.right > grid.right + 1) bad.push('seat ' + (i + 1) + ' ' + r.right); });
	  if (document.documentElement.scrollWidth > w) {
	    const out = [...document.querySelectorAll('body *')].filter((e) => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 && getComputedStyle(e).overflowX === 'visible');
	    bad.push('page ' + document.documentElement.scrollWidth + ': ' + out.slice(0, 4).map((e) => e.tagName + '.' + e.className + '#' + e.id).join(' '));
	  }
	  return bad.join('; ');
	})()`
	const header = `(() => {
	  const bs = [...document.querySelectorAll('header.top button, header.top a')].filter((b) => b.offsetParent !== null).map((b) => [b.id || b.className, b.getBoundingClientRect()]);
	  const bad = [];
	  for (const [n, r] of bs) if (r.height < 44 || r.width < 44) bad.push(n + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
	  for (let i = 0; i < bs.length; i++) for (let j = i + 1; j < bs.length; j++) {
	    const a = bs[i][1], b = bs[j][1];
	    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) bad.push(bs[i][0] + ' overlaps ' + bs[j][0]);
	  }
	  if (new Set(bs.map(([, r]) => Math.round(r.top))).size > 1) bad.push('two rows');
	  return bad.join('; ');
	})()`
	for _, lang := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		p.Do(5*time.Second, webtest.TapSetting(`button[data-lang="`+string(lang)+`"]`))
		p.WaitJS(10*time.Second, `document.documentElement.lang === '`+string(lang)+`' && !!document.querySelector('.seat[data-seat="2"] .note-open')`)
		if bad := webtest.Eval[string](p, inPanel); bad != "" {
			t.Errorf("%s: the seat grid with a long name: %s", lang, bad)
		}
		if bad := webtest.Eval[string](p, header); bad != "" {
			t.Errorf("%s: the header at 360 px: %s", lang, bad)
		}
		p.Shot("95-seats-long-name-" + string(lang) + "-360")
	}

	// The note editor on seat 2: the whole row; seat 3 keeps its height.
	before := webtest.Eval[float64](p, `document.querySelector('.seat[data-seat="3"]').getBoundingClientRect().height`)
	webtest.TapCentered(p, `.seat[data-seat="2"] .note-open`)
	p.WaitJS(5*time.Second, `!!document.querySelector('#note-text-2')`)
	if bad := webtest.Eval[string](p, inPanel); bad != "" {
		t.Errorf("the seat grid with the note editor open: %s", bad)
	}
	if h := webtest.Eval[float64](p, `document.querySelector('.seat[data-seat="3"]').getBoundingClientRect().height`); h > before+1 {
		t.Errorf("the note editor on seat 2 stretches seat 3 from %.0f to %.0f px", before, h)
	}
	if full := webtest.Eval[bool](p, `(() => { const s = document.querySelector('.seat[data-seat="2"]').getBoundingClientRect(); const g = document.querySelector('ol.seats').getBoundingClientRect(); return s.width > g.width - 2; })()`); !full {
		t.Error("the seat whose note is written does not take the whole row")
	}
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS(`.seat[data-seat="2"] button[data-mark="suspect"]`)))
	p.Do(5*time.Second, browsertest.SendKeys(chromedp.CSS("#note-text-2"), "quiet at night, voted late"))
	p.Shot("96-seats-note-open-ru-360")
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS(`.seat[data-seat="2"] .note-edit button.secondary`)))
	if !p.Eventually(5*time.Second, `!document.querySelector('#note-text-2') && !!document.querySelector('.seat[data-seat="2"] .badge.m-suspect') && (document.querySelector('.seat[data-seat="2"] .note-text') || {}).textContent === 'quiet at night, voted late'`) {
		t.Errorf("the note is not kept on seat 2: %s; stored %s", webtest.Eval[string](p, `document.querySelector('.seat[data-seat="2"]').outerHTML`),
			webtest.Eval[string](p, `JSON.stringify(localStorage)`))
	}
	if bad := webtest.Eval[string](p, inPanel); bad != "" {
		t.Errorf("the seat grid with a note: %s", bad)
	}
}
