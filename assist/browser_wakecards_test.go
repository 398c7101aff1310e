package assist_test

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"mafia/assist/record"
)

// TestTheCardsAreEnteredAsTheRolesWake deals 11 cards by hand, the host
// having seen only seat 1's: on night 1 the page wakes the mafia, the Don,
// the detective, the maniac and the doctor in turn, the host taps who holds
// each card, the players left are citizens, and the game is made with that
// deal; night 1 then runs as ever.
func TestTheCardsAreEnteredAsTheRolesWake(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	h := openHost(t, ts, "host")
	// The deal the host finds at the wakes (seat 1's card was seen).
	deal := []string{"citizen", "mafia", "citizen", "don", "citizen", "detective", "mafia", "citizen", "maniac", "doctor", "citizen"}
	roles := make([]string, len(deal))
	roles[0] = "citizen"
	h.tap("new-game")
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.tap("size-11")
	h.click(`[data-t="deal-manual"]`)
	for i, n := range names11 {
		h.setValue(`[data-t="name-`+strconv.Itoa(i+1)+`"]`, n)
		h.setValue(`[data-t="role-`+strconv.Itoa(i+1)+`"]`, roles[i])
	}
	h.tap("create")
	var order []string
	for range 10 {
		h.waitJS(5*time.Second, `!!document.querySelector('[data-t="cards-wake"]') || !!document.querySelector('[data-t="cards-rest"]')`)
		if h.exists("cards-rest") {
			break
		}
		r := eval[string](h.tab, `document.querySelector('[data-t="cards-wake"]').dataset.role`)
		order = append(order, r)
		for s, d := range deal {
			if d == r && roles[s] == "" {
				h.pickSeat(s + 1)
			}
		}
		if r == "mafia" {
			h.shot("wakecards-mafia")
		}
		h.tap("cards-confirm")
		h.settle()
	}
	if want := []string{"mafia", "don", "detective", "maniac", "doctor"}; !slices.Equal(order, want) {
		t.Fatalf("the roles woke in the order %v, want %v", order, want)
	}
	h.shot("wakecards-rest")
	h.tap("cards-done")
	h.waitJS(10*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame && !!document.querySelector('[data-t="wake"]')`)
	st := h.state()
	if got := st.Roles[1:]; !slices.Equal(got, deal) {
		t.Fatalf("the game's cards are %v, want %v", got, deal)
	}
	id := eval[string](h.tab, `window.__assistGame.rec.id`)
	var game struct{ Settings record.Settings }
	ts.getJSON(t, "/host/api/games/"+id, h.token(id), &game)
	if !slices.Equal(game.Settings.Roles, deal) || game.Settings.Deal != record.DealManual {
		t.Fatalf("the server's deal: %s %v", game.Settings.Deal, game.Settings.Roles)
	}
	if sc := h.screen(); sc != "wake:mafia" {
		t.Fatalf("night 1 begins with %q", sc)
	}
}

// TestAnAcquaintanceNightsCardsAreEnteredOnce: with the acquaintance night
// (nobody acts on night 1), the card round is that night: once the cards
// are entered the game goes straight to the morning, the roles not woken a
// second time.
func TestAnAcquaintanceNightsCardsAreEnteredOnce(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	h := openHost(t, ts, "host")
	deal := roles7
	h.tap("new-game")
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.tap("size-7")
	h.click(`[data-t="deal-manual"]`)
	h.setValue(`[data-t="opt-first_night"]`, "meeting")
	for i, n := range names11[:7] {
		h.setValue(`[data-t="name-`+strconv.Itoa(i+1)+`"]`, n)
	}
	h.tap("create")
	for range 10 {
		h.waitJS(5*time.Second, `!!document.querySelector('[data-t="cards-wake"]') || !!document.querySelector('[data-t="cards-rest"]')`)
		if h.exists("cards-rest") {
			break
		}
		r := eval[string](h.tab, `document.querySelector('[data-t="cards-wake"]').dataset.role`)
		for s, d := range deal {
			if d == r {
				h.pickSeat(s + 1)
			}
		}
		h.tap("cards-confirm")
		h.settle()
	}
	h.tap("cards-done")
	h.waitJS(10*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame`)
	if sc := h.screen(); sc != "morning" {
		t.Fatalf("after the cards of an acquaintance night the page shows %q, want the morning", sc)
	}
	if got := h.state().Roles[1:]; !slices.Equal(got, deal) {
		t.Fatalf("the game's cards are %v, want %v", got, deal)
	}
	h.tap("morning")
	h.settle()
	h.waitJS(5*time.Second, `window.__assistGame.state.phase === 'speech' || !!document.querySelector('[data-t="announce"]')`)
}
