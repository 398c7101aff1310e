package screens

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/assist/internal/hosttest"
)

// TestAHostLoggedInPicksTheirClubFromYourClubs (issue 29, defect 1): a host
// logged in with their own account (the site's login cookie, no club code)
// sees on the setup card, at 360x740, the clubs they own or host as
// buttons, one per club and named for it, and a tap puts that club on the
// phone: the card says the club is joined, under its name, and the game's
// roster search answers from it.
func TestAHostLoggedInPicksTheirClubFromYourClubs(t *testing.T) {
	t.Parallel()
	ms := hosttest.StartMembersServer(t)
	nino := ms.Signup(t, "Nino")
	gio := ms.Signup(t, "Gio")
	// Nino owns the Tbilisi club; Gio owns Batumi's and makes Nino a host.
	var tbilisi, batumi hosttest.ClubCreated
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/clubs", nino, map[string]any{"name": "Tbilisi club"}, &tbilisi); code != http.StatusCreated {
		t.Fatalf("Nino makes a club: %d", code)
	}
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/clubs", gio, map[string]any{"name": "ბათუმის კლუბი"}, &batumi); code != http.StatusCreated {
		t.Fatalf("Gio makes a club: %d", code)
	}
	if code := hosttest.Call(t, "PUT", ms.URL+"/host/api/clubs/"+batumi.ID+"/members/Nino", gio, map[string]any{"role": "host"}, nil); code != http.StatusOK {
		t.Fatalf("Gio makes Nino a host: %d", code)
	}
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/clubs/"+batumi.ID+"/people", gio, map[string]any{"name": "ნინო"}, nil); code != http.StatusCreated {
		t.Fatalf("Gio adds to the roster: %d", code)
	}

	h := &hosttest.Host{Tab: hosttest.NewTab(t, "club-mine", 360, 740), Ts: ms.Server}
	h.Do(10*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		httpOnly := true
		_, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: account.CookieName, Value: nino,
			URL: ms.URL + "/", Path: "/", HTTPOnly: &httpOnly})
		return err
	}), chromedp.Navigate(ms.URL+"/host/"))
	h.WaitJS(30*time.Second, `window.__assistReady === true`)
	h.Tap("new-game")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.WaitJS(5*time.Second, `document.querySelectorAll('[data-t="club-mine"] button').length === 2`)
	got := hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('[data-t="club-mine"] button')].map((b) => b.dataset.t + '|' + b.textContent)`)
	want := map[string]bool{"club-mine-" + tbilisi.ID + "|Tbilisi club": true, "club-mine-" + batumi.ID + "|ბათუმის კლუბი": true}
	for _, g := range got {
		if !want[g] {
			t.Errorf("the clubs' buttons: %q; want one for each of %v", got, want)
			break
		}
	}
	if s := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="club-mine"]').innerText`); strings.Contains(s, "[object") {
		t.Errorf("\"Your clubs\" shows %q", s)
	}
	h.Shot("club-mine-01-buttons")

	h.Tap("club-mine-" + batumi.ID)
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="club-joined"]')`)
	if s := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="club"] h3').textContent`); !strings.Contains(s, "ბათუმის კლუბი") {
		t.Errorf("the club's card is titled %q; want the club picked", s)
	}
	if c := hosttest.Eval[string](h.Tab, `localStorage.getItem('assist.club')`); !strings.Contains(c, batumi.ID) || strings.Contains(c, "token") {
		t.Errorf("the phone keeps %s; want the club picked, by the login (no token)", c)
	}
	// The login is the key: the roster answers the first seat's search.
	h.Tap("size-10")
	h.SetValue(`[data-t="name-1"]`, "nino")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="pick-1"]')`)
	h.Shot("club-mine-02-picked")
}
