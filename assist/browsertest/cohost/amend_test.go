package cohost

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
)

// shotAt works out, as the host's page does (record.NightShot, the
// mafia's entries for seat, record.Amend), the game's entries with night
// 1's shot at seat.
func shotAt(t *testing.T, s *record.Settings, cmds []record.Command, seat int) *record.Amended {
	t.Helper()
	at, found, err := record.NightShot(s, cmds, 1)
	if err != nil || at < 0 {
		t.Fatalf("night 1's shot: %d %v", at, err)
	}
	g, _, err := record.Replay(s, cmds[:at])
	if err != nil {
		t.Fatal(err)
	}
	var with []record.Command
	for _, c := range record.MafiaCommands(g, engine.Seat(seat)) {
		with = append(with, record.FromEngine(c))
	}
	a, err := record.Amend(s, cmds, record.Amendment{At: at, Insert: !found, With: with})
	if err != nil {
		t.Fatalf("shot at %d: %v", seat, err)
	}
	return a
}

// sameGame reports whether two lists are the same entries, the ids aside
// (the host's phone gives the correction's entries ids of its own).
func sameGame(a, b []record.Command) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		x.ID, y.ID = "", ""
		if x != y {
			return false
		}
	}
	return true
}

// TestCohost_TheHostAppliesTheRefereesShotByReplayingTheGame: the host runs
// a game by hand-dealt cards to day 1's vote; the referee's phone proposes that
// night 1's shot was at another seat. On the host's phone a correction
// whose later entries no longer fit shows them, and why, and Cancel
// leaves the game as it was (the same entries, on the phone and on the
// server). Another correction is applied while the host's phone is
// offline (the server gets it when the connection is back); then both
// phones show the corrected game (the new victim out, the step the kept
// entries reach), the server holds the host's entries, and the correction
// is applied by the referee's name on both phones. A third puts the shot
// back: its Apply and a reload of the host's page at once keep a whole
// game (the one before, applied again after, or the corrected one, never
// half).
func TestCohost_TheHostAppliesTheRefereesShotByReplayingTheGame(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	host := hosttest.OpenHost(t, ts, "host")
	names := []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}
	id := host.Create(hosttest.GameSpec{Names: names, Deal: record.DealManual, Roles: hosttest.Roles7})
	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "vote" && st.Round == 1 }
	host.Play(d)
	host.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)

	var rec struct{ Settings record.Settings }
	if err := json.Unmarshal([]byte(host.StoredRecord(id)), &rec); err != nil {
		t.Fatal(err)
	}
	old := host.LocalEntries(id)
	_, oldLog, err := record.Replay(&rec.Settings, old)
	if err != nil {
		t.Fatal(err)
	}
	// The seats the correction may name: one whose shot drops later
	// entries (to cancel), and another (to apply).
	_, first, _ := record.NightShot(&rec.Settings, old, 1)
	if !first {
		t.Fatal("night 1 has no shot recorded")
	}
	var drop, keep int
	var dropA, keepA *record.Amended
	for s := 1; s <= len(names); s++ {
		if hosttest.Roles7[s-1] == "don" || hosttest.Roles7[s-1] == "mafia" {
			continue
		}
		a := shotAt(t, &rec.Settings, old, s)
		g, _, err := record.Replay(&rec.Settings, a.Commands)
		if err != nil || sameGame(a.Commands, old) {
			continue
		}
		switch {
		case drop == 0 && len(a.Dropped) > 0:
			drop, dropA = s, a
		case keep == 0 && !g.Alive().Has(engine.Seat(s)):
			keep, keepA = s, a
		}
	}
	if drop == 0 || keep == 0 {
		t.Fatalf("no seat to test with: drop %d, keep %d (log of %d events)", drop, keep, len(oldLog))
	}

	// The referee follows.
	host.Tap("menu")
	host.Tap("menu-cohost")
	host.SetValue(`[data-t="cohost-name"]`, "Referee Keti")
	host.Tap("cohost-make")
	host.WaitJS(10*time.Second, `!!document.querySelector('[data-t="cohost-link"]')`)
	link := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="cohost-link"]').value`)
	host.Tap("back")
	ref := hosttest.OpenHost(t, ts, "referee")
	ref.Do(30*time.Second, hosttest.Navigate(link))
	ref.WaitJS(30*time.Second, `!!document.querySelector('[data-t="follow"]')`)
	propose := func(seq, seat int) {
		t.Helper()
		ref.SetValue(`[data-t="fix-kind"]`, "shot")
		ref.SetValue(`[data-t="fix-round"]`, "1")
		ref.SetValue(`[data-t="fix-seat"]`, strconv.Itoa(seat))
		ref.Tap("fix-send")
		host.WaitJS(hosttest.SyncWait, fmt.Sprintf(`(window.__assistGame.fixes || []).length === %d`, seq+1))
		host.Tap("menu")
		host.Tap("menu-cohost")
		host.WaitJS(5*time.Second, fmt.Sprintf(`!!document.querySelector('[data-t="fix-amend-%d"]')`, seq))
	}

	// A correction whose later entries no longer fit: shown, then cancelled.
	propose(0, drop)
	if line := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="fixes"] li[data-seq="0"]').textContent.replaceAll('\u00a0', ' ')`); !strings.Contains(line, "Referee Keti: on night 1 the mafia shot "+strconv.Itoa(drop)) {
		t.Errorf("the host's list says %q", line)
	}
	host.Tap("fix-amend-0")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="amend-screen"]')`)
	shown := hosttest.Eval[[]string](host.Tab, `[...document.querySelectorAll('[data-t="amend-dropped"] li')].map((li) => li.textContent)`)
	if len(shown) != len(dropA.Dropped) || !strings.HasPrefix(shown[0], "Entry "+strconv.Itoa(dropA.Dropped[0].Seq+1)+":") {
		t.Fatalf("the host sees %q dropped, the replay drops %d from entry %d", shown, len(dropA.Dropped), dropA.Dropped[0].Seq+1)
	}
	if kept := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="amend-kept"]').dataset.n`); kept != strconv.Itoa(dropA.Kept) {
		t.Errorf("the host sees %s kept, the replay keeps %d", kept, dropA.Kept)
	}
	if reason := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="amend-reason"]').textContent`); !strings.HasPrefix(reason, "The first no longer fits because: ") || len(reason) < 40 {
		t.Errorf("the reason reads %q", reason)
	}
	host.Shot("amend-dropped")
	host.Tap("amend-cancel")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="fix-amend-0"]')`)
	if got := host.LocalEntries(id); !slices.Equal(got, old) {
		t.Fatalf("cancel changed the phone's entries: %d, %d before", len(got), len(old))
	}
	host.Tap("fix-decline-0")
	host.WaitJS(10*time.Second, `!!document.querySelector('[data-t="fixes"] li[data-seq="0"][data-state="declined"]')`)
	host.Tap("back")
	if got := ts.StoredEntries(t, id); !slices.Equal(got, old) {
		t.Fatalf("cancel changed the server's entries: %d, %d before", len(got), len(old))
	}

	// Another correction, applied while the host's phone is offline: the
	// engine on the phone replays the game; the server gets it once the
	// connection is back.
	propose(1, keep)
	host.Offline(true)
	host.Tap("fix-amend-1")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="amend-screen"]')`)
	host.Tap("amend-confirm")
	host.WaitJS(10*time.Second, `!document.querySelector('[data-t="amend-screen"]') && document.getElementById('sync').dataset.waiting !== '0'`)
	after := host.LocalEntries(id)
	if !sameGame(after, keepA.Commands) {
		t.Fatalf("applied offline: %d entries, want %d", len(after), len(keepA.Commands))
	}
	if got := ts.StoredEntries(t, id); !slices.Equal(got, old) {
		t.Fatal("the server changed while the host's phone was offline")
	}
	host.Offline(false)
	shows := func(entries []record.Command, seq int) {
		t.Helper()
		host.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
		if got := ts.StoredEntries(t, id); !slices.Equal(got, entries) {
			t.Fatalf("the server holds %d entries, the host's phone %d", len(got), len(entries))
		}
		g, _, _ := record.Replay(&rec.Settings, entries)
		want := record.Snapshot(g)
		if st := host.State(); st.Phase != want.Phase || st.Round != want.Round || !slices.Equal(st.Alive, want.Alive) || hosttest.Eval[bool](host.Tab, `!!window.__assistGame.error`) {
			t.Fatalf("the host's phone stands at %s %d alive %v; the corrected game at %s %d alive %v", st.Phase, st.Round, st.Alive, want.Phase, want.Round, want.Alive)
		}
		alive := make([]string, len(want.Alive))
		for i, s := range want.Alive {
			alive[i] = strconv.Itoa(s)
		}
		ref.WaitJS(hosttest.SyncWait, `[...document.querySelectorAll('li[data-seat][data-out="false"]')].map((li) => li.dataset.seat).join() === '`+strings.Join(alive, ",")+`' &&
			document.querySelector('[data-t="follow-step"]').dataset.phase === '`+want.Phase+`' &&
			document.querySelector('[data-t="follow-step"]').dataset.round === '`+strconv.Itoa(want.Round)+`' &&
			!!document.querySelector('[data-t="fixes"] li[data-seq="`+strconv.Itoa(seq)+`"][data-state="applied"]')`)
	}
	shows(after, 1)
	if slices.Contains(host.State().Alive, keep) {
		t.Fatalf("seat %d is still in after the correction", keep)
	}
	ref.Shot("amend-referee-sees-correction")

	// The referee takes it back (the shot was at the first seat after
	// all); the host's page is reloaded as Apply is tapped: a whole game
	// stays, the old one (applied again) or the corrected one.
	at, _, _ := record.NightShot(&rec.Settings, old, 1)
	back := shotAt(t, &rec.Settings, after, old[at].Target)
	propose(2, old[at].Target)
	host.Tap("fix-amend-2")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="amend-screen"]')`)
	hosttest.Eval[bool](host.Tab, `(() => { document.querySelector('[data-t="amend-confirm"]').click(); return true; })()`)
	host.Reload(true) // at once: the write may or may not have completed
	host.WaitJS(30*time.Second, `location.hash === '#/game/`+id+`'`)
	final := host.LocalEntries(id)
	switch {
	case sameGame(final, back.Commands):
		t.Log("the reload came after the write")
	case slices.Equal(final, after): // the write had not completed: the game as it was, whole; apply again
		t.Log("the reload came before the write")
		host.Tap("menu")
		host.Tap("menu-cohost")
		host.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="fix-amend-2"]')`)
		host.Tap("fix-amend-2")
		host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="amend-screen"]')`)
		host.Tap("amend-confirm")
		host.WaitJS(10*time.Second, `!document.querySelector('[data-t="amend-screen"]')`)
		if final = host.LocalEntries(id); !sameGame(final, back.Commands) {
			t.Fatalf("applied after the reload: %d entries, want %d", len(final), len(back.Commands))
		}
	default:
		t.Fatalf("after a reload mid-way the phone holds %d entries: neither the game before (%d) nor the corrected one (%d)", len(final), len(after), len(back.Commands))
	}
	shows(final, 2)
	host.Tap("menu")
	host.Tap("menu-cohost")
	host.WaitJS(hosttest.SyncWait, `document.querySelectorAll('[data-t="fixes"] li[data-state="applied"]').length === 2 && !document.querySelector('[data-t^="fix-amend-"]')`)
	host.Shot("amend-applied")
	host.NoSideScroll("the corrections at 360 px")
}
