package voicetest_test

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/room"
	"mafia/wire"
)

// TestVoice_PagesHearTheFloor plays a voice table of five seats: seats 2, 3
// and 4 are pages in Chromiums of their own, each microphone a fake one
// playing its own tone (500, 900, 1300 Hz), turned on by a tap on the
// page's microphone button; seat 5 is a page that listens without a
// microphone; seat 1 and the host are the test's connections. Each page
// hears, by its analysers on the decoded audio and by getStats: in the
// lobby every other microphone, each on its seat's track; at night
// nothing (no packet on any track); in each speech exactly the floor's
// tone, switching as the floor moves; nothing once the host's foul cuts
// the floor; nothing in the vote. A page reloaded during a floor joins
// the voice again by itself and hears the floor again. It logs, for the
// record (docs/voice.md), how long after the step's frame each listener
// heard the new floor, and silence after a floor closed.
func TestVoice_PagesHearTheFloor(t *testing.T) {
	// The table's clock is the test's: a night and a vote last as long as
	// the test watches them (a loaded machine is never slower than they
	// are), and no longer (the five pages' audio costs CPU every second).
	clk := room.NewFakeClock(time.Now())
	r := newRigOn(t, clk)
	id, hostTok := r.create(t, 5, "everyone", map[string]int64{"night": nightLen.Milliseconds(), "vote": voteLen.Milliseconds(), "speech": 120000})
	host := r.dial(t, id, hostTok)
	go1 := r.seat(t, id, 1)
	pages := map[int]*page{}
	for _, s := range []int{2, 3, 4} {
		pages[s] = r.openPage(t, browsers[s], id, s)
	}
	pages[5] = r.openPage(t, browsers[2], id, 5)
	seats := []int{1, 2, 3, 4, 5}
	mics := []int{2, 3, 4}
	unit := r.watchUnit(t, id)

	// Voice on: a tap on the microphone button (the listener's: listen only).
	for _, s := range mics {
		pages[s].tap("#voice-mic", `window.__mafia.voice.want === 'mic'`)
	}
	pages[5].tap("#voice-listen", `window.__mafia.voice.want === 'listen'`)
	for _, p := range pages {
		p.waitVoiceOn()
		p.monitor()
	}
	if got := eval[bool](pages[5], `window.__mafia.voice.sending`); got {
		t.Error("the listening page sends a microphone")
	}
	// The lobby: everyone hears everyone.
	for _, p := range pages {
		p.waitHears("the lobby", mics, seats, nil)
	}
	for _, p := range pages {
		if w := p.wide(); w != "" {
			t.Errorf("%s: wider than the phone's screen: %s", p.Name, w)
		}
		if hgt := eval[float64](p, `document.querySelector('#voice-leave').getBoundingClientRect().height`); hgt < 44 {
			t.Errorf("%s: the voice button is %.0f px high, under 44", p.Name, hgt)
		}
	}
	if got := eval[string](pages[2], `document.querySelector('#voice-state').textContent`); got != "Everyone hears everyone now." {
		t.Errorf("the lobby's voice state: %q", got)
	}

	host.send(wire.ClientMessage{Type: "host", Action: "start"})
	var nights, floors, changes, votes int
	fouled, reloaded := false, false
	last := 0
	for range 60 {
		v := host.waitView("the game", func(v *wire.View) bool { return v.Phase != "" })
		label := fmt.Sprintf("step %d (%s %d, floor %d)", v.Step, v.Phase, v.Round, v.Speaker)
		if v.Phase == "ended" {
			// No step comes after the end: say so now, not after the
			// wait below has run out (500 s of five pages' audio).
			t.Fatalf("%s: the game ended (%s won) before its second night: %d nights, %d floors, %d votes so far", label, v.Winner, nights, floors, votes)
		}
		switch {
		case v.Phase == "night":
			for s, p := range pages {
				p.waitSilent(label, seats, nil)
				if got := eval[string](p, `window.__mafia.state.view && window.__mafia.state.view.phase === 'night' && window.__mafia.voice.status === 'on' && window.__mafia.voice.sending ? document.querySelector('#voice-state').textContent : ''`); got != "" && got != "Muted by the rules: it is night. Nobody is heard." {
					t.Errorf("%s: %s's voice state at night: %q", label, pages[s].Name, got)
				}
			}
			// No packet to any page all night: the stats against those
			// at its start, sampled for nightWatch while the night's
			// clock moves a tick a second (its deliveries as in a real
			// night), then the night's end.
			before := map[int]map[string]inbound{}
			for s, p := range pages {
				before[s] = p.inbound()
			}
			start, tick := time.Now(), time.Now()
			for {
				after := map[int]map[string]inbound{}
				for s, p := range pages {
					after[s] = p.inbound()
				}
				for s := range pages {
					if after[s]["pc"] == before[s]["pc"] {
						checkNoPackets(t, label, pages[s], before[s], after[s])
					}
				}
				nights++
				if v.Round >= 2 || time.Since(start) >= nightWatch {
					break // night 2 is the last step the test looks at: one sample will do
				}
				time.Sleep(100 * time.Millisecond) // sampling the night's stats for nightWatch
				if time.Since(tick) >= room.DefaultNightTick {
					clk.Advance(room.DefaultNightTick)
					tick = time.Now()
				}
			}
			if v.Round < 2 {
				clk.Advance(nightLen) // past the night's end
			}
		case v.Speaker != 0:
			s := v.Speaker
			floors++
			var want []int
			if slices.Contains(mics, s) {
				want = []int{s}
				if last != 0 && last != s && slices.Contains(mics, last) {
					changes++
				}
				last = s
			}
			for _, p := range pages {
				if p.seat != s {
					p.waitHears(label, want, seats, nil)
				}
			}
			if p := pages[s]; p != nil && len(want) == 1 {
				if got := eval[string](p, `document.querySelector('#voice-state').textContent`); got != "Your floor: everyone hears you." {
					t.Errorf("%s: the speaker's voice state: %q", label, got)
				}
				if n := eval[int](p, `document.querySelectorAll('.seat.voice-heard').length`); n != 1 {
					t.Errorf("%s: %d seats marked heard on the speaker's page, want 1", label, n)
				}
			}
			switch {
			case len(want) == 1 && changes >= 1 && !fouled:
				// The host's foul cuts the floor: silence until it moves.
				host.send(wire.ClientMessage{Type: "host", Action: "foul", Target: s})
				for _, p := range pages {
					if p.seat != s {
						p.waitHears(label+" after a foul", nil, seats, nil)
					}
				}
				pages[s].WaitJS(10*time.Second, `document.querySelector('#voice-state').textContent === 'Muted: the host cut your floor (a foul).'`)
				fouled = true
			case len(want) == 1 && fouled && !reloaded:
				// A page reloaded during the floor joins again and hears it.
				l := pages[2]
				if s == 2 {
					l = pages[3]
				}
				l.Do(30*time.Second, chromedp.Reload())
				l.WaitJS(20*time.Second, `!!window.__mafia && !!window.__mafia.voice`)
				l.waitVoiceOn()
				l.monitor()
				l.waitHears(label+" after a reload", want, seats, nil)
				reloaded = true
			}
			if s == 1 || s == 5 {
				// Two candidates, so that a vote follows the speeches.
				m := wire.ClientMessage{Type: "command", Verb: "nominate", Step: v.Step}
				if s == 1 {
					m.Target = 5
				} else {
					m.Target = 1
				}
				if v.Round == 1 && v.Phase == "speech" {
					send(go1, pages[s], m)
				}
			}
			send(go1, pages[s], wire.ClientMessage{Type: "command", Verb: "pass", Step: v.Step})
		case v.Phase == "vote" || v.Phase == "revote" || v.Phase == "all_vote":
			for _, p := range pages {
				p.waitSilent(label, seats, nil)
			}
			votes++
			// Nobody votes: the vote's clock runs out.
			clk.Advance(voteLen)
		}
		if v.Phase == "night" && v.Round >= 2 {
			break
		}
		host.waitView("the next step", func(n *wire.View) bool { return n.Step > v.Step })
	}
	logLatencies(t, pages, unit.stop(), mics)
	if nights < 1 || floors < 4 || changes < 1 || votes < 1 || !fouled || !reloaded {
		t.Fatalf("the game covered too little: %d nights, %d floors, %d floor changes, %d votes, fouled %v, reloaded %v",
			nights, floors, changes, votes, fouled, reloaded)
	}
	t.Logf("covered: %d night samples, %d floors, %d floor changes, %d votes, a foul, a reload", nights, floors, changes, votes)
}

// The hearing test's night and vote, on its table's clock, and how long it
// watches a night for packets (a microphone sends some fifty a second,
// one in DTX every 400 ms or so: a leak shows within the first).
const (
	nightLen   = 12 * time.Second
	voteLen    = 6 * time.Second
	nightWatch = 3 * time.Second
)

// send sends a seat's command: the test's connection for seat 1, else the
// seat's page.
func send(go1 *goConn, p *page, m wire.ClientMessage) {
	if p == nil {
		go1.send(m)
		return
	}
	js := fmt.Sprintf(`window.__mafia.send({type: 'command', verb: %q, target: %d || undefined, step: %d}).then(() => true)`, m.Verb, m.Target, m.Step)
	eval[bool](p, js)
}

// checkNoPackets fails the test if a page got a packet on any track between
// two of its getStats.
func checkNoPackets(t *testing.T, label string, p *page, a, b map[string]inbound) {
	t.Helper()
	for k, x := range b {
		if x.Packets != a[k].Packets || x.Bytes != a[k].Bytes {
			t.Errorf("%s: %s got %d packets (%d bytes) on seat %s's track", label, p.Name, x.Packets-a[k].Packets, x.Bytes-a[k].Bytes, k)
		}
	}
}

// logEntry is one line of the page's voice log or of its analysers.
type logEntry struct {
	At      float64 `json:"at"`
	Kind    string  `json:"kind"`
	Speaker int     `json:"speaker"`
	Heard   []int   `json:"heard"`
	Seat    int     `json:"seat"`
	On      bool    `json:"on"`
	Hz      float64 `json:"hz"`
}

// logLatencies logs, for the record, how long after each step's frame (or
// the foul's voice state) each page's analyser heard the new floor's tone
// start, or the closed floor's stop: the analyser's window (1024 samples,
// 21 ms) and its 20 ms poll are in the figures. It logs the hops too: when
// the unit decided (who is heard changed), when it forwarded the new
// floor's first packet to that page (or the closed floor's silence), and
// when the page's receiver handed the first packet's audio to the track.
func logLatencies(t *testing.T, pages map[int]*page, u unitTimes, mics []int) {
	var on, off, onDecided, onSent, onTrack, offDecided, offSent, rejoined []float64
	for _, p := range pages {
		var log, evs []logEntry
		log = eval[[]logEntry](p, `window.__mafia.voice.log`)
		evs = eval[[]logEntry](p, `window.__vt.events`)
		origin := eval[float64](p, `window.__vt.origin`)
		epoch := func(at float64) time.Time { return time.UnixMicro(int64((origin + at) * 1000)) }
		first := false   // the next state is the first after a join
		var before []int // who was heard before this state
		for i, e := range log {
			if e.Kind == "join" {
				first = true
			}
			if e.Kind != "state" {
				continue
			}
			at := stepOf(log, i)
			from := epoch(at)
			was := before
			before = e.Heard
			if first {
				// The first state after a join (the page reloaded during a
				// floor) is no change of floor: its sound comes once the new
				// connection is up, logged apart.
				first = false
				if len(e.Heard) == 1 && e.Heard[0] != p.seat {
					rejoined = append(rejoined, firstAfter(evs, "", e.Heard[0], at))
				}
				continue
			}
			if len(e.Heard) == 1 && tones[e.Heard[0]] > 0 && e.Heard[0] != p.seat {
				x := e.Heard[0]
				for _, ev := range evs {
					if ev.Kind == "" && ev.Seat == x && ev.On && ev.At >= at-50 {
						on = append(on, ev.At-at)
						onDecided = append(onDecided, u.after(u.changed, from))
						onSent = append(onSent, u.after(u.opened[[2]int{p.seat, x}], from))
						onTrack = append(onTrack, firstAfter(evs, "src", x, at))
						break
					}
				}
			}
			if len(was) == 1 && tones[was[0]] > 0 && was[0] != p.seat && !slices.Contains(e.Heard, was[0]) {
				// The floor that closed (to nobody, or to another seat),
				// when it was a seat with a tone (a floor without one has
				// no sound to stop): its stop.
				for _, ev := range evs {
					if ev.Kind == "" && !ev.On && ev.At >= at-50 && ev.Seat == was[0] {
						off = append(off, ev.At-at)
						offDecided = append(offDecided, u.after(u.changed, from))
						offSent = append(offSent, u.after(u.closed[[2]int{p.seat, ev.Seat}], from))
						break
					}
				}
			}
		}
	}
	t.Logf("a new floor heard after (ms): %s", quantiles(on))
	t.Logf("  the unit decided after: %s", quantiles(onDecided))
	t.Logf("  its first packet forwarded after: %s", quantiles(onSent))
	t.Logf("  its first audio at the page's track after: %s", quantiles(onTrack))
	next, gap := u.micHops(mics)
	t.Logf("  (the unit read the new floor's next packet after the change: %s)", quantiles(next))
	t.Logf("  (that packet's gap from the one before: %s)", quantiles(gap))
	t.Logf("silence after a floor closed (ms): %s", quantiles(off))
	t.Logf("  the unit decided after: %s", quantiles(offDecided))
	t.Logf("  its silence forwarded after: %s", quantiles(offSent))
	t.Logf("a page joined during a floor heard it after (ms, from its first state; not a change of floor): %s", quantiles(rejoined))
	t.Logf("packets a second read from each microphone: %v", u.rate)
	for _, p := range pages {
		t.Logf("%s's jitter buffers: %s", p.Name, eval[string](p, `window.__vt.buffers()`))
	}
}

// stepOf is when the page got the step frame of the state entry log[i]
// (who is heard changed): the state and its step come together, either
// first, so the earlier of the state and the step entry next to it on
// either side, within a second, that is its step (no other state between
// them; its floor the state's one seat heard, or nobody's when nobody
// is). Not any step within a second: a short floor before (a seat
// without a microphone passes at once) would be taken for the new
// floor's, and every hop measured from it.
func stepOf(log []logEntry, i int) float64 {
	e := log[i]
	at := e.At
	mine := func(st logEntry) bool {
		switch len(e.Heard) {
		case 0:
			return st.Speaker == 0
		case 1:
			return st.Speaker == e.Heard[0]
		}
		return true // the lobby, the end: everyone
	}
	for _, dir := range []int{-1, 1} {
		for j := i + dir; j >= 0 && j < len(log); j += dir {
			if log[j].Kind == "state" {
				break
			}
			if log[j].Kind == "step" {
				if math.Abs(log[j].At-e.At) < 1000 && mine(log[j]) {
					at = min(at, log[j].At)
				}
				break
			}
		}
	}
	return at
}

// firstAfter is when the first event of kind for seat came at or after
// at-50 ms, less at (NaN: none).
func firstAfter(evs []logEntry, kind string, seat int, at float64) float64 {
	for _, ev := range evs {
		if ev.Kind == kind && ev.Seat == seat && ev.At >= at-50 {
			return ev.At - at
		}
	}
	return math.NaN()
}

func quantiles(all []float64) string {
	var xs []float64
	for _, x := range all {
		if !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	if len(xs) == 0 {
		return "none"
	}
	sort.Float64s(xs)
	q := func(f float64) float64 { return xs[min(len(xs)-1, int(f*float64(len(xs))))] }
	return fmt.Sprintf("n=%d p50=%.0f p90=%.0f max=%.0f all=%.0f", len(xs), q(0.5), q(0.9), xs[len(xs)-1], xs)
}

// TestStepOf_AStateIsMatchedToItsOwnStep pins how the hearing test finds
// the step frame a latency is measured from: a short floor before the
// new one (seat 1, a seat without a microphone, passes at once) is not the
// new floor's step, though it came less than a second before its state.
func TestStepOf_AStateIsMatchedToItsOwnStep(t *testing.T) {
	step := func(at float64, speaker int) logEntry { return logEntry{At: at, Kind: "step", Speaker: speaker} }
	state := func(at float64, heard ...int) logEntry { return logEntry{At: at, Kind: "state", Heard: heard} }
	for _, tc := range []struct {
		name string
		log  []logEntry
		i    int
		want float64
	}{
		{"the step just before its state", []logEntry{step(100, 2), state(105, 2)}, 1, 100},
		{"the state before its step", []logEntry{state(100, 2), step(130, 2)}, 0, 100},
		{"the step comes after its state", []logEntry{state(130, 2), step(100, 2)}, 0, 100},
		{"a short floor before is not the new floor's step",
			[]logEntry{step(0, 1), state(5, 1), step(380, 2), state(390, 2)}, 3, 380},
		{"a short floor's step before a state that came first",
			[]logEntry{step(0, 1), state(5, 1), state(300, 2), step(380, 2)}, 2, 300},
		{"a step a second away is another's", []logEntry{step(0, 2), state(1500, 2)}, 1, 1500},
		{"a foul's silence has no step", []logEntry{step(0, 2), state(5, 2), state(900)}, 2, 900},
		{"the vote's silence: its step says nobody", []logEntry{state(5, 2), step(800, 0), state(810)}, 2, 800},
		{"other entries between", []logEntry{step(100, 3), {At: 102, Kind: "pc"}, state(110, 3)}, 2, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := stepOf(tc.log, tc.i); got != tc.want {
				t.Errorf("stepOf = %v, want %v", got, tc.want)
			}
		})
	}
}
