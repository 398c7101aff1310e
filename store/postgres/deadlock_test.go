package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mafia/store"
)

// TestRenewAllAndGroupCommitsNeverDeadlock: a node renews the leases of
// many tables (RenewAll) while batches of fenced appends to the same tables
// commit, as a node under load does every few seconds. The two must lock
// the leases' rows in one order: PostgreSQL then never aborts either for a
// deadlock (its own count of them, pg_stat_database.deadlocks, stays as it
// was, and the store retried nothing), no append fails, and a renewal
// fails only by the lock timeout below, at least one being made.
// Bounded: a few hundred rounds of each, or 20 seconds.
//
// A renewal that waited for a batch's rows past leaseLockTimeout (5 s of
// the wall clock) ends in a lock timeout, which a node meets by renewing
// again at its next round: so does the test, counting them. A loaded
// machine's slow commits made one (-race -short -count=2 beside other
// packages). A deadlock is not hidden so: PostgreSQL finds one after its
// deadlock_timeout (1 s), before the lock timeout, and aborts it (40P01),
// which the store retries and counts (WriteStats().Retried, checked).
func TestRenewAllAndGroupCommitsNeverDeadlock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := open(t)
	evs := botLog(t, 31)
	const tables = 120
	ids := make([]string, tables)
	leases := make([]store.Lease, tables)
	for i := range ids {
		// Names whose order is not the order they were made in, so that
		// the rows lie in the heap in another order than the names'.
		ids[i] = fmt.Sprintf("%c%03d", 'a'+(i*7)%26, i)
		create(t, db, ids[i])
	}
	// Each lease taken, then renewed once alone at random, so that the
	// rows' places in the heap are shuffled.
	for _, i := range rand.New(rand.NewPCG(1, 2)).Perm(tables) {
		l, err := db.Acquire(ctx, ids[i], "node-a", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		leases[i] = l
	}
	deadlocksBefore := pgDeadlocks(t, db)
	retriedBefore := db.WriteStats().Retried

	var (
		stop     atomic.Bool
		failures atomic.Int64
		waited   atomic.Int64 // renewals ended by the lock timeout
		renewed  atomic.Int64 // renewals made
		first    atomic.Value
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		failures.Add(1)
		first.CompareAndSwap(nil, err.Error())
		stop.Store(true)
	}
	deadline := time.Now().Add(20 * time.Second)
	const rounds = 300
	// Two renewers, each giving the leases in an order of its own.
	for w := range 2 {
		wg.Go(func() {
			src := rand.New(rand.NewPCG(uint64(w), 9))
			ls := append([]store.Lease(nil), leases...)
			for r := 0; r < rounds && !stop.Load() && time.Now().Before(deadline); r++ {
				src.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
				got, err := db.RenewAll(ctx, ls, time.Hour)
				if sqlState(err) == codeLockTimeout {
					waited.Add(1)
					continue
				}
				if err != nil {
					fail(err)
					return
				}
				if len(got) != len(ls) {
					fail(fmt.Errorf("renewed %d of %d leases", len(got), len(ls)))
					return
				}
				renewed.Add(1)
			}
		})
	}
	// Three group commits, each of appends to every third table (in the
	// order the writer sorts a batch in), so that each batch locks the
	// leases of 40 tables spread over the names.
	for w := range 3 {
		wg.Go(func() {
			var mine []int
			for i := w; i < tables; i += 3 {
				mine = append(mine, i)
			}
			next := make([]int, tables)
			for r := 0; r < rounds && !stop.Load() && time.Now().Before(deadline); r++ {
				batch := make([]*appendReq, 0, len(mine))
				for _, i := range mine {
					rq := req(t, db, ids[i], next[i], evs[next[i]%len(evs):next[i]%len(evs)+1], nil, nil)
					rq.fenced, rq.token = true, leases[i].Token
					batch = append(batch, rq)
				}
				db.commit(batch)
				for k, rq := range batch {
					if rq.Err != nil {
						fail(rq.Err)
						return
					}
					next[mine[k]]++
				}
			}
		})
	}
	wg.Wait()
	if n := waited.Load(); n > 0 {
		t.Logf("%d renewals waited past the lease's lock timeout, and were made again at the next round", n)
	}
	if n := failures.Load(); n > 0 {
		t.Errorf("%d renewals or appends failed; the first: %v", n, first.Load())
	}
	if renewed.Load() == 0 && failures.Load() == 0 {
		t.Errorf("no renewal was made (%d ended by the lock timeout): the renewals were never tested against the commits", waited.Load())
	}
	if n := db.WriteStats().Retried - retriedBefore; n > 0 {
		t.Errorf("the store retried %d transactions PostgreSQL aborted (deadlock or serialization)", n)
	}
	if n := pgDeadlocks(t, db) - deadlocksBefore; n > 0 {
		t.Errorf("PostgreSQL detected %d deadlocks", n)
	}
}

// pgDeadlocks is PostgreSQL's count of the deadlocks it detected in the
// store's database, as it stands once every backend has reported (stats
// reach the shared counts when a backend goes idle, at most a second or so
// later: the test waits for two reads in a row to agree).
func pgDeadlocks(t *testing.T, db *DB) int64 {
	t.Helper()
	ctx := context.Background()
	read := func() int64 {
		var n int64
		if _, err := db.pool.Exec(ctx, `SELECT pg_stat_clear_snapshot()`); err != nil {
			t.Fatal(err)
		}
		if err := db.pool.QueryRow(ctx, `SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Backends flush their counts when idle, within about a second.
	prev := read()
	for range 3 {
		time.Sleep(1100 * time.Millisecond)
		n := read()
		if n == prev {
			return n
		}
		prev = n
	}
	return prev
}

// codeLockTimeout is PostgreSQL's lock_not_available, a lock_timeout's
// end.
const codeLockTimeout = "55P03"
