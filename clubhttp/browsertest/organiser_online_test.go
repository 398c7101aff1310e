package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/clubhttp"
	"mafia/internal/browsertest"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
)

// TestTheOrganiserMakesAnOnlineTournamentFromTheScreen: on a phone
// (360×740, in Georgian) that keeps the club, the organiser ticks "Play
// the rounds online", chooses the forfeit rule, a wait of 120 seconds and
// rated games, and makes the tournament (the API keeps those rules); seats
// its round, which then offers "Open this round online"; the opening is
// refused with the API's Georgian sentence naming the player whose entry has no account, shown on the
// page; that account linked, the round opens on the game server and its
// table shows it waits for its ten players (named), its link and "Start
// now"; started now, the server's bots take every seat and the page's
// refresh shows the table playing. No page scrolls sideways.
func TestTheOrganiserMakesAnOnlineTournamentFromTheScreen(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	srv := server.New(server.Config{Store: db, Accounts: svc, SeatsPerAddress: -1, Pace: room.PaceInstant})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	clubs := clubhttp.New(clubhttp.Config{Store: db, Accounts: svc})
	clubs.ServeOnline(srv)
	mux := http.NewServeMux()
	mux.Handle("/host/", clubs)
	mux.Handle("/", srv.Handler())
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = srv.HTTPServer(mux)
	hs.Listener = srv.Listener(hs.Listener)
	hs.Start()
	defer func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	}()
	var c struct{ ID, Token, Name string }
	if code := call(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "ზუგდიდის კლუბი"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	var ids []string
	for i := 1; i <= 10; i++ {
		name := fmt.Sprintf("L%02d", i)
		if _, _, err := svc.Signup(context.Background(), name, "password1", ""); err != nil {
			t.Fatal(err)
		}
		var p struct{ ID string }
		if code := call(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token,
			map[string]any{"name": fmt.Sprintf("ლევან %02d", i)}, &p); code != http.StatusCreated {
			t.Fatalf("add: %d", code)
		}
		if i > 1 { // the first player's entry has no account yet: the opening is refused, naming them
			if code := call(t, "PUT", hs.URL+"/host/api/clubs/"+c.ID+"/people/"+p.ID+"/account", c.Token, map[string]any{"name": name}, nil); code != http.StatusOK {
				t.Fatalf("link %s: %d", name, code)
			}
		}
		ids = append(ids, p.ID)
	}
	base := hs.URL + "/host/api/clubs/" + c.ID + "/tournaments"

	ctx := browsertest.Tab(t, browser.Context(t))
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
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
	var hidden bool
	eval("the online rules hidden", `document.querySelector('[data-t="online-rules"]').hidden`, &hidden)
	if !hidden {
		t.Errorf("the online rules are shown before the tournament is online")
	}
	fill := `(() => {
		const set = (t, v) => { const e = document.querySelector('[data-t="' + t + '"]'); e.value = v; e.dispatchEvent(new Event('change', { bubbles: true })); };
		set('name', 'ონლაინ თასი'); set('from', '2026-12-06'); set('to', '2026-12-06');
		for (const b of document.querySelectorAll('[data-t="player"]')) b.click();
		set('tables', '1'); set('seats', '10'); set('games', '1'); set('final-size', '0');
		document.querySelector('[data-t="online"]').click();
		set('no-show', 'forfeit'); set('wait', '120');
		document.querySelector('[data-t="rated"]').click();
		return !document.querySelector('[data-t="online-rules"]').hidden;
	})()`
	eval("fill the form", fill, &ok)
	if !ok {
		t.Errorf("the online rules are not shown once the tournament is online")
	}
	wide("the making page, online")
	press("make it", `[data-t="create"]`)
	wait("the tournament's page", `location.pathname.startsWith('/host/clubs/`+c.ID+`/organiser/') && !!document.querySelector('[data-t="seat-rounds"]')`)
	var id string
	eval("the tournament's id", `location.pathname.split('/').pop()`, &id)
	var tr struct {
		Online *struct {
			NoShow string `json:"no_show"`
			Wait   int    `json:"wait_s"`
			Rated  bool
		}
	}
	call(t, "GET", base+"/"+id, "", nil, &tr)
	if tr.Online == nil || tr.Online.NoShow != "forfeit" || tr.Online.Wait != 120 || !tr.Online.Rated {
		t.Fatalf("the online rules kept: %+v", tr.Online)
	}

	press("seat the rounds", `[data-t="seat-rounds"]`)
	wait("open the round online", `!!document.querySelector('[data-t="open-online"][data-round="1"]')`)
	wide("the round to open online")
	var want struct {
		Error struct{ Code, Message string }
	}
	call(t, "POST", base+"/"+id+"/rounds/1/online?lang=ka", c.Token, nil, &want)
	if want.Error.Code != "tournament_no_account" || !strings.Contains(want.Error.Message, "ლევან 01") {
		t.Fatalf("the API's refusal of a player with no account: %+v", want)
	}
	press("open the round online", `[data-t="open-online"][data-round="1"]`)
	wait("the refusal shown", `(() => { const e = document.querySelector('[data-t="error"]'); return !!e && !e.hidden && e.textContent === `+
		string(mustJSON(want.Error.Message))+`; })()`)

	// The first player's account linked, the round opens: its table waits
	// for its ten players, named, with its link and "Start now".
	if code := call(t, "PUT", hs.URL+"/host/api/clubs/"+c.ID+"/people/"+ids[0]+"/account", c.Token, map[string]any{"name": "L01"}, nil); code != http.StatusOK {
		t.Fatalf("link L01: %d", code)
	}
	press("open the round online", `[data-t="open-online"][data-round="1"]`)
	wait("the table waits", `(() => { const s = document.querySelector('[data-t="online"][data-round="1"][data-table="1"] [data-t="online-state"]');
		const w = document.querySelector('[data-t="online-waiting"]'); const a = document.querySelector('[data-t="online-link"]');
		return !!s && s.dataset.state === 'waiting' && !!w && w.textContent.includes('ლევან 01') && w.textContent.includes('ლევან 10') &&
			!!a && a.getAttribute('href').startsWith('/t/') && !!document.querySelector('[data-t="start"]') &&
			!document.querySelector('[data-round="1"] [data-t="open-online"]'); })()`)
	wide("the table waiting")

	// Started now: the server's bots take the free seats and the table
	// plays; the page's refresh shows it playing, with no "Start now".
	press("start now", `[data-t="start"]`)
	wait("the table plays", `(() => { const b = document.querySelector('[data-t="online"][data-round="1"][data-table="1"]');
		const s = b && b.querySelector('[data-t="online-state"]');
		return !!s && s.dataset.state === 'playing' && !b.querySelector('[data-t="start"]') && !b.textContent.includes('null'); })()`)
	var got struct {
		Rounds []struct {
			Tables []struct{ Online string }
		}
	}
	call(t, "GET", base+"/"+id, "", nil, &got)
	if len(got.Rounds) != 1 || got.Rounds[0].Tables[0].Online == "" {
		t.Errorf("the round opened online: %+v", got.Rounds)
	}
}
