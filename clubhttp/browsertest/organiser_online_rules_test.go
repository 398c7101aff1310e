package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/clubhttp"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/store/sqlite"
)

// TestTheOrganiserSetsTheForfeitAndTheTimingsOfAnOnlineTournament (issue
// 29's leftover): on a phone (360×740, in Georgian) the organiser's form of
// an online tournament sets the forfeit penalty (its field shown only
// under the forfeit rule) and each step's time at the tables, labelled
// from the catalogs; the API keeps forfeit -0.75 and timings_ms of the
// two steps filled in (speech 45 s, night 30.5 s), the others left to the
// server. No page scrolls sideways.
func TestTheOrganiserSetsTheForfeitAndTheTimingsOfAnOnlineTournament(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	mux := http.NewServeMux()
	mux.Handle("/host/", clubhttp.New(clubhttp.Config{Store: db, Accounts: svc}))
	hs := httptest.NewServer(mux)
	defer hs.Close()
	var c struct{ ID, Token, Name string }
	if code := call(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "ფოთის კლუბი"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	for i := 1; i <= 10; i++ {
		if code := call(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token,
			map[string]any{"name": fmt.Sprintf("ნინო %02d", i)}, nil); code != http.StatusCreated {
			t.Fatalf("add: %d", code)
		}
	}

	ctx := browsertest.Tab(t, browser.Context(t))
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	defer cancelT()
	_, wait, eval, press, wide := drive(t, ctx)
	organiser := hs.URL + "/host/clubs/" + c.ID + "/organiser?lang=ka"
	keep, _ := json.Marshal(map[string]string{"id": c.ID, "token": c.Token, "name": c.Name})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(360, 740), chromedp.Navigate(organiser)); err != nil {
		t.Fatal(err)
	}
	var ok bool
	eval("keep the club", `(() => { localStorage.setItem('assist.club', `+string(mustJSON(string(keep)))+`); return true; })()`, &ok)
	if err := chromedp.Do(ctx, chromedp.Navigate(organiser)); err != nil {
		t.Fatal(err)
	}
	wait("the form", `document.querySelectorAll('[data-t="player"]').length === 10`)

	forfeitShown := `(() => { const f = document.querySelector('[data-t="forfeit"]'); return !!f && !f.closest('label').hidden; })()`
	eval("online, under the stand-in rule", `(() => {
		document.querySelector('[data-t="online"]').click();
		const s = document.querySelector('[data-t="no-show"]'); s.value = 'stand_in'; s.dispatchEvent(new Event('change', { bubbles: true }));
		return true; })()`, &ok)
	eval("the forfeit field under the stand-in rule", forfeitShown, &ok)
	if ok {
		t.Error("the forfeit penalty is asked for under the stand-in rule")
	}
	ka := locale.New(locale.Ka)
	var labels map[string]string
	eval("the timings' labels", `(() => { const out = {}; for (const i of document.querySelectorAll('[data-t="timings"] input')) out[i.dataset.step] = i.closest('label').textContent; return out; })()`, &labels)
	for _, step := range []string{"speech", "defence", "tie_speech", "last_words", "night", "vote"} {
		if want := ka.T("web.timing."+step, nil); labels[step] != want {
			t.Errorf("the time of %s is labelled %q, want %q", step, labels[step], want)
		}
	}
	var legend string
	eval("the timings' legend", `document.querySelector('[data-t="timings"] legend').textContent`, &legend)
	if want := ka.T("organiser.timings", nil); legend != want {
		t.Errorf("the timings are headed %q, want %q", legend, want)
	}

	fill := `(() => {
		const set = (t, v) => { const e = document.querySelector('[data-t="' + t + '"]'); e.value = v; e.dispatchEvent(new Event('change', { bubbles: true })); };
		set('name', 'ფოთის თასი'); set('from', '2026-12-06'); set('to', '2026-12-06');
		for (const b of document.querySelectorAll('[data-t="player"]')) b.click();
		set('tables', '1'); set('seats', '10'); set('games', '1'); set('final-size', '0');
		set('no-show', 'forfeit'); set('forfeit', '-0.75'); set('wait', '90');
		set('timing-speech', '45'); set('timing-night', '30.5');
		return true;
	})()`
	eval("fill the form", fill, &ok)
	eval("the forfeit field under the forfeit rule", forfeitShown, &ok)
	if !ok {
		t.Error("the forfeit penalty is not asked for under the forfeit rule")
	}
	var forfeitLabel string
	eval("the forfeit's label", `document.querySelector('[data-t="forfeit"]').closest('label').textContent`, &forfeitLabel)
	if want := ka.T("organiser.forfeit", nil); forfeitLabel != want {
		t.Errorf("the forfeit penalty is labelled %q, want %q", forfeitLabel, want)
	}
	wide("the making page, online, with the forfeit and the timings")
	press("make it", `[data-t="create"]`)
	wait("the tournament's page", `location.pathname.startsWith('/host/clubs/`+c.ID+`/organiser/') && !!document.querySelector('[data-t="seat-rounds"]')`)
	var id string
	eval("the tournament's id", `location.pathname.split('/').pop()`, &id)
	var tr struct {
		Online *struct {
			NoShow    string           `json:"no_show"`
			Wait      int              `json:"wait_s"`
			Forfeit   json.RawMessage  `json:"forfeit"`
			TimingsMS map[string]int64 `json:"timings_ms"`
		}
	}
	call(t, "GET", hs.URL+"/host/api/clubs/"+c.ID+"/tournaments/"+id, "", nil, &tr)
	if tr.Online == nil || tr.Online.NoShow != "forfeit" || tr.Online.Wait != 90 || string(tr.Online.Forfeit) != "-0.75" {
		t.Fatalf("the online rules kept: %+v", tr.Online)
	}
	if got := tr.Online.TimingsMS; len(got) != 2 || got["speech"] != 45000 || got["night"] != 30500 {
		t.Errorf("the timings kept: %v, want speech 45000 and night 30500 ms alone", got)
	}
}
