package cohost

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
)

// TestCohost_TheHostAppliesTheRefereesVoteAndFoulByReplaying: the host runs
// a hand-dealt game through day 1's vote (candidates 3 and 4; 2 and 5
// raise their hands for 3, the rest go to 4, who leaves) to night 2. The
// referee proposes day 1's vote for 3 with the voters 2, 5, 6, 7. On the
// host's phone Apply shows the referee's hands for 3 marked (2, 5, 6, 7);
// the host taps 6 off and on again, sees what the replay keeps (the count the engine's
// replay in Go keeps), and applies it: the host's phone, the server and
// the referee's phone hold the corrected game (3 out, 4 in), and the
// correction is applied. Then the referee takes back seat 6's foul of day
// 1: Apply replays the game without it, and both phones and the server
// hold the game with no foul for 6.
func TestCohost_TheHostAppliesTheRefereesVoteAndFoulByReplaying(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	host := hosttest.OpenHost(t, ts, "host")
	names := []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}
	id := host.Create(hosttest.GameSpec{Names: names, Deal: record.DealManual, Roles: hosttest.Roles7})
	d := hosttest.TownDriver()
	d.Nominate = func(st record.State) int {
		for _, s := range []int{3, 4} {
			if st.Round == 1 && !slices.Contains(st.Candidates, s) && slices.Contains(st.Nominate, s) {
				return s
			}
		}
		return 0
	}
	d.Hands = func(st record.State, cand int) []int {
		if cand == 3 {
			return []int{2, 5}
		}
		return nil
	}
	fouled := false
	d.Fouls = func(st record.State, screen string) []int {
		if screen != "speech" || fouled {
			return nil
		}
		fouled = true
		return []int{6}
	}
	d.Stop = func(st record.State) bool { return st.Phase == "night" && st.Round == 2 }
	host.Play(d)
	host.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)

	var rec struct{ Settings record.Settings }
	if err := json.Unmarshal([]byte(host.StoredRecord(id)), &rec); err != nil {
		t.Fatal(err)
	}
	old := host.LocalEntries(id)
	v, err := record.FindVote(&rec.Settings, old, 1, engine.PhaseVote)
	if err != nil || v == nil || !slices.Equal(v.Hands()[3], []int{2, 5}) {
		t.Fatalf("day 1's vote: %+v, %v (the game did not go as driven)", v, err)
	}
	fix, err := record.VoteFix(v, 1, 3, []int{2, 5, 6, 7})
	if err != nil {
		t.Fatal(err)
	}
	want, err := record.Amend(&rec.Settings, old, fix) // the whole vote rebuilt, as the page does
	if err != nil {
		t.Fatal(err)
	}
	g, _, _ := record.Replay(&rec.Settings, want.Commands)
	if !slices.Contains(host.State().Alive, 3) || slices.Contains(host.State().Alive, 4) || g.Alive().Has(3) {
		t.Fatalf("before: alive %v; the corrected game has 3 alive: %v", host.State().Alive, g.Alive().Has(3))
	}

	host.Tap("menu")
	host.Tap("menu-cohost")
	host.SetValue(`[data-t="cohost-name"]`, "Referee Keti")
	host.Tap("cohost-make")
	host.WaitJS(10*time.Second, `!!document.querySelector('[data-t="cohost-link"]')`)
	link := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="cohost-link"]').value`)
	ref := hosttest.OpenHost(t, ts, "referee")
	ref.Do(30*time.Second, hosttest.Navigate(link))
	ref.WaitJS(30*time.Second, `!!document.querySelector('[data-t="follow"]')`)
	ref.SetValue(`[data-t="fix-kind"]`, "vote")
	// The round's box names a vote's day (it said "Night" for every kind).
	if got := hosttest.Eval[string](ref.Tab, `document.querySelector('[data-t="fix-round-name"]').textContent`); got != "Day" {
		t.Errorf("the vote's round box is named %q, want Day", got)
	}
	ref.SetValue(`[data-t="fix-round"]`, "1")
	ref.SetValue(`[data-t="fix-seat"]`, "3")
	ref.SetValue(`[data-t="fix-voters"]`, "2 5 6 7")
	ref.Tap("fix-send")
	host.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="fix-amend-0"]')`)
	if line := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="fixes"] li[data-seq="0"]').textContent.replaceAll('\u00a0', ' ')`); !strings.Contains(line, "Referee Keti: day 1, votes for ") || !strings.Contains(line, ": 4 (2, 5, 6, 7)") {
		t.Errorf("the host's list says %q", line)
	}
	host.Tap("fix-amend-0")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="vote-fix-screen"]')`)
	marked := func() string {
		return hosttest.Eval[string](host.Tab, `[...document.querySelectorAll('.seats .seat.sel')].map((b) => b.dataset.seat).join()`)
	}
	if got := marked(); got != "2,5,6,7" {
		t.Fatalf("the hands marked at first: %q, want the referee's (2,5,6,7)", got)
	}
	host.PickSeat(6)
	host.PickSeat(6)
	if got := marked(); got != "2,5,6,7" {
		t.Fatalf("the hands marked after 6 tapped off and on: %q", got)
	}
	host.NoSideScroll("the vote's hands at 360 px")
	host.Tap("vote-fix-work-out")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="amend-screen"]')`)
	if kept := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="amend-kept"]').dataset.n`); kept != itoa(want.Kept) {
		t.Errorf("the host sees %s kept, the replay keeps %d", kept, want.Kept)
	}
	host.Tap("amend-confirm")
	host.WaitJS(10*time.Second, `!document.querySelector('[data-t="amend-screen"]')`)
	host.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	after := host.LocalEntries(id)
	if !sameGame(after, want.Commands) {
		t.Fatalf("applied: %d entries, want %d", len(after), len(want.Commands))
	}
	if got := ts.StoredEntries(t, id); !slices.Equal(got, after) {
		t.Fatalf("the server holds %d entries, the host's phone %d", len(got), len(after))
	}
	if st := host.State(); !slices.Contains(st.Alive, 4) || slices.Contains(st.Alive, 3) {
		t.Fatalf("the host's phone: alive %v, want 4 in and 3 out", st.Alive)
	}
	ref.WaitJS(hosttest.SyncWait, `document.querySelector('li[data-seat="3"]').dataset.out === 'true' && document.querySelector('li[data-seat="4"]').dataset.out === 'false' &&
		!!document.querySelector('[data-t="fixes"] li[data-seq="0"][data-state="applied"]')`)
	ref.Shot("amend-vote-referee")

	// The referee takes back seat 6's foul: Apply shows the replay without
	// it, and the game has no foul for 6 on both phones and the server.
	unfouled, err := record.Amend(&rec.Settings, after, record.Amendment{At: record.LastFoul(after, 6)})
	if err != nil || len(unfouled.Replaced) != 1 {
		t.Fatalf("6's foul taken back in Go: %v %+v", err, unfouled)
	}
	ref.Tap("foul-remove-6")
	host.Tap("menu")
	host.Tap("menu-cohost")
	host.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="fix-amend-1"]')`)
	host.Tap("fix-amend-1")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="amend-screen"]')`)
	if kept := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="amend-kept"]').dataset.n`); kept != itoa(unfouled.Kept) {
		t.Errorf("the host sees %s kept, the replay keeps %d", kept, unfouled.Kept)
	}
	host.Tap("amend-confirm")
	host.WaitJS(10*time.Second, `!document.querySelector('[data-t="amend-screen"]')`)
	host.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	final := host.LocalEntries(id)
	if !sameGame(final, unfouled.Commands) || host.State().Fouls[6] != 0 {
		t.Fatalf("taken back: %d entries, want %d; 6 has %d fouls", len(final), len(unfouled.Commands), host.State().Fouls[6])
	}
	if got := ts.StoredEntries(t, id); !slices.Equal(got, final) {
		t.Fatalf("the server holds %d entries, the host's phone %d", len(got), len(final))
	}
	ref.WaitJS(hosttest.SyncWait, `!document.querySelector('[data-t="foul-remove-6"]') && !!document.querySelector('[data-t="fixes"] li[data-seq="1"][data-state="applied"]')`)
}

// itoa spells n.
func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
