//go:build unix

package server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	rtmetrics "runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/wire"
)

// BenchmarkBroadcastToSockets is a room's broadcast to real WebSocket
// clients on loopback: one seat says a line of the town's chat, the room
// queues it for every connection (the seat's and spectators'), and each
// iteration ends when every spectator has read it. The spectators are in
// a process of their own (this test binary again, running
// TestBroadcastSpectators), so that what is counted is the server's (and
// the one seat's client): per frame sent, the process's CPU (user +
// system, getrusage), the goroutines started, and its threads' context
// switches (voluntary and not), the load-independent proxies of what a
// frame costs the server's writers (docs/performance.md, issue 30 item 2).
func BenchmarkBroadcastToSockets(b *testing.B) {
	const spectators = 99
	ts := startServerWith(b, "", func(c *Config) {
		c.Limits.ChatRate, c.Limits.ChatBurst = 1e6, 1e6
		c.Limits.SeatChatRate, c.Limits.SeatChatBurst = 1e6, 1e6
		c.Rate, c.Burst = 1e6, 1e6
		c.Limits.AddrRate, c.Limits.AddrBurst = 1e6, 1e6
		c.Limits.ConnsPerAddr = 256
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tb := newTable(ctx, b, ts.api, client.CreateRequest{Name: "broadcast", Players: 6, TimingsMS: fastTimings}, seatsUpTo(1), 1)
	p := tb.players[0]
	if _, err := p.connect(ctx); err != nil {
		b.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestBroadcastSpectators$")
	cmd.Env = append(os.Environ(), "MAFIA_SPECTATE="+wsURL(ts.api.Base, tb.id, 0, nil), "MAFIA_SPECTATORS="+strconv.Itoa(spectators))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		in.Close()
		_ = cmd.Wait()
	}()
	out := bufio.NewReader(outPipe)
	// One byte when every spectator is attached, then one per line every
	// spectator has read.
	heard := func(n int) {
		for range n {
			if _, err := out.ReadByte(); err != nil {
				b.Fatalf("the spectators' process: %v", err)
			}
		}
	}
	heard(1)
	line := wire.ClientMessage{Type: "chat", Channel: "town", Text: strings.Repeat("a", 40)}
	say := func(n int) {
		for range n {
			if err := p.call(ctx, line); err != nil {
				b.Fatal(err)
			}
		}
		heard(n)
	}
	say(10) // every connection warm
	samples := []rtmetrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	var ru0, ru1 syscall.Rusage
	rtmetrics.Read(samples)
	g0 := samples[0].Value.Uint64()
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	b.ResetTimer()
	for range b.N {
		say(1)
	}
	b.StopTimer()
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	rtmetrics.Read(samples)
	g1 := samples[0].Value.Uint64()
	frames := float64(b.N) * (spectators + 1)
	cpu := time.Duration(ru1.Utime.Nano() - ru0.Utime.Nano() + ru1.Stime.Nano() - ru0.Stime.Nano())
	b.ReportMetric(float64(cpu.Nanoseconds())/frames, "cpu-ns/frame")
	b.ReportMetric(float64(g1-g0)/frames, "goroutines/frame")
	b.ReportMetric(float64(ru1.Nvcsw-ru0.Nvcsw+ru1.Nivcsw-ru0.Nivcsw)/frames, "ctxsw/frame")
}

// TestBroadcastSpectators is BenchmarkBroadcastToSockets's spectators, run
// by it in a process of their own (skipped otherwise): MAFIA_SPECTATORS
// WebSockets to MAFIA_SPECTATE, one byte to stdout once all are attached
// (each has its welcome) and one each time every one of them has read one
// more chat line; it ends when stdin does.
func TestBroadcastSpectators(t *testing.T) {
	url := os.Getenv("MAFIA_SPECTATE")
	n, _ := strconv.Atoi(os.Getenv("MAFIA_SPECTATORS"))
	if url == "" || n == 0 {
		t.Skip("BenchmarkBroadcastToSockets runs it")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var heard atomic.Int64
	tell := make(chan struct{}, 1<<16)
	ended := make(chan struct{}, n)
	var conns []*websocket.Conn
	for range n {
		ws, _, err := websocket.Dial(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		ws.SetReadLimit(1 << 20)
		if _, _, err := ws.Read(ctx); err != nil { // the welcome
			t.Fatal(err)
		}
		conns = append(conns, ws)
	}
	os.Stdout.Write([]byte{'.'})
	for _, ws := range conns {
		go func() {
			defer func() { ended <- struct{}{} }()
			for {
				_, data, err := ws.Read(ctx)
				if err != nil {
					return
				}
				if bytes.Contains(data, []byte(`"type":"chat"`)) && heard.Add(1)%int64(n) == 0 {
					tell <- struct{}{}
				}
			}
		}()
	}
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	for {
		select {
		case <-tell:
			os.Stdout.Write([]byte{'.'})
		case <-ctx.Done():
			for _, ws := range conns {
				ws.CloseNow()
			}
			for range n {
				<-ended
			}
			return
		}
	}
}
