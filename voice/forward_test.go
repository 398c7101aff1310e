package voice

import (
	"testing"
	"time"
)

// TestRunStart_ANewRunIsStampedSoThatTheListenerPlaysItAtOnce pins the
// clock of a run of packets after a pause (forward.go, runStart).
func TestRunStart_ANewRunIsStampedSoThatTheListenerPlaysItAtOnce(t *testing.T) {
	const last = 1_000_000
	ms := func(d int) uint32 { return uint32(d * opusRate / 1000) }
	silence := 3 * 20 * time.Millisecond
	for _, c := range []struct {
		rule       string
		gap, ahead time.Duration
		want       uint32
	}{
		{"after a long pause, stamped back by the silence frames and the allowance: late by the listener's buffer's clock, so played at once",
			5 * time.Second, silence, last + frame20ms + ms(5000-60-250)},
		{"after a pause within the listener's arrival history, by the wall time (late there would raise its delay)",
			time.Second, silence, last + ms(1000)},
		{"at the history's edge, still by the wall time",
			arrivalWindow + silence + playoutAllowance, silence, last + ms(2000+60+250)},
		{"right after the last packet, a frame on", time.Millisecond, 0, last + frame20ms},
	} {
		if got := runStart(last, c.gap, c.ahead); got != c.want {
			t.Errorf("%s: %d, want %d (%+d ms)", c.rule, got, c.want, (int64(got)-int64(c.want))*1000/opusRate)
		}
	}
}
