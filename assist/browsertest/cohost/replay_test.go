package cohost

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
)

// TestCohost_AGeorgianRefereeCorrectsARepeatVoteAndADoctorsSave: the host
// runs a hand-dealt game: on night 1 the Don shoots 1 and the Doctor saves
// 3; day 1's vote between 3 and 4 ties 3-3, and in the repeat vote 2 and 5
// raise their hands for 3, the rest go to 4, who leaves; the host stops at
// night 2. The referee's phone follows in Georgian. The referee picks the
// repeat vote of day 1 for 3: the hands entered (2, 5) are marked; taps 6
// and 7 and sends it. On the host's phone Apply shows the referee's hands
// marked; the replay keeps what the Go replay keeps; Apply is tapped and
// the page reloaded at once (the phone holds one whole game, applied again
// if it was the old); both phones and the server show 3 out and 4 in.
// Then the referee sends the Doctor's save of seat 1 on night 1, which the
// host applies offline (the server keeps the old game until the connection
// is back); both phones and the server show seat 1 alive. A note in words
// says on both phones that the host corrects it by hand (Done, no Apply).
// The printed protocol (ka) lists both rewrites with the referee's name.
func TestCohost_AGeorgianRefereeCorrectsARepeatVoteAndADoctorsSave(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	host := hosttest.OpenHost(t, ts, "host")
	names := []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}
	id := host.Create(hosttest.GameSpec{Names: names, Deal: record.DealManual, Roles: hosttest.Roles7})
	d := hosttest.TownDriver()
	d.Night = func(st record.State, w record.Wake) int {
		return map[string]int{"mafia": 1, "detective": 2, "doctor": 3}[w.Role]
	}
	d.Nominate = func(st record.State) int {
		for _, s := range []int{3, 4} {
			if st.Round == 1 && !slices.Contains(st.Candidates, s) && slices.Contains(st.Nominate, s) {
				return s
			}
		}
		return 0
	}
	d.Hands = func(st record.State, cand int) []int {
		if st.Phase == "revote" {
			return []int{2, 5}
		}
		return []int{2, 5, 6}
	}
	d.Stop = func(st record.State) bool { return st.Phase == "night" && st.Round == 2 }
	host.Play(d)
	host.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)

	var rec struct{ Settings record.Settings }
	if err := json.Unmarshal([]byte(host.StoredRecord(id)), &rec); err != nil {
		t.Fatal(err)
	}
	s := &rec.Settings
	old := host.LocalEntries(id)
	v, err := record.FindVote(s, old, 1, engine.PhaseRevote)
	if err != nil || v == nil || !slices.Equal(v.Hands()[3], []int{2, 5}) {
		t.Fatalf("day 1's repeat vote: %+v %v (the game did not go as driven)", v, err)
	}
	fix, err := record.VoteFix(v, 1, 3, []int{2, 5, 6, 7})
	if err != nil {
		t.Fatal(err)
	}
	want, err := record.Amend(s, old, fix)
	if err != nil {
		t.Fatal(err)
	}
	if st := host.State(); !slices.Contains(st.Alive, 3) || slices.Contains(st.Alive, 4) {
		t.Fatalf("before: alive %v, want 3 in and 4 out", st.Alive)
	}

	host.Tap("menu")
	host.Tap("menu-cohost")
	host.SetValue(`[data-t="cohost-name"]`, "Referee Keti")
	host.Tap("cohost-make")
	host.WaitJS(10*time.Second, `!!document.querySelector('[data-t="cohost-link"]')`)
	link := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="cohost-link"]').value`)
	link = strings.Replace(link, "lang=en", "lang=ka", 1)
	ref := hosttest.OpenHost(t, ts, "referee")
	ref.Do(30*time.Second, hosttest.Navigate(link))
	ref.WaitJS(30*time.Second, `!!document.querySelector('[data-t="follow"]')`)
	ref.SetValue(`[data-t="lang"]`, "ka") // the referee's phone speaks Georgian
	ref.WaitJS(30*time.Second, `!!document.querySelector('[data-t="follow"]') && !!document.querySelector('[data-t="fix-kind"]')`)
	hands := func(tb *hosttest.Host, sel string) string {
		return hosttest.Eval[string](tb.Tab, `[...document.querySelectorAll('`+sel+` .seat.sel')].map((b) => b.dataset.seat).join()`)
	}
	ref.SetValue(`[data-t="fix-kind"]`, "revote")
	if got := hosttest.Eval[string](ref.Tab, `document.querySelector('[data-t="fix-round-name"]').textContent`); got != "დღე" {
		t.Errorf("the repeat vote's round box is named %q, want დღე", got)
	}
	ref.SetValue(`[data-t="fix-round"]`, "1")
	ref.SetValue(`[data-t="fix-seat"]`, "3")
	if got := hands(ref, `[data-t="fix-hands"]`); got != "2,5" {
		t.Fatalf("the referee's hands marked at first: %q, want the repeat vote's entered (2,5)", got)
	}
	ref.Click(`[data-t="fix-hands"] [data-seat="6"]`)
	ref.Click(`[data-t="fix-hands"] [data-seat="7"]`)
	if got := hosttest.Eval[string](ref.Tab, `document.querySelector('[data-t="fix-voters"]').value`); got != "2 5 6 7" {
		t.Fatalf("the voters' box after the taps: %q", got)
	}
	ref.NoSideScroll("the referee's hands at 360 px")
	ref.Tap("fix-send")
	host.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="fix-amend-0"]')`)
	if line := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="fixes"] li[data-seq="0"]').textContent.replaceAll('\u00a0', ' ')`); !strings.Contains(line, "Referee Keti: day 1, repeat vote, votes for ") {
		t.Errorf("the host's list says %q", line)
	}
	host.Tap("fix-amend-0")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="vote-fix-screen"]')`)
	if got := hands(host, ``); got != "2,5,6,7" {
		t.Fatalf("the host's hands marked at first: %q, want the referee's (2,5,6,7)", got)
	}
	host.Tap("vote-fix-work-out")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="amend-screen"]')`)
	if kept := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="amend-kept"]').dataset.n`); kept != itoa(want.Kept) {
		t.Errorf("the host sees %s kept, the replay keeps %d", kept, want.Kept)
	}
	// Apply, and the page reloaded at once: the phone holds the old game
	// whole (applied again) or the corrected one whole.
	hosttest.Eval[bool](host.Tab, `(() => { document.querySelector('[data-t="amend-confirm"]').click(); return true; })()`)
	host.Reload(true)
	host.WaitJS(30*time.Second, `location.hash === '#/game/`+id+`'`)
	after := host.LocalEntries(id)
	switch {
	case sameGame(after, want.Commands):
		t.Log("the reload came after the write")
	case slices.Equal(after, old):
		t.Log("the reload came before the write: applied again")
		host.Tap("menu")
		host.Tap("menu-cohost")
		host.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="fix-amend-0"]')`)
		host.Tap("fix-amend-0")
		host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="vote-fix-screen"]')`)
		host.Tap("vote-fix-work-out")
		host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="amend-screen"]')`)
		host.Tap("amend-confirm")
		host.WaitJS(10*time.Second, `!document.querySelector('[data-t="amend-screen"]')`)
		if after = host.LocalEntries(id); !sameGame(after, want.Commands) {
			t.Fatalf("applied after the reload: %d entries, want %d", len(after), len(want.Commands))
		}
	default:
		t.Fatalf("after a reload at Apply the phone holds %d entries: neither the game before (%d) nor the corrected one (%d)", len(after), len(old), len(want.Commands))
	}
	host.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	if got := ts.StoredEntries(t, id); !slices.Equal(got, after) {
		t.Fatalf("the server holds %d entries, the host's phone %d", len(got), len(after))
	}
	if st := host.State(); !slices.Contains(st.Alive, 4) || slices.Contains(st.Alive, 3) {
		t.Fatalf("the host's phone: alive %v, want 4 in and 3 out", st.Alive)
	}
	ref.WaitJS(hosttest.SyncWait, `document.querySelector('li[data-seat="3"]').dataset.out === 'true' && document.querySelector('li[data-seat="4"]').dataset.out === 'false' &&
		!!document.querySelector('[data-t="fixes"] li[data-seq="0"][data-state="applied"]')`)

	// The Doctor's save of seat 1 on night 1: the victim lives.
	saved, reached, err := record.NightMove(s, after, 1, engine.Doctor, 1)
	if err != nil || !reached {
		t.Fatal(reached, err)
	}
	want2, err := record.Amend(s, after, saved)
	if err != nil {
		t.Fatal(err)
	}
	ref.SetValue(`[data-t="fix-kind"]`, "save")
	ref.SetValue(`[data-t="fix-round"]`, "1")
	ref.SetValue(`[data-t="fix-seat"]`, "1")
	ref.Tap("fix-send")
	host.Tap("menu")
	host.Tap("menu-cohost")
	host.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="fix-amend-1"]')`)
	host.Tap("fix-amend-1")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="amend-screen"]')`)
	if kept := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="amend-kept"]').dataset.n`); kept != itoa(want2.Kept) {
		t.Errorf("the host sees %s kept, the replay keeps %d", kept, want2.Kept)
	}
	if n := len(want2.Dropped); n > 0 && hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="amend-dropped-head"]').dataset.n`) != itoa(n) {
		t.Errorf("the host does not see the %d entries dropped", n)
	}
	host.NoSideScroll("the save's replay at 360 px")
	// Applied offline: the phone holds the corrected game, the server the
	// old one until the connection is back.
	host.Offline(true)
	host.Tap("amend-confirm")
	host.WaitJS(10*time.Second, `!document.querySelector('[data-t="amend-screen"]') && document.getElementById('sync').dataset.waiting !== '0'`)
	final := host.LocalEntries(id)
	if !sameGame(final, want2.Commands) || !slices.Contains(host.State().Alive, 1) {
		t.Fatalf("applied: %d entries, want %d; alive %v", len(final), len(want2.Commands), host.State().Alive)
	}
	if got := ts.StoredEntries(t, id); !slices.Equal(got, after) {
		t.Fatal("the server changed while the host's phone was offline")
	}
	host.Offline(false)
	host.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	if got := ts.StoredEntries(t, id); !slices.Equal(got, final) {
		t.Fatalf("the server holds %d entries, the host's phone %d", len(got), len(final))
	}
	ref.WaitJS(hosttest.SyncWait, `document.querySelector('li[data-seat="1"]').dataset.out === 'false' &&
		!!document.querySelector('[data-t="fixes"] li[data-seq="1"][data-state="applied"]')`)
	ref.Shot("replay-save-referee")

	// A note in words has no replay: both phones say the host corrects it by hand.
	ref.SetValue(`[data-t="fix-kind"]`, "night")
	ref.SetValue(`[data-t="fix-text"]`, "The Don checked 5 on night 1")
	ref.Tap("fix-send")
	ref.WaitJS(hosttest.SyncWait, `(document.querySelector('[data-t="fixes"] li[data-seq="2"] [data-t="fix-by-hand"]') || {}).textContent === ' ეს შესწორება თავიდან არ თამაშდება: წამყვანი მას ხელით შეიტანს.'`)
	host.Tap("menu")
	host.Tap("menu-cohost")
	host.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="fixes"] li[data-seq="2"] [data-t="fix-by-hand"]') && !!document.querySelector('[data-t="fix-apply-2"]') && !document.querySelector('[data-t="fix-amend-2"]')`)
	if s := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="fix-by-hand"]').textContent`); !strings.Contains(s, "the host corrects it by hand") {
		t.Errorf("the host's phone says %q for a note", s)
	}
	host.NoSideScroll("the corrections at 360 px")

	// The printed protocol, in Georgian, says each rewrite.
	req, _ := http.NewRequest("GET", ts.URL+"/host/games/"+id+"?lang=ka", nil)
	req.Header.Set("Authorization", "Bearer "+hosttest.Eval[string](host.Tab, `window.__assistGame.rec.token`))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	sec, ok := strings.CutPrefix(string(page)[max(0, strings.Index(string(page), `data-t="rewrites"`)):], `data-t="rewrites"`)
	if !ok || strings.Count(sec, "მსაჯის შესწორებით — Referee Keti") != 2 || !strings.Contains(sec, "განმეორებითი ხმის მიცემა") || !strings.Contains(sec, "ექიმმა გადაარჩინა") {
		t.Fatalf("the printed protocol's rewrites (ka):\n%.1200s", sec)
	}
}
