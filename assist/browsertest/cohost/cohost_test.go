package cohost

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestCohost_TheRefereeFollowsAndAddsAFoulAStrangerIsRefused: the host
// runs a game to the first day's speeches and invites a referee from the
// game's menu (a link with a one-time code in its fragment, and its QR
// code). The referee's phone (a browser context of its own) opens the
// link and shows the host's step and cards; a foul the host gives shows on
// the referee's phone, and so does one given while the referee's network
// was down, once it is back; and a foul the referee adds is entered on the
// host's phone (its state and its fouls panel) and listed as applied, by
// the referee's name, on both; a vote count the referee proposes is listed
// on the host's phone, which declines it, and both list it declined. A stranger who opens the same link (spent)
// or one with a made-up code is refused with the coded sentence.
func TestCohost_TheRefereeFollowsAndAddsAFoulAStrangerIsRefused(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	host := hosttest.OpenHost(t, ts, "host")
	names := []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}
	id := host.Create(hosttest.GameSpec{Names: names, Deal: record.DealPass})
	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "speech" && st.Round == 1 }
	host.Play(d)

	// The invitation, from the game's menu.
	host.Tap("menu")
	host.Tap("menu-cohost")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="cohost-make"]')`)
	host.SetValue(`[data-t="cohost-name"]`, "Referee Keti")
	host.Tap("cohost-make")
	host.WaitJS(10*time.Second, `!!document.querySelector('[data-t="cohost-link"]') && !!document.querySelector('[data-t="cohost-qr"]')`)
	link := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="cohost-link"]').value`)
	u, err := url.Parse(link)
	if err != nil || !strings.HasPrefix(u.Fragment, "/follow/"+id+"/") || u.RawQuery != "lang=en" && !strings.HasPrefix(u.RawQuery, "lang=") {
		t.Fatalf("the referee's link %s does not carry the code in its fragment", link)
	}
	host.Shot("cohost-invite")
	host.Tap("back")

	// The referee's phone follows: the host's step, the cards.
	ref := hosttest.OpenHost(t, ts, "referee")
	ref.Do(30*time.Second, hosttest.Navigate(link))
	ref.WaitJS(30*time.Second, `!!document.querySelector('[data-t="follow"]')`)
	st := host.State()
	if got := hosttest.Eval[string](ref.Tab, `document.querySelector('[data-t="follow-step"]').dataset.phase + ' ' + document.querySelector('[data-t="follow-step"]').dataset.round`); got != st.Phase+" "+strconv.Itoa(st.Round) {
		t.Fatalf("the referee shows %s, the host is at %s %d", got, st.Phase, st.Round)
	}
	if strings.Contains(hosttest.Eval[string](ref.Tab, `location.href`), link[strings.LastIndex(link, "/")+1:]) {
		t.Error("the spent code stays in the referee's address bar")
	}
	text := ref.Text()
	for s := 1; s <= len(names); s++ {
		if !strings.Contains(text, names[s-1]) {
			t.Errorf("the referee's screen lacks seat %d (%s)", s, names[s-1])
		}
	}

	// A foul the host gives shows on the referee's phone.
	first, second := st.Alive[0], st.Alive[1]
	host.GiveFoul(first)
	ref.WaitJS(hosttest.SyncWait, `document.querySelector('li[data-seat="`+strconv.Itoa(first)+`"]').dataset.fouls === '1'`)
	ref.Shot("cohost-referee-sees-foul")

	// The referee's network drops: the page says so and keeps the game it
	// saw; the host goes on; back online, the referee catches up.
	ref.Offline(true)
	ref.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="follow-offline"]') && !!document.querySelector('[data-t="follow"]')`)
	host.GiveFoul(first)
	host.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	ref.Offline(false)
	ref.WaitJS(hosttest.SyncWait, `!document.querySelector('[data-t="follow-offline"]') && document.querySelector('li[data-seat="`+strconv.Itoa(first)+`"]').dataset.fouls === '2'`)

	// A foul the referee adds is entered on the host's phone.
	ref.Tap("foul-add-" + strconv.Itoa(second))
	host.WaitJS(hosttest.SyncWait, `window.__assistGame.state.fouls[`+strconv.Itoa(second)+`] === 1`)
	ref.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="fixes"] li[data-state="applied"]')`)
	if line := hosttest.Eval[string](ref.Tab, `document.querySelector('[data-t="fixes"] li').textContent`); !strings.Contains(line, "Referee Keti") || !strings.Contains(line, names[second-1]) {
		t.Errorf("the referee's list says %q", line)
	}
	ref.WaitJS(hosttest.SyncWait, `document.querySelector('li[data-seat="`+strconv.Itoa(second)+`"]').dataset.fouls === '1'`)
	ref.Shot("cohost-referee-foul-applied")
	host.Tap("fouls")
	host.WaitJS(5*time.Second, `(document.querySelector('.seats [data-seat="`+strconv.Itoa(second)+`"] .mark') || {}).textContent === '1 foul'`)
	host.Shot("cohost-host-shows-referee-foul")
	host.Tap("back")
	host.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	entries := ts.StoredEntries(t, id)
	if last := entries[len(entries)-1]; last.Verb != "foul" || last.Target != second {
		t.Fatalf("the server's last entry is %+v, want the referee's foul to %d", last, second)
	}

	// A vote count the referee proposes waits for the host, who declines
	// it; both phones list it so.
	ref.SetValue(`[data-t="fix-seat"]`, strconv.Itoa(first))
	ref.SetValue(`[data-t="fix-count"]`, "3")
	ref.Tap("fix-send")
	host.WaitJS(hosttest.SyncWait, `(window.__assistGame.fixes || []).length === 2`)
	host.Tap("menu")
	host.Tap("menu-cohost")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="fixes"] li[data-state="applied"]') && !!document.querySelector('[data-t="fix-decline-1"]')`)
	if line := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="fixes"] li[data-seq="1"]').textContent.replaceAll('\u00a0', ' ')`); !strings.Contains(line, "Referee Keti: votes for "+strconv.Itoa(first)+" · "+names[first-1]+": 3") {
		t.Errorf("the host's list says %q", line)
	}
	host.Shot("cohost-host-corrections")
	host.Tap("fix-decline-1")
	host.WaitJS(10*time.Second, `!!document.querySelector('[data-t="fixes"] li[data-seq="1"][data-state="declined"]')`)
	ref.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="fixes"] li[data-seq="1"][data-state="declined"]')`)
	host.Tap("back")
	if n := len(ts.StoredEntries(t, id)); n != len(entries) {
		t.Fatalf("declining a correction entered something: %d entries, %d before", n, len(entries))
	}

	// A stranger: the spent link, and a made-up code.
	stranger := hosttest.OpenHost(t, ts, "stranger")
	stranger.Do(30*time.Second, hosttest.Navigate(link))
	stranger.WaitJS(30*time.Second, `!!document.querySelector('[data-t="follow-failed"]')`)
	if got := stranger.Text(); !strings.Contains(got, "This invitation was used already") {
		t.Errorf("the spent link on another phone says %q", got)
	}
	stranger.Shot("cohost-stranger-refused")
	stranger.Do(30*time.Second, hosttest.Navigate(ts.URL+"/host/?lang=en#/follow/"+id+"/0123456789abcdef0123456789abcdef"))
	stranger.WaitJS(30*time.Second, `!!document.querySelector('[data-t="follow-failed"]') && document.body.textContent.includes('Only the host and the people the host invited')`)
	if n := len(ts.StoredEntries(t, id)); n != len(entries) {
		t.Fatalf("the stranger changed the game: %d entries, %d before", n, len(entries))
	}
}
