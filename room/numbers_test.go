package room_test

// Numbers a client sends are range-checked before they are narrowed: a seat
// number past 255 must not wrap onto a real seat, a step length of 2^58 ms
// must not overflow into a few seconds, and every refusal names the number
// as the client sent it.

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"testing"
	"time"

	"mafia/engine"
	"mafia/room"
)

// valueOf is the number a refusal names as the client sent it ("" if none).
func valueOf(err error) string {
	var e *engine.Error
	if errors.As(err, &e) {
		return e.Value
	}
	return ""
}

func TestASeatNumberIsRangeCheckedBeforeItIsNarrowed(t *testing.T) {
	f := newFixture(t, settings(t, 5, fastTimings), nil)
	host := f.hostClient()
	watch := f.attach("")
	f.join("ann", 1)
	f.join("bea", 2)
	watch.drain()
	_, seats0 := f.storedTable()

	// In the lobby: kick and join, with numbers that wrap onto seats 1 and 2.
	for _, n := range []int{4294967297, 257, 258, -254, -4294967295, math.MaxInt64, math.MinInt64} {
		err := host.send(hostAction("kick", n))
		if codeOf(err) != engine.CodeNoSuchSeat || valueOf(err) != strconv.Itoa(n) {
			t.Errorf("kick %d: %v, want no_such_seat naming %d", n, err, n)
		}
		_, _, err = f.r.Join(bg(), room.JoinRequest{Name: "carl", Seat: n})
		if codeOf(err) != engine.CodeNoSuchSeat || valueOf(err) != strconv.Itoa(n) {
			t.Errorf("join seat %d: %v, want no_such_seat naming %d", n, err, n)
		}
	}
	if _, seats := f.storedTable(); !bytes.Equal(mustJSON(t, seats), mustJSON(t, seats0)) {
		t.Errorf("refused kicks and joins changed the seats: %+v", seats)
	}
	if frs := watch.drain(); len(frs) != 0 {
		t.Errorf("a refused kick or join sent %s", frs[0].raw)
	}

	// In the game: fouls and commands.
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	host.must(hostAction("pause", 0)) // nothing moves while we look
	cs := []*client{f.attach(tokenOf(t, f, 1))}
	drainAll(watch, cs[0])
	n0 := len(f.events())
	for _, n := range []int{258, 257, -254, 4294967298, math.MaxInt64} {
		err := host.send(hostAction("foul", n))
		if codeOf(err) != engine.CodeNoSuchSeat || valueOf(err) != strconv.Itoa(n) {
			t.Errorf("foul %d: %v, want no_such_seat naming %d", n, err, n)
		}
	}
	host.must(hostAction("resume", 0))
	drainAll(watch, cs[0])
	for _, verb := range []string{"kill", "check", "heal", "shoot"} {
		for _, n := range []int{258, -254, math.MinInt64} {
			err := cs[0].send(command(verb, n))
			if codeOf(err) != engine.CodeNoSuchSeat || valueOf(err) != strconv.Itoa(n) {
				t.Errorf("%s %d: %v, want no_such_seat naming %d", verb, n, err, n)
			}
		}
	}
	if n := len(f.events()); n != n0 {
		t.Errorf("refused fouls and commands stored %d events: %v", n-n0, f.events()[n0:])
	}
	for s := 1; s <= 5; s++ {
		if fouls := f.replay().Fouls(engine.Seat(s)); fouls != 0 {
			t.Errorf("seat %d has %d fouls", s, fouls)
		}
	}
	if frs := watch.drain(); len(frs) != 0 {
		t.Errorf("a refused foul or command sent %s", frs[0].raw)
	}
}

// tokenOf is the token of a seat the fixture joined by name: it re-joins
// nothing, it reads the join's answer kept by the fixture.
func tokenOf(t *testing.T, f *fixture, seat int) string {
	t.Helper()
	tok, ok := f.tokens[seat]
	if !ok {
		t.Fatalf("seat %d was not joined by the fixture", seat)
	}
	return tok
}

func TestAStepLengthIsRangeCheckedBeforeItBecomesADuration(t *testing.T) {
	// 2^58+5000 ms is 5 s once multiplied into nanoseconds (it wraps).
	for _, ms := range []int64{1<<58 + 5000, 1 << 58, math.MaxInt64, math.MinInt64, -1, 99, 3_600_001} {
		_, err := room.TimingsFromMillis(map[string]int64{"speech": ms})
		if codeOf(err) != room.CodeBadTiming || valueOf(err) != strconv.FormatInt(ms, 10) {
			t.Errorf("speech %d ms: %v, want bad_timing naming %d", ms, err, ms)
		}
		set := settings(t, 5, map[string]int64{"night": ms})
		if _, _, err := room.Create(bg(), room.Config{Store: nil}, set); codeOf(err) != room.CodeBadTiming {
			t.Errorf("a table with a night of %d ms: %v", ms, err)
		}
	}
	for _, ms := range []int64{100, 3_600_000} {
		if _, err := room.TimingsFromMillis(map[string]int64{"vote": ms}); err != nil {
			t.Errorf("vote %d ms: %v", ms, err)
		}
	}
	for _, ms := range []int64{1<<58 + 5000, 1 << 58, -1, 60_001, math.MaxInt64} {
		_, err := room.BotDelayFromMillis(ms)
		if codeOf(err) != room.CodeBadBotDelay || valueOf(err) != strconv.FormatInt(ms, 10) {
			t.Errorf("bot delay %d ms: %v, want bad_bot_delay naming %d", ms, err, ms)
		}
	}
	if d, err := room.BotDelayFromMillis(60_000); err != nil || d != time.Minute {
		t.Errorf("bot delay 60000 ms: %v %v", d, err)
	}
}
