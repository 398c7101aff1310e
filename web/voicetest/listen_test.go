package voicetest_test

// What a page hears: an analyser on each seat's received track (the
// decoded audio: its loudest frequency and its level) and the page's
// getStats (inbound-rtp packets, bytes and level per seat's track).

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// monitorJS installs, once per page load, an analyser on every seat's
// received track (window.__vt): every 20 ms (about the analyser's window,
// so each sample is looked at once) it reads each track's loudest
// frequency and level, and keeps when each seat's sound starts and stops
// (performance.now(), the clock of the page's voice log). A 5 ms poll read
// each window four times: four pages' analysers, FFTs and receivers' sources
// 200 times a second took about a fifth of the hearing test's CPU (its
// renderers 17-18 CPU-s against 21-23 at 5 ms, two pairs at load 32-43).
const monitorJS = `(() => {
  if (window.__vt) return true;
  const ctx = new AudioContext();
  const mons = new Map();
  const vt = { cur: {}, events: [] };
  setInterval(() => {
    const v = window.__mafia && window.__mafia.voice;
    if (!v) return;
    for (const [seat, track] of v.tracks) {
      let m = mons.get(seat);
      if (!m || m.track !== track) {
        const an = ctx.createAnalyser();
        an.fftSize = 1024;
        an.smoothingTimeConstant = 0;
        ctx.createMediaStreamSource(new MediaStream([track])).connect(an);
        m = { track, an, buf: new Float32Array(an.frequencyBinCount), on: false };
        mons.set(seat, m);
      }
      m.an.getFloatFrequencyData(m.buf);
      let best = 1;
      for (let i = 2; i < m.buf.length; i++) if (m.buf[i] > m.buf[best]) best = i;
      const db = m.buf[best];
      const hz = best * ctx.sampleRate / m.an.fftSize;
      const on = db > -60;
      vt.cur[seat] = { hz, db: Number.isFinite(db) ? db : -999, on };
      if (on !== m.on) {
        m.on = on;
        vt.events.push({ at: performance.now(), seat, on, hz });
      }
    }
    // When each seat's packets reach its track again after a pause: the
    // receiver's newest source entry (its timestamp: when the packet's
    // audio was handed to the track, on the epoch's clock).
    if (v.pc) {
      for (const tr of v.pc.getTransceivers()) {
        const seat = v.seats.get(tr.mid);
        if (!seat || !tr.receiver) continue;
        const ss = tr.receiver.getSynchronizationSources();
        if (!ss.length) continue;
        const x = ss[0];
        const key = 'src' + seat;
        const prev = vt[key];
        if (!prev || prev.rtp !== x.rtpTimestamp) {
          if (!prev || x.timestamp - prev.ts > 100) vt.events.push({ at: x.timestamp - performance.timeOrigin, seat, kind: 'src' });
          vt[key] = { rtp: x.rtpTimestamp, ts: x.timestamp };
        }
      }
    }
  }, 20);
  vt.origin = performance.timeOrigin;
  vt.stats = async () => {
    const v = window.__mafia.voice;
    const out = {};
    if (!v.pc) return out;
    (await v.pc.getStats()).forEach((r) => {
      if (r.type !== 'inbound-rtp' || r.kind !== 'audio') return;
      const seat = v.seats.get(r.mid);
      if (seat) out[seat] = { packets: r.packetsReceived || 0, bytes: r.bytesReceived || 0, level: r.audioLevel || 0 };
    });
    out.pc = { packets: v.gen, bytes: 0, level: 0 }; // which join the counts are of
    return out;
  };
  // buffers sums up each seat's jitter buffer so far (getStats): its
  // average delay and target, and what it concealed, in ms.
  vt.buffers = async () => {
    const v = window.__mafia.voice;
    const out = [];
    if (!v.pc) return '';
    (await v.pc.getStats()).forEach((r) => {
      if (r.type !== 'inbound-rtp' || r.kind !== 'audio') return;
      const seat = v.seats.get(r.mid);
      const n = r.jitterBufferEmittedCount || 1;
      const ms = (x) => Math.round(1000 * (x || 0) / n);
      out.push('seat ' + seat + ': delay ' + ms(r.jitterBufferDelay) + ' target ' + ms(r.jitterBufferTargetDelay) + ' minimum ' + ms(r.jitterBufferMinimumDelay) +
        ' concealed ' + Math.round(1000 * (r.concealedSamples || 0) / 48000) + ' silent-concealed ' + Math.round(1000 * (r.silentConcealedSamples || 0) / 48000) + ' packets ' + r.packetsReceived);
    });
    return out.join('; ');
  };
  window.__vt = vt;
  return true;
})()`

// sound is one seat's track as a page's analyser hears it now.
type sound struct {
	Hz float64 `json:"hz"`
	DB float64 `json:"db"`
	On bool    `json:"on"`
}

// inbound is one seat's track in a page's getStats.
type inbound struct {
	Packets int64   `json:"packets"`
	Bytes   int64   `json:"bytes"`
	Level   float64 `json:"level"`
}

func (p *page) monitor() { eval[bool](p, monitorJS) }

func (p *page) sounds() map[string]sound {
	return eval[map[string]sound](p, `window.__vt.cur`)
}

func (p *page) inbound() map[string]inbound {
	return eval[map[string]inbound](p, `window.__vt.stats()`)
}

// waitHears waits until page p hears exactly the tones of the seats in
// want (each on its own track) and silence on every other track; it then
// checks, by getStats, that packets keep coming on those tracks and none
// on the others. (getStats's audioLevel is not checked: it is measured
// at playout, which a headless Chromium without a sound card may not run;
// the analysers read the decoded audio.)
//
// still, if not nil, says whether the step checked is still on: once it
// is not (a step the rules' clock ended while a loaded machine was slow),
// waitHears gives up without a verdict and returns false.
func (p *page) waitHears(label string, want []int, seats []int, still func() bool) bool {
	p.T.Helper()
	deadline := time.Now().Add(slack * 10 * time.Second)
	var why string
	for {
		got := p.sounds()
		why = ""
		for _, x := range seats {
			if x == p.seat {
				continue
			}
			c, ok := got[fmt.Sprint(x)]
			if slices.Contains(want, x) {
				if !ok || !c.On || math.Abs(c.Hz-tones[x]) > 60 {
					why += fmt.Sprintf(" seat %d's track: %+v, want %.0f Hz;", x, c, tones[x])
				}
			} else if ok && c.On {
				why += fmt.Sprintf(" seat %d's track sounds: %+v;", x, c)
			}
		}
		if why == "" {
			break
		}
		if still != nil && !still() {
			return false
		}
		if time.Now().After(deadline) {
			p.T.Fatalf("%s: %s hears the wrong thing:%s\nits voice: %s", label, p.Name, why,
				eval[string](p, `JSON.stringify({status: window.__mafia.voice.status, why: window.__mafia.voice.why, log: window.__mafia.voice.log.slice(-20)})`))
		}
		time.Sleep(20 * time.Millisecond) // polling the page's analysers: no event to wait on
	}
	// getStats: the tracks heard get packets, the others none.
	a := p.inbound()
	for {
		b := p.inbound()
		if b["pc"].Packets != a["pc"].Packets {
			// The page joined again (its connection dropped and came back
			// on a loaded machine): count on the new peer's tracks.
			a = b
			continue
		}
		grown := true
		for _, x := range want {
			if x != p.seat && b[fmt.Sprint(x)].Packets < a[fmt.Sprint(x)].Packets+10 {
				grown = false
			}
		}
		if grown {
			if still != nil && !still() {
				return false // another step
			}
			for _, x := range seats {
				k := fmt.Sprint(x)
				if x != p.seat && !slices.Contains(want, x) && b[k].Packets != a[k].Packets {
					p.T.Errorf("%s: %s got %d packets on seat %d's track, which is not heard", label, p.Name, b[k].Packets-a[k].Packets, x)
				}
			}
			return true
		}
		if time.Now().After(deadline) {
			p.T.Fatalf("%s: %s: no packets on the tracks heard (%v then %v)", label, p.Name, a, b)
		}
		if still != nil && !still() {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitSilent waits until page p's analysers hear nothing and returns its
// getStats then (nil if the step ended first).
func (p *page) waitSilent(label string, seats []int, still func() bool) map[string]inbound {
	p.T.Helper()
	if !p.waitHears(label, nil, seats, still) {
		return nil
	}
	return p.inbound()
}
