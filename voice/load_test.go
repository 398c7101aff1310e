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

// TestVoiceLoad_Tables measures a `mafia serve --voice-udp` process's CPU
// and memory with MAFIA_VOICE_LOAD_TABLES (default 1) 11-seat voice tables
// of synthetic pion peers in this process (each a real WebRTC peer: ICE,
// DTLS, SRTP; its microphone 50 packets a second of 80 bytes, a phone's 20
// ms Opus frames, not real Opus), every microphone on: in the lobby (every
// seat heard by every other: 110 streams out a table), at night (nobody)
// and in a speech (one seat to ten). It runs only when MAFIA_VOICE_LOAD_URL
// (the server's address) and MAFIA_VOICE_LOAD_PID (its process) are set:
// the figures go to docs/voice.md and docs/performance.md, and the peers'
// own CPU, logged too, is not the server's.
func TestVoiceLoad_Tables(t *testing.T) {
	url, pidText := os.Getenv("MAFIA_VOICE_LOAD_URL"), os.Getenv("MAFIA_VOICE_LOAD_PID")
	if url == "" || pidText == "" {
		t.Skip("a measurement: set MAFIA_VOICE_LOAD_URL and MAFIA_VOICE_LOAD_PID (docs/voice.md)")
	}
	pid, _ := strconv.Atoi(pidText)
	tables := 1
	if v := os.Getenv("MAFIA_VOICE_LOAD_TABLES"); v != "" {
		tables, _ = strconv.Atoi(v)
	}
	window := 10 * time.Second
	const n = 11
	r := &rig{api: &client.API{Base: url}, hs: nil}
	rss0 := rssKB(t, pid)
	type tbl struct {
		seats []*player
		host  *player
	}
	all := make([]tbl, tables)
	for i := range all {
		// A night long enough for a window, whichever table starts last.
		id, host, tokens := r.createAt(t, url, n, int64(window/time.Millisecond)*2+10000)
		all[i].seats = make([]*player, n+1)
		for s := 1; s <= n; s++ {
			p := r.dial(t, id, tokens[s], s)
			p.countOnly = true
			all[i].seats[s] = p
			if a := p.answer(p.joinVoice(true)); a != "" {
				t.Fatal(a)
			}
		}
		all[i].host = r.dial(t, id, host, 0)
	}
	for _, tb := range all {
		for s := 1; s <= n; s++ {
			tb.seats[s].connected()
		}
	}
	rss1 := rssKB(t, pid)
	stop := make(chan struct{})
	defer close(stop)
	for _, tb := range all {
		for s := 1; s <= n; s++ {
			go tb.seats[s].talk(stop)
		}
	}
	time.Sleep(2 * time.Second) // the streams under way before a window opens
	// counts is the packets the peers sent and received so far.
	counts := func() (sent, got int64) {
		for _, tb := range all {
			for s := 1; s <= n; s++ {
				sent += tb.seats[s].sent.Load()
				tb.seats[s].mu.Lock()
				got += tb.seats[s].received
				tb.seats[s].mu.Unlock()
			}
		}
		return sent, got
	}
	// measure logs the server's CPU over a window, and what it cost a
	// packet in and out: on a loaded machine the peers may send and get
	// fewer than a phone's 50 a second, and the CPU a packet is the
	// figure that carries over.
	type window_ struct{ cpu, in, out float64 }
	measure := func(label string) window_ {
		c0, s0, t0 := cpuTicks(t, pid), selfTicks(t), time.Now()
		in0, out0 := counts()
		time.Sleep(window)
		c1, s1, t1 := cpuTicks(t, pid), selfTicks(t), time.Now()
		in1, out1 := counts()
		secs := t1.Sub(t0).Seconds()
		share := float64(c1-c0) / 100 / secs
		self := float64(s1-s0) / 100 / secs
		w := window_{cpu: float64(c1-c0) / 100, in: float64(in1 - in0), out: float64(out1 - out0)}
		t.Logf("%d tables, %s: server CPU %.1f%% of a core (%.2f%% a table), packets in %.0f/s (a phone's rate: %d/s), out %.0f/s; its resident memory %d MB; the peers' process %.1f%%",
			tables, label, share*100, share*100/float64(tables), w.in/secs, tables*n*50, w.out/secs, rssKB(t, pid)/1024, self*100)
		return w
	}
	t.Logf("%d tables, %d peers: the server's resident memory %d MB before they joined, %d MB after: %.0f KB a peer",
		tables, tables*n, rss0/1024, rss1/1024, float64(rss1-rss0)/float64(tables*n))
	lobby := measure("lobby, 11 microphones a table, each heard by 10")
	for _, tb := range all {
		tb.host.send(wire.ClientMessage{Type: "host", Action: "start"})
	}
	for _, tb := range all {
		tb.host.waitFor("the night", func() bool { return tb.host.view != nil && tb.host.view.Phase == "night" })
	}
	night := measure("night, 11 microphones a table, nobody heard")
	for _, tb := range all {
		if ph, _ := now(tb.host); ph != "night" {
			t.Errorf("a table's night ended within the window (%s): the night's figure is not the night's", ph)
		}
	}
	for _, tb := range all {
		tb.host.waitFor("a speech", func() bool { return tb.host.view != nil && tb.host.view.Speaker != 0 })
	}
	measure("a speech, 11 microphones a table, one heard by 10")
	// The CPU a packet: in (read, decrypted, decided) from the night,
	// out (encrypted, sent) from the lobby less its packets in; a table
	// at a phone's rate reads 550 a second and sends 5,500 (lobby), 500
	// (a speech) or none (night).
	if night.in > 0 && lobby.out > 0 {
		in := night.cpu / night.in
		out := (lobby.cpu - in*lobby.in) / lobby.out
		perTable := func(outs float64) float64 { return 550*in + outs*out }
		t.Logf("the CPU a packet: %.1f µs in, %.1f µs out; so a table at a phone's rate: lobby %.1f%% of a core (%.0f tables a core), a speech %.1f%% (%.0f), night %.1f%% (%.0f)",
			in*1e6, out*1e6, perTable(5500)*100, 1/perTable(5500), perTable(500)*100, 1/perTable(500), perTable(0)*100, 1/perTable(0))
	}
	for _, tb := range all {
		if ph, speaker := now(tb.host); speaker == 0 {
			t.Errorf("a table's speech ended within the window (%s)", ph)
		}
	}
}

// now is the phase and the floor's seat of a connection's newest view.
func now(p *player) (string, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.view.Phase, int(p.view.Speaker)
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
		if p.mic.WriteRTP(rtpPacket(p.seq, p.ts, payload)) == nil {
			p.sent.Add(1)
		}
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

// selfTicks is this process's CPU (the peers'), in clock ticks.
func selfTicks(t *testing.T) int64 { return cpuTicks(t, os.Getpid()) }

// rssKB is a process's resident memory, in KB.
func rssKB(t *testing.T, pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}
