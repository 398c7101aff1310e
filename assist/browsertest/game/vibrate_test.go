package game

import (
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestTheSpeechClockVibratesAtTenSecondsAndAtZero (issue 29, defect 8):
// besides its sounds, the speech clock vibrates the phone at 10 seconds
// left (once, short) and at 0 (twice), for a host whose phone is silent.
func TestTheSpeechClockVibratesAtTenSecondsAndAtZero(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "vibrate")
	h.Create(hosttest.GameSpec{Names: []string{"Nino", "Keti", "Zura", "Dato", "Lika", "Gela", "Tako"}, Deal: record.DealPass,
		Timings: map[string]int{"speech": 11}})
	// The phone's vibration, recorded from before the first speech.
	hosttest.Eval[bool](h.Tab, `(window.__vibrations = [], navigator.vibrate = (p) => { window.__vibrations.push(JSON.stringify(p)); return true; }, true)`)
	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "speech" }
	h.Play(d)
	// The first speech's 11 s run out.
	h.WaitJS(30*time.Second, `window.__vibrations.length >= 2`)
	got := hosttest.Eval[[]string](h.Tab, `window.__vibrations`)
	if len(got) != 2 || got[0] != "200" || got[1] != "[400,150,400]" {
		t.Errorf("the clock vibrated %v; want 200 at 10 s and [400,150,400] at 0", got)
	}
}

// TestTheSpeechClocksAudioRestsBetweenBeeps: the host's first tap unlocks
// the phone's audio, which is then suspended while nothing sounds (a
// running AudioContext renders silence without end: battery for nothing),
// resumed for the clock's beep at 10 seconds left, and suspended again
// after it.
func TestTheSpeechClocksAudioRestsBetweenBeeps(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "audio")
	h.Create(hosttest.GameSpec{Names: []string{"Nino", "Keti", "Zura", "Dato", "Lika", "Gela", "Tako"}, Deal: record.DealPass,
		Timings: map[string]int{"speech": 11}})
	h.WaitJS(10*time.Second, `window.__assistAudio() === 'suspended'`)
	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "speech" }
	h.Play(d)
	h.WaitJS(30*time.Second, `window.__assistResumed >= 1`)
	h.WaitJS(10*time.Second, `window.__assistAudio() === 'suspended'`)
}
