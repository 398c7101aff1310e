package account

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/engine"
	"mafia/locale"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/web/internal/webtest"
)

// seedCardGames records a finished 11-seat online game for each card in
// cards, the account of name in seat 1 holding that card, each won by
// the side in winners (by index): the player's page counts them by side
// and by card.
func seedCardGames(t *testing.T, db *sqlite.DB, name string, cards []engine.Role, winners []string) {
	t.Helper()
	ctx := context.Background()
	a, err := db.AccountByKey(ctx, account.Key(name))
	if err != nil {
		t.Fatal(err)
	}
	setup, err := engine.Preset(11)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-time.Hour)
	for g, card := range cards {
		seed := uint64(g + 1)
		roles := setup.Deal(seed, nil)
		for i := range roles {
			if roles[i] == card {
				roles[0], roles[i] = roles[i], roles[0]
				break
			}
		}
		_, evs, err := engine.New(engine.DefaultRules(), roles, seed)
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("sides%s%d", name, g)
		seats := make([]store.Seat, 11)
		for i := range seats {
			seats[i] = store.Seat{Seat: i + 1, Name: fmt.Sprintf("P%d", i+1), TokenHash: fmt.Sprintf("%s-tok%d", id, i+1)}
		}
		seats[0].Name, seats[0].Account = name, a.ID
		tb := store.Table{ID: id, Kind: store.KindOnline, Name: "table " + id, Public: true, Status: store.StatusPlaying, CreatedAt: at, UpdatedAt: at}
		if err := db.CreateTable(ctx, tb, seats); err != nil {
			t.Fatal(err)
		}
		if err := db.AppendEvents(ctx, id, 0, evs); err != nil {
			t.Fatal(err)
		}
		tb.Status, tb.Winner, tb.UpdatedAt = store.StatusEnded, winners[g], at.Add(time.Duration(g+1)*time.Minute)
		if err := db.UpdateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
}

// talliesReport is a JavaScript expression: what is wrong with the
// player's page's tables of wins (by side, by card) at the screen's width:
// a table past its card, a cell whose text is cut, a page wider than the
// screen; "no table" without the wins by side.
const talliesReport = `(() => {
  const vw = document.documentElement.clientWidth;
  if (!document.querySelector('#by-side')) return 'no table';
  const bad = [];
  for (const tb of document.querySelectorAll('table.tallies')) {
    const part = tb.closest('.part') || document.querySelector('main');
    const pr = part.getBoundingClientRect(), cs = getComputedStyle(part);
    const inner = [pr.left + parseFloat(cs.paddingLeft), pr.right - parseFloat(cs.paddingRight)];
    const r = tb.getBoundingClientRect();
    if (r.left < inner[0] - 0.5 || r.right > inner[1] + 0.5) bad.push(tb.id + ' ' + Math.round(r.left) + '..' + Math.round(r.right) + ' past its card ' + Math.round(inner[0]) + '..' + Math.round(inner[1]));
    for (const c of tb.querySelectorAll('th, td, caption')) {
      if (c.scrollWidth > c.clientWidth + 0.5) bad.push(tb.id + ': "' + c.textContent.trim() + '" cut');
    }
  }
  if (document.documentElement.scrollWidth > vw) bad.push('page ' + document.documentElement.scrollWidth + ' > ' + vw);
  return bad.join('; ');
})()`

// TestBrowserThePlayersWinsBySideFitAPhone (issue 28, defect 5's
// remainder, measured again): a player of six games (as a citizen, the
// detective, the doctor, a mafioso, the don and the maniac) opens their
// page at 360x740; in Georgian, English and Russian the wins by side
// (town, mafia, maniac) and by card stay inside their card, no word cut,
// the page no wider than the screen. The table's width is reported.
func TestBrowserThePlayersWinsBySideFitAPhone(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	base, db := webtest.StartRatedSite(t)
	p := webtest.NewTab(t, "sides", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(base+"/account"))
	webtest.SignUp(p, "ნინოწმინდელი", "password1")
	p.WaitJS(10*time.Second, `location.pathname.startsWith('/players/')`)
	seedCardGames(t, db, "ნინოწმინდელი", []engine.Role{engine.Citizen, engine.Detective, engine.Doctor, engine.Mafioso, engine.Don, engine.Maniac},
		[]string{"town", "mafia", "town", "mafia", "town", "maniac"})
	p.Do(15*time.Second, chromedp.Reload())
	p.WaitJS(10*time.Second, `document.querySelectorAll('#by-side tbody tr').length === 3`)
	for _, l := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		p.Do(10*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		cat := locale.New(l)
		p.WaitJS(10*time.Second, fmt.Sprintf(`document.documentElement.lang === %q && document.querySelector('#by-side caption').textContent === %q`, l, cat.T("web.profile.by_side", nil)))
		if bad := webtest.Eval[string](p, talliesReport); bad != "" {
			t.Errorf("%s: the wins at 360 px: %s", l, bad)
		}
		t.Logf("%s: the wins by side: %s", l, webtest.Eval[string](p, `(() => { const r = document.querySelector('#by-side').getBoundingClientRect(); return Math.round(r.left) + '..' + Math.round(r.right) + ' px of ' + document.documentElement.clientWidth; })()`))
		webtest.Eval[bool](p, `(document.querySelector('#by-side').scrollIntoView(), true)`)
		p.Shot("profile-sides-" + string(l) + "-360")
	}
}
