package postgres

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mafia/engine"
	"mafia/store"
	"mafia/store/internal/fence"
)

// The benchmarks commit appends together (the group commit), or each alone
// with PGBENCH_ALONE=1, on the caller's goroutine as a store without the
// writers would: run both, interleaved, to compare. PGBENCH_NODURABLE=1
// leaves the test server's fsync off. PGBENCH_FENCED=1 makes each game's
// appends of BenchmarkAppendConcurrent fenced by its table's lease, as a
// cluster's node makes them (store.Fenced): the price of fencing.

// durable turns the test server's fsync and synchronous commits on for a
// benchmark (pgtest starts it without them, for speed), and back off when
// it ends: what a benchmark measures is then a commit as production makes
// it, flushed to the disk before it returns.
func durable(b *testing.B, db *DB) {
	ctx := context.Background()
	set := func(v string) {
		for _, q := range []string{
			`ALTER SYSTEM SET fsync = ` + v,
			`ALTER SYSTEM SET synchronous_commit = ` + v,
			`ALTER SYSTEM SET full_page_writes = ` + v,
			`SELECT pg_reload_conf()`,
		} {
			if _, err := db.pool.Exec(ctx, q); err != nil {
				b.Fatal(err)
			}
		}
		db.pool.Reset() // new sessions read the settings
	}
	if os.Getenv("PGBENCH_NODURABLE") != "" {
		return
	}
	set("on")
	b.Cleanup(func() { set("off") })
}

// BenchmarkAppendConcurrent is store/sqlite's benchmark of the same name on
// PostgreSQL: 900 games, each in its own goroutine, append 2-event batches
// as fast as the store lets them; b.N is the number of appends in all. It
// reports appends and events per second and the median and 99th
// percentile time an append waits (with 900 callers and 16 connections,
// mostly queueing for a connection).
func BenchmarkAppendConcurrent(b *testing.B) {
	const games = 900
	ctx := context.Background()
	db := openB(b)
	log := botLogB(b)
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
		if err := db.CreateTable(ctx, store.Table{ID: id, Kind: store.KindOnline, Status: store.StatusPlaying}, nil); err != nil {
			b.Fatal(err)
		}
		if err := db.AppendEvents(ctx, id, 0, log[:1]); err != nil {
			b.Fatal(err)
		}
	}
	ctxs := make([]context.Context, games)
	for g := range games {
		ctxs[g] = ctx
		if os.Getenv("PGBENCH_FENCED") != "" {
			id := fmt.Sprintf("b%03d", g)
			l, err := db.Acquire(ctx, id, "bench", time.Hour)
			if err != nil {
				b.Fatal(err)
			}
			ctxs[g] = fence.With(ctx, id, l.Token)
		}
	}
	durable(b, db)
	db.alone = os.Getenv("PGBENCH_ALONE") != ""
	commits := db.commits.Load()
	var left atomic.Int64
	left.Store(int64(b.N))
	var wg sync.WaitGroup
	start := make(chan struct{})
	lat := make([][]time.Duration, games)
	for g := range games {
		id := fmt.Sprintf("b%03d", g)
		wg.Go(func() {
			<-start
			for n := 1; left.Add(-1) >= 0; n += 2 {
				t := time.Now()
				if err := db.AppendEvents(ctxs[g], id, n, pair); err != nil {
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
	b.ReportMetric(float64(b.N)/float64(db.commits.Load()-commits), "appends/commit")
	report(b, slices.Concat(lat...))
}

// BenchmarkAppendPaced is store/sqlite's benchmark of the same name: 900
// games each append a 2-event batch every 250 ms (3600 appends/s in all),
// b.N times each, and it reports how long an append waits for its commit.
// Run it with a fixed -benchtime, e.g. -benchtime=40x (10 s).
func BenchmarkAppendPaced(b *testing.B) {
	const (
		games = 900
		every = 250 * time.Millisecond
	)
	ctx := context.Background()
	db := openB(b)
	log := botLogB(b)
	pair := log[1:3]
	for g := range games {
		id := fmt.Sprintf("p%03d", g)
		if err := db.CreateTable(ctx, store.Table{ID: id, Kind: store.KindOnline, Status: store.StatusPlaying}, nil); err != nil {
			b.Fatal(err)
		}
		if err := db.AppendEvents(ctx, id, 0, log[:1]); err != nil {
			b.Fatal(err)
		}
	}
	durable(b, db)
	db.alone = os.Getenv("PGBENCH_ALONE") != ""
	commits := db.commits.Load()
	var wg sync.WaitGroup
	lat := make([][]time.Duration, games)
	b.ResetTimer()
	t0 := time.Now()
	for g := range games {
		id := fmt.Sprintf("p%03d", g)
		wg.Go(func() {
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
	b.ReportMetric(float64(len(all))/secs, "appends/s")
	b.ReportMetric(float64(len(all))/float64(db.commits.Load()-commits), "appends/commit")
	report(b, all)
}

// report gives the median, 99th percentile and longest of the latencies.
func report(b *testing.B, all []time.Duration) {
	slices.Sort(all)
	if len(all) > 0 {
		b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(all[len(all)-1].Microseconds())/1000, "max-ms")
	}
}
