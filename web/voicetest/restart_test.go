package voicetest_test

import (
	"testing"
	"time"
)

// TestVoice_APageAsksForARestartWhenItsNetworkChanges: a phone that
// changes networks (navigator.connection's change; the same code runs when
// the ICE connection goes disconnected or failed) asks the server for an
// ICE restart, answers its offer on the same peer connection (new ICE
// credentials, not a new join), and hears and is heard again: seats 2 and 3
// are pages with microphones in the lobby, where everyone hears everyone.
func TestVoice_APageAsksForARestartWhenItsNetworkChanges(t *testing.T) {
	r := newRig(t)
	id, _ := r.create(t, 5, "seats", nil)
	seats := []int{1, 2, 3, 4, 5}
	pages := map[int]*page{}
	for _, s := range []int{2, 3} {
		pages[s] = r.openPage(t, browsers[s], id, s)
		pages[s].tap("#voice-mic", `window.__mafia.voice.want === 'mic'`)
	}
	for _, p := range pages {
		p.waitVoiceOn()
		p.monitor()
	}
	pages[2].waitHears("the lobby", []int{3}, seats, nil)
	pages[3].waitHears("the lobby", []int{2}, seats, nil)

	moved := pages[3]
	ufrag := `(/a=ice-ufrag:(\S+)/.exec(window.__mafia.voice.pc.remoteDescription.sdp) || [])[1]`
	before := eval[string](moved, `(window.__vt.pc0 = window.__mafia.voice.pc, window.__vt.log0 = window.__mafia.voice.log.length, `+ufrag+`)`)
	eval[bool](moved, `(navigator.connection || window).dispatchEvent(new Event(navigator.connection ? 'change' : 'online'))`)
	since := `window.__mafia.voice.log.slice(window.__vt.log0)`
	deadline := time.Now().Add(slack * 20 * time.Second)
	for !eval[bool](moved, since+`.some((e) => e.kind === 'restarted') && window.__mafia.voice.pc && window.__mafia.voice.pc.signalingState === 'stable'`) {
		if time.Now().After(deadline) {
			t.Fatalf("the page never answered a restart's offer: its voice log since the change: %s", eval[string](moved, `JSON.stringify(`+since+`)`))
		}
		time.Sleep(50 * time.Millisecond) // polling the page: no event to wait on
	}
	if !eval[bool](moved, `window.__mafia.voice.pc === window.__vt.pc0`) {
		t.Error("the restart made a new peer connection (a join again), not a new path for the same one")
	}
	if after := eval[string](moved, ufrag); after == before || after == "" {
		t.Errorf("the server's ICE credentials after the restart: %q, before %q: no new offer was answered", after, before)
	}
	if n := eval[int](moved, since+`.filter((e) => e.kind === 'join').length`); n != 0 {
		t.Errorf("the page joined %d times after the change, want none (a restart is no join): %s", n, eval[string](moved, `JSON.stringify(`+since+`)`))
	}
	// Its path is new: it hears seat 2 and is heard by it.
	moved.waitHears("after the restart", []int{2}, seats, nil)
	pages[2].waitHears("after seat 3's restart", []int{3}, seats, nil)
	moved.WaitJS(slack*10*time.Second, `window.__mafia.voice.status === 'on'`)
}

// TestVoice_APageWhosePathFailsAsksForARestart: the network drops a page's
// ICE path (the unit's socket loses every datagram from and to the page's
// end of the pair in use, as a phone's lost path); the page's ICE
// connection goes disconnected, and after DISCONNECTED_WAIT (or at failed)
// the page asks for a restart by itself, answers the new offer on the same
// peer connection, its new candidates make a new path, and it hears and is
// heard again, without a join: seats 2 and 3 are pages with microphones in
// the lobby.
func TestVoice_APageWhosePathFailsAsksForARestart(t *testing.T) {
	r := newRig(t)
	id, _ := r.create(t, 5, "seats", nil)
	seats := []int{1, 2, 3, 4, 5}
	pages := map[int]*page{}
	for _, s := range []int{2, 3} {
		pages[s] = r.openPage(t, browsers[s], id, s)
		pages[s].tap("#voice-mic", `window.__mafia.voice.want === 'mic'`)
	}
	for _, p := range pages {
		p.waitVoiceOn()
		p.monitor()
	}
	pages[2].waitHears("the lobby", []int{3}, seats, nil)
	pages[3].waitHears("the lobby", []int{2}, seats, nil)

	lost := pages[3]
	ufrag := `(/a=ice-ufrag:(\S+)/.exec(window.__mafia.voice.pc.remoteDescription.sdp) || [])[1]`
	before := eval[string](lost, `(window.__vt.pc0 = window.__mafia.voice.pc, window.__vt.log0 = window.__mafia.voice.log.length, `+ufrag+`)`)
	// The page's end of the pair in use (getStats: the transport's
	// selected pair's local candidate).
	port := eval[int](lost, `window.__mafia.voice.pc.getStats().then((rs) => {
		let pair = '', local = '';
		rs.forEach((x) => { if (x.type === 'transport' && x.selectedCandidatePairId) pair = x.selectedCandidatePairId; });
		rs.forEach((x) => { if (x.id === pair) local = x.localCandidateId; });
		let port = 0;
		rs.forEach((x) => { if (x.id === local) port = x.port; });
		return port;
	})`)
	if port == 0 {
		t.Fatal("the page's selected candidate pair has no local port")
	}
	r.udp.cutPort(port)
	since := `window.__mafia.voice.log.slice(window.__vt.log0)`
	deadline := time.Now().Add(slack * 60 * time.Second)
	for !eval[bool](lost, since+`.some((e) => e.kind === 'restarted') && window.__mafia.voice.pc && window.__mafia.voice.pc.signalingState === 'stable'`) {
		if time.Now().After(deadline) {
			t.Fatalf("the page never restarted its lost path: its voice log since the cut: %s", eval[string](lost, `JSON.stringify(`+since+`)`))
		}
		time.Sleep(100 * time.Millisecond) // polling the page: no event to wait on
	}
	why := eval[string](lost, since+`.find((e) => e.kind === 'restart').why`)
	if why != "ice_disconnected" && why != "ice_failed" {
		t.Errorf("the page's restart was for %q, want its ICE state (ice_disconnected or ice_failed)", why)
	}
	if !eval[bool](lost, `window.__mafia.voice.pc === window.__vt.pc0`) {
		t.Error("the restart made a new peer connection (a join again), not a new path for the same one")
	}
	if after := eval[string](lost, ufrag); after == before || after == "" {
		t.Errorf("the server's ICE credentials after the restart: %q, before %q: no new offer was answered", after, before)
	}
	if n := eval[int](lost, since+`.filter((e) => e.kind === 'join').length`); n != 0 {
		t.Errorf("the page joined %d times after the cut, want none (a restart is no join): %s", n, eval[string](lost, `JSON.stringify(`+since+`)`))
	}
	// A new path, not the cut one: it hears seat 2 and is heard by it.
	lost.waitHears("after the restart", []int{2}, seats, nil)
	pages[2].waitHears("after seat 3's restart", []int{3}, seats, nil)
	lost.WaitJS(slack*10*time.Second, `window.__mafia.voice.status === 'on'`)
	t.Logf("the page restarted for %s: its voice log since the cut: %s", why, eval[string](lost, `JSON.stringify(`+since+`)`))
}
