package phone

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestAReloadKeepsTheSetupAndTheCardRound: the host fills in the setup
// (seven seats, cards dealt by hand, the club's roster picked for seat 1
// and a name typed for seat 2, the club's fields, the game's name, a card
// for seat 3) and the page is reloaded: everything is there as it was.
// Then "Create" starts the night-1 card round (the other cards unknown);
// the mafia's seat is tapped and confirmed, the Don's seat tapped, and the
// page is reloaded again: the round goes on at the Don's wake, the mafia's
// card known and the Don's seat still tapped; finished, it makes the game
// with the cards entered.
func TestAReloadKeepsTheSetupAndTheCardRound(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	cl, people := hosttest.NewClubWith(t, ts, "ნინო", "Tamar")
	h := hosttest.OpenHost(t, ts, "keep")
	h.Tap("new-game")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.Tap("size-7")
	h.Click(`[data-t="deal-manual"]`)
	h.SetValue(`[data-t="club-code"]`, cl.ID+"."+cl.Token)
	h.Tap("club-join")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="club-joined"]')`)
	h.SetValue(`[data-t="name-1"]`, "nino")
	sel := `[data-t="pick-1"][data-person="` + people[0].ID + `"]`
	h.WaitJS(5*time.Second, `!!document.querySelector('`+sel+`')`)
	h.Click(sel)
	h.WaitJS(5*time.Second, `document.querySelector('[data-t="name-1"]').dataset.person !== ''`)
	h.SetValue(`[data-t="name-2"]`, "Keti")
	h.SetValue(`[data-t="role-3"]`, "detective")
	fields := map[string]string{"club-host": "Irakli", "club-referee": "Eka", "club-table": "B", "club-number": "4", "game-name": "Friday"}
	for k, v := range fields {
		h.SetValue(`[data-t="`+k+`"]`, v)
	}

	h.Reload(false)
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="create"]')`)
	if got := h.Value(`[data-t="name-1"]`); got != "ნინო" {
		t.Errorf("after a reload seat 1's name is %q, want ნინო", got)
	}
	if got := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="name-1"]').dataset.person`); got != people[0].ID {
		t.Errorf("after a reload seat 1's roster entry is %q, want %s", got, people[0].ID)
	}
	if got := h.Value(`[data-t="name-2"]`); got != "Keti" {
		t.Errorf("after a reload seat 2's name is %q, want Keti", got)
	}
	if got := h.Value(`[data-t="role-3"]`); got != "detective" {
		t.Errorf("after a reload seat 3's card is %q, want detective", got)
	}
	if !hosttest.Eval[bool](h.Tab, `document.querySelector('[data-t="deal-manual"]').checked && document.querySelector('[data-t="size-7"]').classList.contains('sel')`) {
		t.Errorf("after a reload the deal by hand of seven seats is not chosen")
	}
	for k, v := range fields {
		if got := h.Value(`[data-t="` + k + `"]`); got != v {
			t.Errorf("after a reload %s is %q, want %q", k, got, v)
		}
	}

	// The card round: the first wake, a seat confirmed, the next wake's
	// seat tapped, and a reload.
	h.Tap("create")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="cards-wake"]')`)
	first := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="cards-wake"]').dataset.role`)
	need := hosttest.Eval[int](h.Tab, `parseInt(document.querySelector('[data-t="hands"]').textContent.split('/')[1], 10)`)
	for _, s := range []int{1, 4, 5, 6, 7}[:need] {
		h.PickSeat(s)
	}
	h.Tap("cards-confirm")
	h.WaitJS(5*time.Second, `document.querySelector('[data-t="cards-wake"]').dataset.role !== `+hosttest.JsString(first))
	second := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="cards-wake"]').dataset.role`)
	h.PickSeat(2)
	h.WaitJS(5*time.Second, `document.querySelector('.seats [data-seat="2"]').classList.contains('sel')`)

	h.Reload(false)
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="cards-wake"]')`)
	if got := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="cards-wake"]').dataset.role`); got != second {
		t.Fatalf("after a reload the card round wakes %q, want %q (the round went on from %q)", got, second, first)
	}
	if !hosttest.Eval[bool](h.Tab, `document.querySelector('.seats [data-seat="2"]').classList.contains('sel') && document.querySelector('.seats [data-seat="1"]').classList.contains('off')`) {
		t.Errorf("after a reload seat 1's card (%s) is not known, or seat 2 is not tapped:\n%s", first, h.Text())
	}
	// The rest of the round: each wake takes the first free seats.
	for i := 0; i < 10 && !h.Exists("cards-done"); i++ {
		need := hosttest.Eval[int](h.Tab, `parseInt(document.querySelector('[data-t="hands"]').textContent.split('/')[1], 10) - document.querySelectorAll('.seats .seat.sel').length`)
		for s := 2; need > 0 && s <= 7; s++ {
			if hosttest.Eval[bool](h.Tab, `(() => { const b = document.querySelector('.seats [data-seat="`+strconv.Itoa(s)+`"]'); return !b.classList.contains('off') && !b.classList.contains('sel'); })()`) {
				h.PickSeat(s)
				need--
			}
		}
		h.Tap("cards-confirm")
		h.Settle()
	}
	h.Tap("cards-done")
	h.WaitJS(10*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame`)
	st := h.State()
	if st.Roles[1] != first || st.Roles[2] != second || st.Roles[3] != "detective" {
		t.Errorf("the game's cards: %v; want seat 1 %s, seat 2 %s, seat 3 detective", st.Roles, first, second)
	}
	if got := hosttest.Eval[[]string](h.Tab, `window.__assistGame.rec.settings.names`); got[0] != "ნინო" || got[1] != "Keti" {
		t.Errorf("the game's names: %v", got)
	}
	// The draft is gone: a new game starts from an empty form.
	h.Do(5*time.Second, hosttest.Navigate(ts.URL+"/host/#/new"))
	h.Reload(false)
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="create"]')`)
	if got := h.Value(`[data-t="name-2"]`); got != "" {
		t.Errorf("the next game's form is not empty: seat 2 is %q", got)
	}
}

// TestAReloadKeepsTheBestMoveAndExtraPointsNotYetSaved: at the end of a
// game the host saves extra points for seat 3, then taps the first-killed
// player's best-move guesses and types extra points for seat 5, and the
// page is reloaded before "Save": the guesses and the points are still
// there (not replaced by the score the server holds), and saved they
// count.
func TestAReloadKeepsTheBestMoveAndExtraPointsNotYetSaved(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "score")
	h.Create(hosttest.GameSpec{Names: []string{"Nino", "Keti", "Zura", "Dato", "Lika", "Gela", "Tako"}, Deal: record.DealPass})
	d := hosttest.TownDriver()
	town := d.Night
	d.Night = func(st record.State, w record.Wake) int { // the doctor saves nobody: night 1 takes a player
		if w.Role == "doctor" {
			return 0
		}
		return town(st, w)
	}
	h.Play(d)
	h.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="save-score"]')`)
	guesses := hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('[data-t^="guess-"]')].map((b) => b.dataset.t)`)
	if len(guesses) < 3 {
		t.Fatalf("the best move offers %v", guesses)
	}
	h.SetValue(`[data-t="extra-3"]`, "0.1")
	h.Tap("save-score")
	h.WaitJS(10*time.Second, `document.querySelector('[data-t="score"]').dataset.saved === 'yes' && !!document.querySelector('[data-t="points-1"]')`)
	guesses = guesses[:3]
	for _, g := range guesses {
		h.Tap(g)
	}
	h.SetValue(`[data-t="extra-5"]`, "0.3")

	h.Reload(true)
	h.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="save-score"]')`)
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="points-1"]')`) // the server's score has loaded
	sel := hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('[data-t^="guess-"].sel')].map((b) => b.dataset.t)`)
	if !slices.Equal(sel, guesses) {
		t.Errorf("after a reload the best move's guesses are %v, want %v", sel, guesses)
	}
	if got := h.Value(`[data-t="extra-5"]`); got != "0.3" {
		t.Errorf("after a reload seat 5's extra points are %q, want 0.3", got)
	}
	if got := h.Value(`[data-t="extra-3"]`); got != "0.1" {
		t.Errorf("after a reload seat 3's extra points are %q, want 0.1", got)
	}
	h.Tap("save-score")
	h.WaitJS(10*time.Second, `document.querySelector('[data-t="score"]').dataset.saved === 'yes'`)
	var p struct {
		Score *struct {
			BestMove *struct{ Guess []int } `json:"best_move"`
			Extra    []struct {
				Seat   int
				Points float64
			}
		}
	}
	id := hosttest.Eval[string](h.Tab, `window.__assistGame.rec.id`)
	ts.GetJSON(t, "/host/api/games/"+id+"/protocol.json", h.Token(id), &p)
	if p.Score == nil || p.Score.BestMove == nil || len(p.Score.BestMove.Guess) != 3 || len(p.Score.Extra) != 2 {
		t.Errorf("the saved score: %+v", p.Score)
	}
}
