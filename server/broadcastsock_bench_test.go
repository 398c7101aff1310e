//go:build unix

package server

import (
	"bytes"
	"context"
	rtmetrics "runtime/metrics"
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
// clients on loopback, in process: one seat says a line of the town's
// chat, the room queues it for every connection (the seat and
// spectators-1 spectators), and each iteration ends when every spectator
// has read it. It reports, per frame sent: the process's CPU (user +
// system, getrusage; the clients' reads are in it, the same work for any
// server), the goroutines started, and the context switches (voluntary
// and not), the load-independent proxies of what a frame costs the
// server's writers (docs/performance.md, issue 30 item 2).
func BenchmarkBroadcastToSockets(b *testing.B) {
	const spectators = 31
	ts := startServerWith(b, "", func(c *Config) {
		c.Limits.ChatRate, c.Limits.ChatBurst = 1e6, 1e6
		c.Limits.SeatChatRate, c.Limits.SeatChatBurst = 1e6, 1e6
		c.Rate, c.Burst = 1e6, 1e6
		c.Limits.AddrRate, c.Limits.AddrBurst = 1e6, 1e6
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tb := newTable(ctx, b, ts.api, client.CreateRequest{Name: "broadcast", Players: 6, TimingsMS: fastTimings}, seatsUpTo(1), 1)
	p := tb.players[0]
	if _, err := p.connect(ctx); err != nil {
		b.Fatal(err)
	}
	var heard atomic.Int64
	wake := make(chan struct{}, 1)
	var want atomic.Int64
	want.Store(-1)
	readers := make(chan struct{}, spectators)
	for i := 0; i < spectators; i++ {
		ws, _, err := websocket.Dial(ctx, wsURL(ts.api.Base, tb.id, 0, nil), nil)
		if err != nil {
			b.Fatal(err)
		}
		ws.SetReadLimit(1 << 20)
		defer ws.CloseNow()
		go func() {
			defer func() { readers <- struct{}{} }()
			for {
				_, data, err := ws.Read(ctx)
				if err != nil {
					return
				}
				if bytes.Contains(data, []byte(`"type":"chat"`)) && heard.Add(1) == want.Load() {
					wake <- struct{}{}
				}
			}
		}()
	}
	line := wire.ClientMessage{Type: "chat", Channel: "town", Text: strings.Repeat("a", 40)}
	say := func(n int) {
		want.Store(heard.Load() + int64(n)*spectators)
		for range n {
			if err := p.call(ctx, line); err != nil {
				b.Fatal(err)
			}
		}
		select {
		case <-wake:
		case <-ctx.Done():
			b.Fatalf("the spectators heard %d lines of %d", heard.Load(), want.Load())
		}
	}
	say(10) // every connection attached and warm
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
	cancel()
	for range spectators {
		<-readers
	}
}
