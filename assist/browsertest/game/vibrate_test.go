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
// The clock writes only what changed (timer.js: a phone's battery).
func TestTheSpeechClockVibratesAtTenSecondsAndAtZero(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "vibrate")
	h.Create(hosttest.GameSpec{Names: []string{"Nino", "Keti", "Zura", "Dato", "Lika", "Gela", "Tako"}, Deal: record.DealPass,
		Timings: map[string]int{"speech": 11}})
	// The phone's vibration, recorded from before the first speech.
	hosttest.Eval[bool](h.Tab, `(window.__vibrations = [], navigator.vibrate = (p) => { window.__vibrations.push(JSON.stringify(p)); return true; }, true)`)
	hosttest.Eval[bool](h.Tab, clockWrites)
	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "speech" }
	h.Play(d)
	// The first speech's 11 s run out.
	h.WaitJS(30*time.Second, `window.__vibrations.length >= 2`)
	got := hosttest.Eval[[]string](h.Tab, `window.__vibrations`)
	if len(got) != 2 || got[0] != "200" || got[1] != "[400,150,400]" {
		t.Errorf("the clock vibrated %v; want 200 at 10 s and [400,150,400] at 0", got)
	}
	// The clock wrote only what changed: its face once a second, no
	// class or width written again with the value it had (each such
	// write made the page lay out again, five times a second).
	if n := hosttest.Eval[int](h.Tab, `window.__clockWrites.face`); n < 10 {
		t.Errorf("the clock's face changed %d times in an 11 s speech run out; want at least 10", n)
	}
	if again := hosttest.Eval[[]string](h.Tab, `window.__clockWrites.again`); len(again) > 0 {
		t.Errorf("the clock wrote %d values it already showed, the first: %q", len(again), again[:min(3, len(again))])
	}
}

// clockWrites records, from now on, every write to a speech clock's face
// (its text) and to the face's and the bar's class and style: how many
// changed the face, and each that wrote a value already there.
const clockWrites = `(() => {
  const w = window.__clockWrites = { face: 0, again: [] };
  const clockEl = (el) => el.nodeType === 1 && el.matches('[data-t="clock"], .clock-bar');
  new MutationObserver((records) => {
    records.forEach((r, i) => {
      if (!clockEl(r.target)) return;
      if (r.type === 'childList') {
        const was = [...r.removedNodes].map((n) => n.textContent).join('');
        const now = [...r.addedNodes].map((n) => n.textContent).join('');
        if (was === now) w.again.push('text ' + now); else w.face++;
        return;
      }
      const next = records.slice(i + 1).find((q) => q.target === r.target && q.attributeName === r.attributeName);
      const now = next ? next.oldValue : r.target.getAttribute(r.attributeName);
      if (now === r.oldValue) w.again.push(r.attributeName + ' ' + now);
    });
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeOldValue: true, attributeFilter: ['class', 'style'] });
  return true;
})()`

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
