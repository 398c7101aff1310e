package assist

// This file carries the host's speech clock to the co-hosts: the host's
// phone runs the clock and tells the server its state whenever the host
// starts, pauses, resumes or ends a speech, and every few seconds besides
// while co-hosts follow; the server keeps only the last state of each game,
// stamped with the time it heard it, and the live game carries it with the
// server's time, so a referee's phone shows the same clock (ticking on its
// own between reads) and can tell when it stopped hearing the host.

import (
	"net/http"
	"time"

	"golang.org/x/time/rate"

	"mafia/engine"
)

// MaxClockKey is the longest step key of a clock state, in bytes.
const MaxClockKey = 64

// MaxClockMS is the longest clock the host may run: the settings' longest
// step (600 s), in milliseconds.
const MaxClockMS = 600_000

// CodeBadClock refuses a clock state not well formed (Name: the field, N:
// its limit).
const CodeBadClock engine.Code = "bad_clock"

// MaxClockRate and MaxClockBurst bound how often a game's clock may be
// told: each state rewrites the game's record, and the host's phone tells
// it a few times a speech (start, pause, resume, End) and every 3 s while
// co-hosts follow. Past it a state is refused with CodeClockTooOften and
// the one held stays; the phone's next state is taken.
const (
	MaxClockRate  = 2 // states a second, on average
	MaxClockBurst = 10
)

// CodeClockTooOften refuses a clock state sent more often than
// MaxClockRate a second (in bursts of MaxClockBurst).
const CodeClockTooOften engine.Code = "clock_too_often"

// Clock is the speech clock as the host's phone last told it: the step it
// belongs to (Key, "" for a step without a clock), the seat that holds the
// floor, its length and the time left (milliseconds) when the server heard
// it (At), and whether it was running then.
type Clock struct {
	Key     string    `json:"key"`
	Seat    int       `json:"seat"`
	Total   int       `json:"total"`
	Left    int       `json:"left"`
	Running bool      `json:"running"`
	At      time.Time `json:"at"`
}

// clockRequest is the body of PUT /host/api/games/{id}/clock.
type clockRequest struct {
	Key     string `json:"key"`
	Seat    int    `json:"seat"`
	Total   int    `json:"total"`
	Left    int    `json:"left"`
	Running bool   `json:"running"`
}

// check refuses a clock state not well formed for a game of n seats.
func (c clockRequest) check(n int) error {
	bad := func(name string, limit int) error { return &engine.Error{Code: CodeBadClock, Name: name, N: limit} }
	switch {
	case len(c.Key) > MaxClockKey:
		return bad("key", MaxClockKey)
	case c.Seat < 0 || c.Seat > n || (c.Key == "" && c.Seat != 0):
		return bad("seat", n)
	case c.Total < 0 || c.Total > MaxClockMS || (c.Key == "" && c.Total != 0):
		return bad("total", MaxClockMS/1000)
	case c.Left < 0 || c.Left > c.Total || (c.Key == "" && (c.Left != 0 || c.Running)):
		return bad("left", MaxClockMS/1000)
	}
	return nil
}

// setClock answers PUT /host/api/games/{id}/clock for the host's phone:
// the clock's state replaces the one held, stamped with the server's time.
func (h *Handler) setClock(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	id := r.PathValue("id")
	var req clockRequest
	if err := decode(r, &req, 1<<10); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	gm, ok := h.hostGame(w, r, id)
	if !ok {
		return
	}
	defer h.unlock(gm)
	if err := req.check(len(gm.rec.Settings.Names)); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	if gm.clocks == nil {
		gm.clocks = rate.NewLimiter(MaxClockRate, MaxClockBurst)
	}
	if !gm.clocks.AllowN(h.cfg.Now(), 1) {
		h.fail(w, r, &engine.Error{Code: CodeClockTooOften}, nil)
		return
	}
	c := &Clock{Key: req.Key, Seat: req.Seat, Total: req.Total, Left: req.Left, Running: req.Running, At: h.cfg.Now().UTC()}
	if err := h.keep(r, gm, func(rec *inPerson) { rec.Clock = c }); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"clock": c})
}
