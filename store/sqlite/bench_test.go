package sqlite

import (
	"context"
	"fmt"
	"mafia/store/storetest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mafia/engine"
)

// BenchmarkAppendConcurrent has 900 games, each in its own goroutine, append
// 2-event batches as fast as the store lets them; b.N is the number of
// appends in all. It reports appends and events per second, the mean number
// of appends per group commit, and the median and 99th percentile time an
// append waits (with 900 callers always waiting, that is mostly queueing).
func BenchmarkAppendConcurrent(b *testing.B) {
	const games = 900
	ctx := context.Background()
	db, _ := openTest(b)
	log, _ := storetest.BotGame(b, 77)
	// Two mid-game events, appended over and over after the game's start.
	var pair []engine.Event
	for _, e := range log[1:] {
		if e.Kind != engine.EvGameEnded && e.Kind != engine.EvGameStarted {
			pair = append(pair, e)
		}
		if len(pair) == 2 {
			break
		}
	}
	for g := range games {
		id := fmt.Sprintf("b%03d", g)
		storetest.CreateTable(b, db, id)
		if err := db.AppendEvents(ctx, id, 0, log[:1]); err != nil {
			b.Fatal(err)
		}
	}
	var left atomic.Int64
	left.Store(int64(b.N))
	batchesBefore := db.batches.Load()
	var wg sync.WaitGroup
	start := make(chan struct{})
	lat := make([][]time.Duration, games) // each append's latency, per game
	for g := range games {
		id := fmt.Sprintf("b%03d", g)
		wg.Go(func() {
			<-start
			for n := 1; left.Add(-1) >= 0; n += 2 {
				t := time.Now()
				if err := db.AppendEvents(ctx, id, n, pair); err != nil {
					b.Error(err)
					return
				}
				lat[g] = append(lat[g], time.Since(t))
			}
		})
	}
	b.ResetTimer()
	t0 := time.Now()
	close(start)
	wg.Wait()
	secs := time.Since(t0).Seconds()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/secs, "appends/s")
	b.ReportMetric(float64(2*b.N)/secs, "events/s")
	if n := db.batches.Load() - batchesBefore; n > 0 {
		b.ReportMetric(float64(b.N)/float64(n), "appends/commit")
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) > 0 {
		b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	}
}

// BenchmarkAppendPaced has 900 games each append a 2-event batch every
// 250 ms (3600 appends/s in all, a busy server's load), b.N times each, and
// reports how long an append waits for its commit: the delay that "durable
// before visible" adds to every move. Run it with a fixed -benchtime, e.g.
// -benchtime=40x (10 s).
func BenchmarkAppendPaced(b *testing.B) {
	const (
		games = 900
		every = 250 * time.Millisecond
	)
	ctx := context.Background()
	db, _ := openTest(b)
	log, _ := storetest.BotGame(b, 77)
	pair := log[1:3]
	for g := range games {
		id := fmt.Sprintf("p%03d", g)
		storetest.CreateTable(b, db, id)
		if err := db.AppendEvents(ctx, id, 0, log[:1]); err != nil {
			b.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	lat := make([][]time.Duration, games)
	b.ResetTimer()
	t0 := time.Now()
	for g := range games {
		id := fmt.Sprintf("p%03d", g)
		wg.Go(func() {
			// Spread the games' ticks over the period.
			tick := t0.Add(every * time.Duration(g) / games)
			for i := range b.N {
				time.Sleep(time.Until(tick))
				t := time.Now()
				if err := db.AppendEvents(ctx, id, 1+2*i, pair); err != nil {
					b.Error(err)
					return
				}
				lat[g] = append(lat[g], time.Since(t))
				tick = tick.Add(every)
			}
		})
	}
	wg.Wait()
	secs := time.Since(t0).Seconds()
	b.StopTimer()
	all := slices.Concat(lat...)
	slices.Sort(all)
	b.ReportMetric(float64(len(all))/secs, "appends/s")
	if len(all) > 0 {
		b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(all[len(all)-1].Microseconds())/1000, "max-ms")
	}
}
