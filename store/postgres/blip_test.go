package postgres

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mafia/internal/pgtest"
	"mafia/store"
)

// TestAWritesWaitsOutADatabaseRestart: PostgreSQL restarted (stopped as a
// restart or a managed failover stops it, its sessions ended, then started
// again about two seconds later) while appends, clocks and chat lines are
// written: none fails; each is answered once it is committed, and every
// event answered is in the log, in order. The store's health says it was
// failing while the database was away and is well again from the first
// commit on. Bounded: 8 writers, each until the restart is over and 10 more
// appends.
//
// It stops the test binary's PostgreSQL, so it runs alone (not parallel).
func TestAWritesWaitsOutADatabaseRestart(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	evs := botLog(t, 5)
	const writers = 8
	var (
		wg       sync.WaitGroup
		restored atomic.Bool
		failures atomic.Int64
		first    atomic.Value
		counts   [writers]int
	)
	for w := range writers {
		create(t, db, fmt.Sprint("blip", w))
	}
	started, down := make(chan struct{}, writers), make(chan struct{})
	for w := range writers {
		wg.Go(func() {
			id := fmt.Sprint("blip", w)
			after := 0
			for n := 0; n < len(evs) && after < 10; n++ {
				var err error
				switch n % 3 {
				case 0:
					err = db.AppendEvents(ctx, id, n, evs[n:n+1])
				case 1:
					err = db.AppendEventsClock(ctx, id, n, evs[n:n+1], store.Clock{Step: n, Left: time.Second, Paused: true})
				default:
					if err = db.AppendEvents(ctx, id, n, evs[n:n+1]); err == nil {
						err = db.AppendChat(ctx, id, store.ChatLine{Channel: "day", Seat: 1, Name: "Nino", Text: "still here", At: time.Now()})
					}
				}
				if err != nil {
					failures.Add(1)
					first.CompareAndSwap(nil, err.Error())
					return
				}
				counts[w] = n + 1
				if n == 2 {
					started <- struct{}{}
					<-down // the next write meets the database away
				}
				if restored.Load() {
					after++
				}
			}
		})
	}
	for range writers {
		<-started
	}
	pgtest.Down(t)
	close(down)
	time.Sleep(2 * time.Second) // the database is away this long (the fault, not a wait for an event)
	downHealth := db.WriteHealth()
	pgtest.Up(t)
	restored.Store(true)
	wg.Wait()
	if n := failures.Load(); n > 0 {
		t.Fatalf("%d writers saw a write fail across the restart; the first: %v", n, first.Load())
	}
	for w := range writers {
		got, err := db.Events(ctx, fmt.Sprint("blip", w))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != counts[w] {
			t.Errorf("writer %d: %d appends answered, the log holds %d events", w, counts[w], len(got))
		}
	}
	if !downHealth.Failing(time.Now(), 0) {
		t.Errorf("while the database was away the store's health said well: %+v", downHealth)
	}
	if h := db.WriteHealth(); h.Failing(time.Now(), 0) {
		t.Errorf("after the writes committed again the store's health says failing: %+v", h)
	}
	t.Logf("%d tries again while the database was away", db.awayTries.Load())
}
