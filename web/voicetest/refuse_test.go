package voicetest_test

import (
	"testing"
	"time"
)

// TestVoice_PagesRefused: a page at a table without voice shows no voice
// panel (and never loads voice.js, which only a page that may use the
// voice imports), and the server refuses its voice message voice_off; a page at a
// voice table that names another seat is refused voice_not_your_seat; a
// spectator of a table whose voice is its players' only sees no panel and
// is refused voice_no_spectators. Each refusal says why in the page's
// language.
func TestVoice_PagesRefused(t *testing.T) {
	r := newRig(t)
	b := browsers[2]
	join := func(p *page, extra string) map[string]string {
		return eval[map[string]string](p, `window.__mafia.conn.send({type: 'voice', action: 'join'`+extra+`}).then((m) => ({type: m.type, code: m.code || '', message: m.message || ''}))`)
	}
	cases := []struct {
		rule, voice string
		seat        int
		extra       string
		panel       bool
		code, text  string
	}{
		{"a table without voice", "", 1, "", false, "voice_off", "This table has no voice: its host made it without."},
		{"another seat's voice", "seats", 1, ", seat: 2, mic: true", true, "voice_not_your_seat", "Seat 2 is not yours: your voice goes out only from your own seat."},
		{"a spectator where only the players talk", "seats", 0, "", false, "voice_no_spectators", "This table's voice is for its players only: spectators do not listen."},
	}
	for _, c := range cases {
		id, _ := r.create(t, 5, c.voice, nil)
		p := r.openPage(t, b, id, c.seat)
		p.WaitJS(10*time.Second, `!!window.__mafia.state.lobby`)
		if got := eval[bool](p, `!document.querySelector('#t-voice').hidden && !!document.querySelector('#voice-listen')`); got != c.panel {
			t.Errorf("%s: the voice panel shown %v, want %v", c.rule, got, c.panel)
		}
		// voice.js is imported only where the page may use the voice.
		if got := eval[bool](p, `performance.getEntriesByType('resource').some((r) => r.name.endsWith('/voice.js'))`); got != c.panel {
			t.Errorf("%s: voice.js loaded %v, want %v", c.rule, got, c.panel)
		}
		got := join(p, c.extra)
		if got["type"] != "error" || got["code"] != c.code || got["message"] == "" {
			t.Errorf("%s: the join's answer %v, want the error %s with a sentence", c.rule, got, c.code)
		}
		if c.text != "" && got["message"] != c.text {
			t.Errorf("%s: the refusal says %q, want %q", c.rule, got["message"], c.text)
		}
		t.Logf("%s: %s: %s", c.rule, got["code"], got["message"])
	}
}
