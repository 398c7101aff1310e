package cohost

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestCohost_TheHostRevokesARefereeAndGivesANewLink: the host's
// invitation screen lists the referee who follows (since when); the host
// revokes them and the referee's phone says at once that it may not
// follow; the host gives them a new link, which the same phone opens (its
// old key replaced) and follows the game again, listed so on the host's.
func TestCohost_TheHostRevokesARefereeAndGivesANewLink(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	host := hosttest.OpenHost(t, ts, "host")
	names := []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}
	host.Create(hosttest.GameSpec{Names: names, Deal: record.DealPass})
	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "speech" && st.Round == 1 }
	host.Play(d)
	link := invite(host, "Referee Keti")
	ref := hosttest.OpenHost(t, ts, "referee")
	ref.Do(30*time.Second, hosttest.Navigate(link))
	ref.WaitJS(30*time.Second, `!!document.querySelector('[data-t="follow"]')`)

	// The host's list: the referee follows, since when.
	host.Tap("menu")
	host.Tap("menu-cohost")
	host.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="cohosts"] li[data-id="1"][data-state="joined"]')`)
	if line := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="cohosts"] li').textContent`); !strings.Contains(line, "Referee Keti — following since ") {
		t.Errorf("the host's list says %q", line)
	}
	host.Shot("cohost-host-lists-referee")

	// Revoked: the referee's phone says so at its next read.
	host.Tap("cohost-revoke-1")
	host.WaitJS(10*time.Second, `!!document.querySelector('[data-t="cohosts"] li[data-id="1"][data-state="revoked"]')`)
	ref.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="follow-failed"]')`)
	if got := ref.Text(); !strings.Contains(got, "Only the host and the people the host invited") {
		t.Errorf("the revoked referee's phone says %q", got)
	}
	ref.Shot("cohost-referee-revoked")

	// A new link: the same phone opens it and follows again.
	host.Tap("cohost-code-1")
	host.WaitJS(10*time.Second, `!!document.querySelector('[data-t="cohost-link"]')`)
	again := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="cohost-link"]').value`)
	if again == link {
		t.Fatal("the new link is the old one")
	}
	ref.Do(30*time.Second, hosttest.Navigate(again))
	ref.WaitJS(30*time.Second, `!!document.querySelector('[data-t="follow"]')`)
	host.Tap("back")
	host.Tap("menu")
	host.Tap("menu-cohost")
	host.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="cohosts"] li[data-id="1"][data-state="joined"]')`)
	host.Tap("back")
}

// TestCohost_ARefereeInvitedByAccountFollowsFromTheirLogin: the host
// invites the tournament's referee by their site account (no name typed:
// the account's is taken) and the host's list says they join from the
// account; the referee, logged in on their own phone (in Georgian), finds
// the game on the assistant's first screen under the games they are
// invited to referee and follows it with one tap, no code; the host's list
// then says they follow.
func TestCohost_ARefereeInvitedByAccountFollowsFromTheirLogin(t *testing.T) {
	t.Parallel()
	ms := hosttest.StartMembersServer(t)
	keti := ms.Signup(t, "Keti")
	host := hosttest.OpenHost(t, ms.Server, "host")
	names := []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}
	id := host.Create(hosttest.GameSpec{Names: names, Deal: record.DealPass})
	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "speech" && st.Round == 1 }
	host.Play(d)

	host.Tap("menu")
	host.Tap("menu-cohost")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="cohost-make"]')`)
	host.SetValue(`[data-t="cohost-account"]`, "keti")
	host.Tap("cohost-make")
	host.WaitJS(10*time.Second, `!!document.querySelector('[data-t="cohost-link"]') && !!document.querySelector('[data-t="cohosts"] li[data-state="invited"]')`)
	if line := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="cohosts"] li').textContent`); !strings.Contains(line, "Keti — invited at ") || !strings.Contains(line, "joins from the account Keti") {
		t.Errorf("the host's list says %q", line)
	}
	host.Tap("back")

	ref := &hosttest.Host{Tab: hosttest.NewTab(t, "referee", 360, 740), Ts: ms.Server}
	ref.Do(10*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		httpOnly := true
		_, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: account.CookieName, Value: keti,
			URL: ms.URL + "/", Path: "/", HTTPOnly: &httpOnly})
		return err
	}), chromedp.Navigate(ms.URL+"/host/?lang=ka"))
	ref.WaitJS(30*time.Second, `window.__assistReady === true`)
	ref.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="follow-`+id+`"]')`)
	if got := hosttest.Eval[string](ref.Tab, `document.querySelector('[data-t="invitations"]').textContent`); !strings.Contains(got, "თამაშები, სადაც მსაჯად გიწვევენ") || !strings.Contains(got, "როგორც Keti") {
		t.Errorf("the referee's first screen says %q", got)
	}
	ref.Shot("cohost-referee-invited-by-account")
	ref.Tap("follow-" + id)
	ref.WaitJS(30*time.Second, `!!document.querySelector('[data-t="follow"]')`)
	if text := ref.Text(); !strings.Contains(text, names[0]) {
		t.Errorf("the referee's screen lacks the seats: %q", text)
	}

	host.Tap("menu")
	host.Tap("menu-cohost")
	host.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="cohosts"] li[data-state="joined"]')`)
	host.Tap("back")
}
