package postgres

import (
	"context"
	"errors"
	"testing"
	"time"

	"mafia/store"
)

// TestUnfenced_AnAppendRacingAFirstLeaseIsRefused (issue 27 item 2: the
// group commit looked for a lease just before it queued an unfenced
// append, outside the append's transaction): a table's first lease is
// being taken (the lease written, not yet committed, as Acquire writes it)
// while an append without a fence is made to it. The append waits for the
// lease's transaction and, once it commits, is refused ErrUnfenced; the
// log is untouched. Before, the append went through beside the new lease.
// And so for the other unfenced writes (checkUnfenced, in their
// transactions): a clock saved unfenced is refused alike.
func TestUnfenced_AnAppendRacingAFirstLeaseIsRefused(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	log := botLog(t, 31)
	create(t, db, "other")
	if _, err := db.Acquire(ctx, "other", "node-a", time.Hour); err != nil { // leases in use on this store
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		write func(table string) error
	}{
		{"append", func(table string) error { return db.AppendEvents(ctx, table, 0, log[:2]) }},
		{"clock", func(table string) error {
			return db.SaveClock(ctx, table, store.Clock{Step: 1, Deadline: time.Unix(1, 0), Left: time.Second})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			table := "racing-" + c.name
			create(t, db, table)
			// The first lease, as Acquire takes it, in a transaction held open.
			tx, err := db.pool.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx)
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, table); err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO leases (table_id, node, token, expires)
				VALUES ($1, 'node-b', nextval('lease_tokens'), now() + interval '1 hour')`, table); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- c.write(table) }()
			// The write waits on the table's lock (an event PostgreSQL shows),
			// never done before the lease commits.
			waitCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			for {
				var waiting bool
				if err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
					WHERE wait_event_type = 'Lock' AND wait_event = 'advisory')`).Scan(&waiting); err != nil {
					t.Fatal(err)
				}
				if waiting {
					break
				}
				select {
				case err := <-done:
					t.Fatalf("the unfenced %s did not wait for the lease being taken: %v", c.name, err)
				case <-waitCtx.Done():
					t.Fatal("the unfenced write never waited on the table's lock")
				case <-time.After(5 * time.Millisecond):
				}
			}
			if err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			if err := <-done; !errors.Is(err, store.ErrUnfenced) {
				t.Errorf("the unfenced %s after the lease committed: %v, want ErrUnfenced", c.name, err)
			}
			if evs, err := db.Events(ctx, table); err != nil || len(evs) != 0 {
				t.Errorf("the log after the refused %s: %d events, %v", c.name, len(evs), err)
			}
		})
	}
}
