package assist

// This file bounds what an anonymous phone can make the assistant keep:
// a game's entries (each sync rewrites the game's record, so a list without
// end would cost the store more at every entry) and one address's new
// games (each is a table in the store), and what one address can make it
// compute: its new seatings (each up to seconds of a core). The other bounds are beside what
// they bound: a sync's batch (MaxBatch), co-hosts, corrections and
// rewrites (cohost.go, cohost_rewrite.go), the clock's rate (clock.go), a
// request's body (decode).

import (
	"math"
	"net/http"

	"mafia/engine"
	"mafia/internal/httpguard"
)

// DefaultMaxEntries is the most entries one game may hold unless
// Config.MaxEntries says otherwise, undos and corrections included: a game
// of eleven played by the bots has about 130 engine entries, the longest
// of 20,000 random games 284; a host's fouls and undos add some. Past it an
// entry is refused with CodeEntriesFull and the game keeps the ones it
// holds. It also bounds what an undo costs: its replay walks the whole
// list.
const DefaultMaxEntries = 2000

// CodeRateLimited refuses a new game past its address's rate (N: the
// seconds until one more is taken, also its Retry-After); the online
// server answers a flood with the same code.
const CodeRateLimited engine.Code = "rate_limited"

// CodeEntriesFull refuses an entry, or a rewrite that would leave more
// entries, past the game's most (Config.MaxEntries: N).
const CodeEntriesFull engine.Code = "entries_full"

// The new games one client address may make (NewGameRates): bursts of 30
// (a club's tournament starting every table of its round from one
// network), then one a minute. Past them a new game is refused with 429
// rate_limited and Retry-After.
const (
	NewGameBurst = 30
	NewGameEvery = 60 // seconds
)

// NewGameRates returns the rate of new games per client address that
// `mafia serve` gives Config.NewGames: NewGameBurst at once, then one every
// NewGameEvery seconds.
func NewGameRates() *httpguard.Rates {
	return httpguard.NewRates(1.0/NewGameEvery, NewGameBurst)
}

// allowNewGame takes one new game from the request's address's rate
// (Config.NewGames; none set, or an address of Config.Unlimited: every one
// is allowed); past it it answers 429 rate_limited with Retry-After and
// reports false.
func (h *Handler) allowNewGame(w http.ResponseWriter, r *http.Request) bool {
	if h.cfg.NewGames == nil {
		return true
	}
	a := h.cfg.Guard.ClientAddr(r)
	if !a.IsValid() || httpguard.In(a, h.cfg.Unlimited) {
		return true
	}
	ok, wait := h.cfg.NewGames.Allow(a, h.cfg.Now())
	if ok {
		return true
	}
	h.fail(w, r, &engine.Error{Code: CodeRateLimited, N: int(math.Ceil(wait.Seconds()))}, nil)
	return false
}

// The new seatings one client address may have the seating cards' page
// make (SeatingRates): bursts of 10 (a host trying sizes and seeds), then
// one every 20 seconds. A seating kept, or one being made that the
// request waits for, takes nothing. Past them the page is refused with 429
// rate_limited and Retry-After, so that one address cannot keep the
// generator (one seating at a time, seating_gate.go) to itself.
const (
	SeatingBurst = 10
	SeatingEvery = 20 // seconds
)

// SeatingRates returns the rate of new seatings per client address that
// `mafia serve` gives Config.Seatings: SeatingBurst at once, then one every
// SeatingEvery seconds.
func SeatingRates() *httpguard.Rates {
	return httpguard.NewRates(1.0/SeatingEvery, SeatingBurst)
}

// allowSeating takes one new seating from the request's address's rate
// (Config.Seatings; none set, or an address of Config.Unlimited: every one
// is allowed); past it it returns rate_limited (N: the seconds until one
// more is taken).
func (h *Handler) allowSeating(r *http.Request) error {
	if h.cfg.Seatings == nil {
		return nil
	}
	a := h.cfg.Guard.ClientAddr(r)
	if !a.IsValid() || httpguard.In(a, h.cfg.Unlimited) {
		return nil
	}
	if ok, wait := h.cfg.Seatings.Allow(a, h.cfg.Now()); !ok {
		return &engine.Error{Code: CodeRateLimited, N: int(math.Ceil(wait.Seconds()))}
	}
	return nil
}
