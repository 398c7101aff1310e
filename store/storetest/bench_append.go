package storetest

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mafia/engine"
	"mafia/store"
)

// BenchCommands is the store's part of a server's commands at the load of
// docs/performance.md's bench (10,000 players, 1 s think): 900 games, a
// goroutine each as a room, each appending a step's two events with the
// step's clock (AppendEventsClock) once every 800 ms, about 1,100 appends a
// second in all; b.N is the number of appends. Before the timer the store
// is given the logs of ended games (ended of them, a whole bot game's log
// each), so that its files and caches hold what a server's do after a
// while; the probe run of b.N = 1 skips them.
//
// It reports the process's CPU time per append (user + system: the store's
// writer and checkpointer, the callers' encoding and the benchmark's own
// pacing, which is small), appends per commit (a store.WriteCounter's), the
// share of commits the writer held to gather more and how long it held
// them (held/commit, held-ms: store.Gather), and each append's wait, p50
// and p99, and the bytes the process wrote per append (written-KiB/append,
// Linux: the WAL's and the checkpoints' writes). To see where a command's write goes,
// MAFIA_BENCH_CPUPROFILE=file profiles the timed appends alone (-cpuprofile
// would take in the ended games' filling too).
func BenchCommands(b *testing.B, open OpenB, ended int) {
	const (
		games = 900
		every = 800 * time.Millisecond
	)
	ctx := context.Background()
	db := open(b)
	log, _ := BotGame(b, 77)
	var pair []engine.Event
	for _, e := range log[1:] {
		if e.Kind != engine.EvGameEnded && e.Kind != engine.EvGameStarted {
			pair = append(pair, e)
		}
		if len(pair) == 2 {
			break
		}
	}
	if b.N == 1 {
		ended = 0
	}
	// The ended games, from 32 goroutines at once.
	var (
		fill sync.WaitGroup
		next atomic.Int64
	)
	for range 32 {
		fill.Go(func() {
			for i := int(next.Add(1)) - 1; i < ended; i = int(next.Add(1)) - 1 {
				id := fmt.Sprintf("e%05d", i)
				CreateTable(b, db, id)
				if err := db.AppendEvents(ctx, id, 0, log); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	fill.Wait()
	for g := range games {
		id := fmt.Sprintf("g%03d", g)
		CreateTable(b, db, id)
		if err := db.AppendEvents(ctx, id, 0, log[:1]); err != nil {
			b.Fatal(err)
		}
	}
	var before store.WriteStats
	wc, counts := db.(store.WriteCounter)
	if counts {
		before = wc.WriteStats()
	}
	var (
		left atomic.Int64
		wg   sync.WaitGroup
	)
	left.Store(int64(b.N))
	lat := make([][]time.Duration, games)
	b.ResetTimer()
	if path := os.Getenv("MAFIA_BENCH_CPUPROFILE"); path != "" && b.N > 1 {
		stop := profileCPU(b, path)
		defer stop()
	}
	cpu0, w0 := CPUTime(), Written()
	t0 := time.Now()
	for g := range games {
		id := fmt.Sprintf("g%03d", g)
		wg.Go(func() {
			tick := t0.Add(every * time.Duration(g) / games) // the games' moves spread over the period
			for n := 1; left.Add(-1) >= 0; n += len(pair) {
				time.Sleep(time.Until(tick))
				t := time.Now()
				c := store.Clock{Step: n, Deadline: t.Add(time.Minute)}
				if err := db.AppendEventsClock(ctx, id, n, pair, c); err != nil {
					b.Error(err)
					return
				}
				lat[g] = append(lat[g], time.Since(t))
				tick = tick.Add(every)
			}
		})
	}
	wg.Wait()
	cpu, w1 := CPUTime()-cpu0, Written()
	b.StopTimer()
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/append")
	if w0 >= 0 && w1 >= 0 {
		b.ReportMetric(float64(w1-w0)/1024/float64(b.N), "written-KiB/append")
	}
	if counts {
		after := wc.WriteStats()
		if n := after.Commits - before.Commits; n > 0 {
			b.ReportMetric(float64(after.Writes-before.Writes)/float64(n), "appends/commit")
			b.ReportMetric(float64(after.Gathered-before.Gathered)/float64(n), "held/commit")
		}
		if n := after.Gathered - before.Gathered; n > 0 {
			b.ReportMetric(float64((after.GatherTime-before.GatherTime).Microseconds())/1000/float64(n), "held-ms")
		}
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) > 0 {
		b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	}
}

// profileCPU writes a CPU profile to path until the func it returns is
// called.
func profileCPU(b *testing.B, path string) (stop func()) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			b.Error(err)
		}
	}
}
