package game

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestTheCardsAreEnteredAsTheRolesWake deals 11 cards by hand, the host
// having seen only seat 1's: on night 1 the page wakes the mafia, the Don,
// the detective, the maniac and the doctor in turn, the host taps who holds
// each card, the players left are citizens, and the game is made with that
// deal; night 1 then runs as ever.
func TestTheCardsAreEnteredAsTheRolesWake(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	// The deal the host finds at the wakes (seat 1's card was seen).
	deal := []string{"citizen", "mafia", "citizen", "don", "citizen", "detective", "mafia", "citizen", "maniac", "doctor", "citizen"}
	roles := make([]string, len(deal))
	roles[0] = "citizen"
	h.Tap("new-game")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.Tap("size-11")
	h.Click(`[data-t="deal-manual"]`)
	for i, n := range hosttest.Names11 {
		h.SetValue(`[data-t="name-`+strconv.Itoa(i+1)+`"]`, n)
		h.SetValue(`[data-t="role-`+strconv.Itoa(i+1)+`"]`, roles[i])
	}
	h.Tap("create")
	var order []string
	for range 10 {
		h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="cards-wake"]') || !!document.querySelector('[data-t="cards-rest"]')`)
		if h.Exists("cards-rest") {
			break
		}
		r := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="cards-wake"]').dataset.role`)
		order = append(order, r)
		for s, d := range deal {
			if d == r && roles[s] == "" {
				h.PickSeat(s + 1)
			}
		}
		if r == "mafia" {
			h.Shot("wakecards-mafia")
		}
		h.Tap("cards-confirm")
		h.Settle()
	}
	if want := []string{"mafia", "don", "detective", "maniac", "doctor"}; !slices.Equal(order, want) {
		t.Fatalf("the roles woke in the order %v, want %v", order, want)
	}
	h.Shot("wakecards-rest")
	h.Tap("cards-done")
	h.WaitJS(10*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame && !!document.querySelector('[data-t="wake"]')`)
	st := h.State()
	if got := st.Roles[1:]; !slices.Equal(got, deal) {
		t.Fatalf("the game's cards are %v, want %v", got, deal)
	}
	id := hosttest.Eval[string](h.Tab, `window.__assistGame.rec.id`)
	var game struct{ Settings record.Settings }
	ts.GetJSON(t, "/host/api/games/"+id, h.Token(id), &game)
	if !slices.Equal(game.Settings.Roles, deal) || game.Settings.Deal != record.DealManual {
		t.Fatalf("the server's deal: %s %v", game.Settings.Deal, game.Settings.Roles)
	}
	if sc := h.Screen(); sc != "wake:mafia" {
		t.Fatalf("night 1 begins with %q", sc)
	}
}

// TestAnAcquaintanceNightsCardsAreEnteredOnce: with the acquaintance night
// (nobody acts on night 1), the card round is that night: once the cards
// are entered the game goes straight to the morning, the roles not woken a
// second time.
func TestAnAcquaintanceNightsCardsAreEnteredOnce(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	deal := hosttest.Roles7
	h.Tap("new-game")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.Tap("size-7")
	h.Click(`[data-t="deal-manual"]`)
	h.SetValue(`[data-t="opt-first_night"]`, "meeting")
	for i, n := range hosttest.Names11[:7] {
		h.SetValue(`[data-t="name-`+strconv.Itoa(i+1)+`"]`, n)
	}
	h.Tap("create")
	for range 10 {
		h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="cards-wake"]') || !!document.querySelector('[data-t="cards-rest"]')`)
		if h.Exists("cards-rest") {
			break
		}
		r := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="cards-wake"]').dataset.role`)
		for s, d := range deal {
			if d == r {
				h.PickSeat(s + 1)
			}
		}
		h.Tap("cards-confirm")
		h.Settle()
	}
	h.Tap("cards-done")
	h.WaitJS(10*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame`)
	if sc := h.Screen(); sc != "morning" {
		t.Fatalf("after the cards of an acquaintance night the page shows %q, want the morning", sc)
	}
	if got := h.State().Roles[1:]; !slices.Equal(got, deal) {
		t.Fatalf("the game's cards are %v, want %v", got, deal)
	}
	h.Tap("morning")
	h.Settle()
	h.WaitJS(5*time.Second, `window.__assistGame.state.phase === 'speech' || !!document.querySelector('[data-t="announce"]')`)
}
