package voice_test

import (
	"fmt"
	"testing"

	"mafia/engine"
	"mafia/voice"
	"mafia/wire"
)

// TestVoice_ANewFloorsFirstPacketIsItsNextOne pins the unit's part of the
// time a listener waits for a new floor, in packets, not in wall time:
// with every microphone talking without pause (a packet each 20 ms, as a
// phone's), when the floor moves to a seat the first packet of its that the
// unit forwards to each listener is the first it read after the change (or
// the one it was reading as the change came): none is held back or lost,
// so the unit adds at most one frame. And the floor that closes ends at the
// change itself: every listener's run of it ends with its silence in the
// same step of the unit (the same instant) as the change, not at the
// next packet.
func TestVoice_ANewFloorsFirstPacketIsItsNextOne(t *testing.T) {
	const n = 5
	tb := openTable(t, n)
	all := []int{1, 2, 3, 4, 5}
	tb.waitHeard(all)
	stop := make(chan struct{})
	defer close(stop)
	for s := 1; s <= n; s++ {
		go tb.seats[s].talk(stop)
	}
	// Every listener gets every other seat's stream: the lobby's runs open.
	tb.waitServer("the lobby's runs under way", func(st voice.Stats) bool {
		for _, l := range st.Listeners {
			for s := 1; s <= n; s++ {
				if engine.Seat(s) != l.Seat && l.Packets[s] < 10 {
					return false
				}
			}
		}
		return true
	})
	tb.host.send(wire.ClientMessage{Type: "host", Action: "start"})
	st := tb.waitServer("the night", func(st voice.Stats) bool { return st.Heard == 0 && !st.Changed.IsZero() })
	for _, l := range st.Listeners {
		for s := 1; s <= n; s++ {
			if engine.Seat(s) != l.Seat && !l.Closed[s].Equal(st.Changed) {
				t.Errorf("the lobby's close: seat %d's run to seat %d's connection closed at %v, the change was at %v", s, l.Seat, l.Closed[s], st.Changed)
			}
		}
	}
	floors := 0
	for last := engine.Seat(0); floors < 2; {
		tb.host.waitFor("a floor", func() bool {
			return tb.host.view != nil && tb.host.view.Speaker != 0 && engine.Seat(tb.host.view.Speaker) != last
		})
		tb.host.mu.Lock()
		v := *tb.host.view
		tb.host.mu.Unlock()
		x := engine.Seat(v.Speaker)
		label := fmt.Sprintf("step %d (floor %d)", v.Step, x)
		// Each listener's run of the floor open (its first packet gone).
		st := tb.waitServer(label+": the floor's runs open", func(st voice.Stats) bool {
			if st.Heard != engine.SeatSet(0).With(x) {
				return false
			}
			for _, l := range st.Listeners {
				if l.Seat != x && l.Opened[x].Before(st.Changed) {
					return false
				}
			}
			return true
		})
		for _, l := range st.Listeners {
			if l.Seat == x {
				continue
			}
			if d := l.OpenedIn[x] - st.InAtChange[x]; d < 0 || d > 1 {
				t.Errorf("%s: seat %d's connection got the floor's packet %d first, the unit had read %d at the change: %d packets held back",
					label, l.Seat, l.OpenedIn[x], st.InAtChange[x], d-1)
			}
			if last != 0 && !l.Closed[last].Equal(st.Changed) && l.Seat != last {
				t.Errorf("%s: the closed floor's run (seat %d) to seat %d's connection closed at %v, the change was at %v", label, last, l.Seat, l.Closed[last], st.Changed)
			}
		}
		floors++
		last = x
		tb.seats[x].send(wire.ClientMessage{Type: "command", Verb: "pass", Step: v.Step})
	}
}
