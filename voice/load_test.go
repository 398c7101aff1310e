package voice_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// TestVoiceLoad_ElevenPeers measures a `mafia serve --voice-udp` process's
// CPU with one 11-seat voice table of pion peers, every microphone on (50
// packets a second of 80 bytes each): in the lobby (every seat heard by
// every other: 110 streams out), at night (nobody) and in a speech (one
// seat to ten). It runs only when MAFIA_VOICE_LOAD_URL (the server's
// address) and MAFIA_VOICE_LOAD_PID (its process) are set: the figures go
// to docs/voice.md, and the peers' own CPU is not the server's.
func TestVoiceLoad_ElevenPeers(t *testing.T) {
	url, pidText := os.Getenv("MAFIA_VOICE_LOAD_URL"), os.Getenv("MAFIA_VOICE_LOAD_PID")
	if url == "" || pidText == "" {
		t.Skip("a measurement: set MAFIA_VOICE_LOAD_URL and MAFIA_VOICE_LOAD_PID (docs/voice.md)")
	}
	pid, _ := strconv.Atoi(pidText)
	const n = 11
	r := &rig{api: &client.API{Base: url}, hs: nil}
	id, host, tokens := r.createAt(t, url, n)
	seats := make([]*player, n+1)
	for s := 1; s <= n; s++ {
		seats[s] = r.dial(t, id, tokens[s], s)
		if a := seats[s].answer(seats[s].joinVoice(true)); a != "" {
			t.Fatal(a)
		}
	}
	for s := 1; s <= n; s++ {
		seats[s].connected()
	}
	stop := make(chan struct{})
	defer close(stop)
	for s := 1; s <= n; s++ {
		go seats[s].talk(stop)
	}
	hp := r.dial(t, id, host, 0)
	measure := func(label string) {
		c0, t0 := cpuTicks(t, pid), time.Now()
		time.Sleep(10 * time.Second) // a measurement's window
		c1, t1 := cpuTicks(t, pid), time.Now()
		share := float64(c1-c0) / 100 / t1.Sub(t0).Seconds()
		got := 0
		for s := 1; s <= n; s++ {
			seats[s].mu.Lock()
			got += len(seats[s].got)
			seats[s].mu.Unlock()
		}
		t.Logf("%s: server CPU %.1f%% of a core (packets received by the peers so far: %d)", label, share*100, got)
	}
	measure("lobby, 11 microphones, each heard by 10")
	hp.send(wire.ClientMessage{Type: "host", Action: "start"})
	hp.waitFor("the night", func() bool { return hp.view != nil && hp.view.Phase == "night" })
	measure("night, 11 microphones, nobody heard")
	hp.waitFor("a speech", func() bool { return hp.view != nil && hp.view.Speaker != 0 })
	measure(fmt.Sprintf("speech of seat %d, 11 microphones, one heard by 10", hp.view.Speaker))
}

// talk sends the player's microphone as a phone's does: a 20 ms frame of
// 80 bytes, 50 a second, until stop.
func (p *player) talk(stop <-chan struct{}) {
	tk := time.NewTicker(20 * time.Millisecond)
	defer tk.Stop()
	payload := make([]byte, 80)
	for {
		select {
		case <-stop:
			return
		case <-tk.C:
		}
		p.seq++
		p.ts += 960
		_ = p.mic.WriteRTP(rtpPacket(p.seq, p.ts, payload))
	}
}

// cpuTicks is a process's user and system CPU, in clock ticks (1/100 s).
func cpuTicks(t *testing.T, pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}
