package room

import (
	"strconv"
	"sync"
	"time"

	"mafia/engine"
)

// Clock is the room's source of time: the real one in the server, a fake one
// in tests (no sleeping in tests).
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a scheduled call that can be cancelled.
type Timer interface {
	Stop() bool
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns the current time.
func (RealClock) Now() time.Time { return time.Now() }

// AfterFunc calls f in its own goroutine after d.
func (RealClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// FakeClock is a manual clock for tests: time moves only by Advance, which
// runs the calls that fall due, in order, in the caller's goroutine.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
	settle func()
}

type fakeTimer struct {
	c    *FakeClock
	at   time.Time
	f    func()
	done bool
}

// NewFakeClock returns a fake clock set to start.
func NewFakeClock(start time.Time) *FakeClock { return &FakeClock{now: start} }

// Now returns the fake time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f at Now()+d.
func (c *FakeClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

// Stop cancels the call if it has not run.
func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.done
	t.done = true
	return was
}

// SetSettle makes Advance call settle after each call it runs, before it
// looks for the next one or moves the time on (nil: it does not wait). A
// room's call only queues its work in the room's inbox; a test passes a
// wait until the room has handled everything queued (room_test's fixture
// does), so that what a call set in motion (a step's end, a bot's turn
// scheduled at once) is done, at the call's time and with its own timers
// set, before time moves on, however the goroutines are scheduled.
func (c *FakeClock) SetSettle(settle func()) {
	c.mu.Lock()
	c.settle = settle
	c.mu.Unlock()
}

// Advance moves time forward by d, running every call that falls due (and
// after each, the settle wait, if set: SetSettle).
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var next *fakeTimer
		for _, t := range c.timers {
			if !t.done && !t.at.After(end) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		next.done = true
		if next.at.After(c.now) {
			c.now = next.at
		}
		settle := c.settle
		c.mu.Unlock()
		next.f()
		if settle != nil {
			settle()
		}
	}
}

// Pending returns how many calls are scheduled and not yet run.
func (c *FakeClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.done {
			n++
		}
	}
	return n
}

// Timings are a table's step lengths (docs/rules.md, "Timings").
type Timings struct {
	Speech    time.Duration `json:"speech"`
	Defence   time.Duration `json:"defence"`
	TieSpeech time.Duration `json:"tie_speech"`
	LastWords time.Duration `json:"last_words"`
	Night     time.Duration `json:"night"`
	Vote      time.Duration `json:"vote"`
}

// DefaultTimings are docs/rules.md's defaults.
func DefaultTimings() Timings {
	return Timings{Speech: 60 * time.Second, Defence: 30 * time.Second, TieSpeech: 30 * time.Second,
		LastWords: 60 * time.Second, Night: 45 * time.Second, Vote: 20 * time.Second}
}

// For returns the length of a step of phase p.
func (t Timings) For(p engine.Phase) time.Duration {
	switch p {
	case engine.PhaseSpeech:
		return t.Speech
	case engine.PhaseDefence:
		return t.Defence
	case engine.PhaseTieSpeech:
		return t.TieSpeech
	case engine.PhaseLastWords:
		return t.LastWords
	case engine.PhaseNight:
		return t.Night
	case engine.PhaseVote, engine.PhaseRevote, engine.PhaseAllVote:
		return t.Vote
	}
	return 0
}

// MinStep and MaxStep bound every step's length.
const (
	MinStep = 100 * time.Millisecond
	MaxStep = time.Hour
)

// MaxBotDelay is the longest bot delay a table may have.
const MaxBotDelay = time.Minute

// Valid reports whether every step has a length between MinStep and MaxStep.
func (t Timings) Valid() bool {
	for _, d := range []time.Duration{t.Speech, t.Defence, t.TieSpeech, t.LastWords, t.Night, t.Vote} {
		if d < MinStep || d > MaxStep {
			return false
		}
	}
	return true
}

// Millis returns the timings in milliseconds by step name.
func (t Timings) Millis() map[string]int64 {
	return map[string]int64{"speech": t.Speech.Milliseconds(), "defence": t.Defence.Milliseconds(),
		"tie_speech": t.TieSpeech.Milliseconds(), "last_words": t.LastWords.Milliseconds(),
		"night": t.Night.Milliseconds(), "vote": t.Vote.Milliseconds()}
}

// TimingsFromMillis builds timings from the defaults and step lengths in
// milliseconds by step name (the inverse of Millis). An unknown step name is
// refused with CodeBadRequest, a length outside MinStep..MaxStep with
// CodeBadTiming naming the number as it was given: it is checked before it
// becomes a Duration, which a huge number would overflow.
func TimingsFromMillis(ms map[string]int64) (Timings, error) {
	t := DefaultTimings()
	for k, v := range ms {
		var d *time.Duration
		switch k {
		case "speech":
			d = &t.Speech
		case "defence":
			d = &t.Defence
		case "tie_speech":
			d = &t.TieSpeech
		case "last_words":
			d = &t.LastWords
		case "night":
			d = &t.Night
		case "vote":
			d = &t.Vote
		default:
			return t, &engine.Error{Code: CodeBadRequest, Name: k}
		}
		if v < MinStep.Milliseconds() || v > MaxStep.Milliseconds() {
			return t, &engine.Error{Code: CodeBadTiming, Name: k, Value: strconv.FormatInt(v, 10), N: int(MaxStep.Milliseconds())}
		}
		*d = time.Duration(v) * time.Millisecond
	}
	return t, nil
}

// BotDelayFromMillis converts a bot delay in milliseconds, refusing one
// outside 0..MaxBotDelay with CodeBadBotDelay (naming the number as given)
// before it becomes a Duration.
func BotDelayFromMillis(ms int64) (time.Duration, error) {
	return millisUpTo(ms, MaxBotDelay, CodeBadBotDelay)
}

// millisUpTo converts a length in milliseconds as a client gave it, refusing
// one outside 0..most with code (outOfRange) before it becomes a Duration,
// which a number of hours' worth of years would overflow.
func millisUpTo(ms int64, most time.Duration, code engine.Code) (time.Duration, error) {
	if ms < 0 || ms > most.Milliseconds() {
		return 0, outOfRange(code, ms, most)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// outOfRange refuses a length of ms milliseconds outside 0..most with code,
// naming the number as given (Value) and the largest (N, in ms).
func outOfRange(code engine.Code, ms int64, most time.Duration) error {
	return &engine.Error{Code: code, Value: strconv.FormatInt(ms, 10), N: int(most.Milliseconds())}
}

// WarnBefore is how long before a deadline the warning goes out.
const WarnBefore = 10 * time.Second
