package screens

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestTheEndTableAt360AndThePrintedStandingsKeepWordsWhole (issue 29,
// defect 6): the result screen of a ten-seat game in Georgian at 360 px
// shows "10" on one line and every card's name whole, with no sideways
// scroll; the season's standings in Georgian, printed (print media, on
// A4 landscape's width), keep every number on one line, every header and
// name whole, no roster-id column, and nothing past the right edge.
func TestTheEndTableAt360AndThePrintedStandingsKeepWordsWhole(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "print-layout")
	h.SetValue(`[data-t="lang"]`, "ka")
	h.WaitJS(5*time.Second, `document.documentElement.lang === 'ka' || !!document.querySelector('[data-t="new-game"]')`)
	h.Create(hosttest.GameSpec{Names: []string{"ნინო", "თამარი", "გიორგი", "დავითი", "ლევანი", "ანა", "საბა", "ეკატერინე", "ზურაბი", "ალექსანდრე"}, Deal: record.DealPass})
	h.Play(hosttest.TownDriver())
	h.WaitJS(hosttest.SyncWait, `!!document.querySelector('.seats-table')`)
	h.NoSideScroll("the result at 360 px")
	if bad := hosttest.BrokenCells(h.Tab, `.seats-table td:first-child, .seats-table td:last-child`, true); len(bad) > 0 {
		t.Errorf("the result's numbers wrap at 360 px: %v", bad)
	}
	if bad := hosttest.BrokenCells(h.Tab, `.seats-table td:nth-child(3), .seats-table td:nth-child(2), .seats-table th`, false); len(bad) > 0 {
		t.Errorf("the result's names and cards are cut mid-word at 360 px: %v", bad)
	}
	h.Shot("print-layout-end-360")

	// The standings.
	names := []string{"ნინო ბერიძე", "გიორგი მაისურაძე", "თამარ ჯავახიშვილი", "დავით აღმაშენებელი", "ლევან ხარაბაძე", "ანასტასია", "ალექსანდრე"}
	cl, people := hosttest.NewClubWith(t, ts, names...)
	ids := make([]string, 7)
	for i := range ids {
		ids[i] = people[i].ID
	}
	var c hosttest.Created
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", map[string]any{"names": names, "deal": record.DealManual, "roles": hosttest.Roles7,
		"club_token": cl.Token, "club": map[string]any{"club": cl.ID, "day": "2026-12-01", "people": ids}}, &c); code != http.StatusCreated {
		t.Fatalf("the club's game: %d", code)
	}
	hosttest.PlayClubGame(t, ts, c)
	if code := hosttest.Call(t, "PUT", ts.URL+"/host/api/games/"+c.ID+"/score", c.HostToken,
		map[string]any{"best_move": map[string]any{"seat": 1, "guess": []int{2, 4, 5}}, "extra": []any{map[string]any{"seat": 3, "points": 0.7}}}, nil); code != http.StatusOK {
		t.Fatalf("the score: %d", code)
	}
	if code := hosttest.Call(t, "PUT", ts.URL+"/host/api/clubs/"+cl.ID+"/seasons/winter", cl.Token,
		map[string]any{"name": "ზამთარი", "from": "2026-12-01", "to": "2027-02-28"}, nil); code != http.StatusOK {
		t.Fatalf("the season: %d", code)
	}
	// A4 landscape less the margins, at 96 px an inch: 281 mm.
	h.Do(10*time.Second, chromedp.EmulateViewport(1062, 740), hosttest.Navigate(ts.URL+"/host/clubs/"+cl.ID+"/seasons/winter?lang=ka"),
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
			return err
		}))
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="standings"] tbody tr')`)
	if right, width := hosttest.Eval[float64](h.Tab, `document.querySelector('[data-t="standings"]').getBoundingClientRect().right`), hosttest.Eval[float64](h.Tab, `innerWidth`); right > width {
		t.Errorf("the printed standings end at %.0f px, past the sheet's %.0f px", right, width)
	}
	if bad := hosttest.BrokenCells(h.Tab, `[data-t="standings"] td:not(.c-name)`, true); len(bad) > 0 {
		t.Errorf("the printed standings' numbers wrap: %v", bad)
	}
	if bad := hosttest.BrokenCells(h.Tab, `[data-t="standings"] th, [data-t="standings"] td.c-name`, false); len(bad) > 0 {
		t.Errorf("the printed standings' headers or names are cut mid-word: %v", bad)
	}
	if hosttest.Eval[bool](h.Tab, `[...document.querySelectorAll('[data-t="standings"] .c-person')].some((el) => !!el.offsetParent)`) {
		t.Errorf("the printed standings show the roster-id column")
	}
	h.Shot("print-layout-standings")
}
