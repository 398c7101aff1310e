package sqlite

import (
	"context"
	"mafia/store/storetest"
	"testing"
	"time"

	"mafia/store"
)

// queueExec starts a write of its own (as SaveClock and RewriteEvents are)
// and waits until it is in the writer's queue.
func queueExec(t *testing.T, ctx context.Context, db *DB, f func(ctx context.Context, tx *wtx) error) <-chan error {
	t.Helper()
	before := db.wr.Waiting()
	ch := make(chan error, 1)
	go func() { ch <- db.inWriter(ctx, f) }()
	waitFor(t, func() bool { return db.wr.Waiting() == before+1 })
	return ch
}

// TestCommit_ABatchThatFailsAcknowledgesNoneOfItsMembers: when the group
// commit that carries several appends fails, each of them (appends to
// several tables, one that begins a step with its clock, one that starts a
// game with its table's row, a clock of its own) is answered with the
// error, none of their writes is in the file, and once the store writes
// again each log goes on from its last committed event. Both ways a batch
// fails: a write inside it (the file read-only), and the COMMIT itself (a
// deferred constraint that only COMMIT checks).
func TestCommit_ABatchThatFailsAcknowledgesNoneOfItsMembers(t *testing.T) {
	for _, how := range []string{"a write in the batch fails", "the commit fails"} {
		t.Run(how, func(t *testing.T) {
			ctx := context.Background()
			db, _ := openTest(t)
			log, g := storetest.BotGame(t, 21)
			for _, id := range []string{"x", "y", "z"} {
				storetest.CreateTable(t, db, id)
			}
			if err := db.AppendEvents(ctx, "x", 0, log[:4]); err != nil {
				t.Fatal(err)
			}
			clk := store.Clock{Step: 3, Deadline: time.Unix(1_800_000_000, 0).UTC(), Left: time.Minute}
			if err := db.SaveClock(ctx, "x", clk); err != nil {
				t.Fatal(err)
			}
			if h := db.WriteHealth(); h.Failing(time.Now(), 0) || h.LastOK.IsZero() {
				t.Fatalf("health before: %+v", h)
			}

			release := holdWriter(t, db)
			members := map[string]<-chan error{
				"append x":       queue(t, ctx, db, "x", 4, log[4:6]),
				"append y":       queue(t, ctx, db, "y", 0, log[:3]),
				"append x clock": queueClock(t, ctx, db, "x", 6, log[6:7], store.Clock{Step: 6, Left: time.Second}),
				"clock of y": queueExec(t, ctx, db, func(ctx context.Context, tx *wtx) error {
					return saveClock(ctx, tx, "y", store.Clock{Step: 9})
				}),
			}
			{
				before := db.wr.Waiting()
				ch := make(chan error, 1)
				go func() {
					ch <- db.AppendEventsTable(ctx, store.Table{ID: "z", Status: store.StatusPlaying, Seed: g.Seed()}, 0, log[:2], nil)
				}()
				waitFor(t, func() bool { return db.wr.Waiting() == before+1 })
				members["start z"] = ch
			}
			switch how {
			case "a write in the batch fails":
				// The last member finds the file read-only.
				// (Pragmas bypass the statement cache: SQLite runs a flag
				// pragma when it prepares it, and the cache prepares what
				// a transaction ran before the next one begins.)
				members["make it read-only"] = queueExec(t, ctx, db, func(ctx context.Context, tx *wtx) error {
					_, err := tx.Tx.ExecContext(ctx, `PRAGMA query_only = 1`)
					return err
				})
				members["append z after"] = queue(t, ctx, db, "z", 2, log[2:3])
			case "the commit fails":
				// A row that breaks a foreign key, checked only at COMMIT.
				members["deferred violation"] = queueExec(t, ctx, db, func(ctx context.Context, tx *wtx) error {
					if _, err := tx.Tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
						return err
					}
					_, err := tx.ExecContext(ctx, `INSERT INTO seats (table_id, seat, name, token_hash, bot) VALUES ('no such table', 1, '', '', 0)`)
					return err
				})
			}
			release()
			for name, ch := range members {
				if name == "make it read-only" {
					<-ch
					continue
				}
				if err := <-ch; err == nil {
					t.Errorf("%s: acknowledged, in a batch whose commit failed", name)
				}
			}
			if h := db.WriteHealth(); !h.Failing(time.Now(), 0) || h.Err == nil || h.Reason == "" {
				t.Errorf("health after the failed commit: %+v; want failing, with a reason", h)
			}
			if how == "a write in the batch fails" {
				if h := db.WriteHealth(); h.Reason != "read-only" {
					t.Errorf("reason %q, want read-only", h.Reason)
				}
				if err := db.SetReadOnly(ctx, false); err != nil {
					t.Fatal(err)
				}

			}

			// Nothing of the batch is in the file.
			for id, n := range map[string]int{"x": 4, "y": 0, "z": 0} {
				got, err := db.Events(ctx, id)
				if err != nil || len(got) != n {
					t.Errorf("%s: %d events, %v; want the %d committed before", id, len(got), err, n)
				}
			}
			if c, _ := db.Clock(ctx, "x"); c.Step != clk.Step || !c.Deadline.Equal(clk.Deadline) {
				t.Errorf("x's clock: %+v, want %+v", c, clk)
			}
			if c, _ := db.Clock(ctx, "y"); c != (store.Clock{}) {
				t.Errorf("y's clock: %+v, want none", c)
			}
			if tb, _, _ := db.Table(ctx, store.KindOnline, "z"); tb.Status != store.StatusPlaying || tb.Seed != 0 {
				// createTable made it playing with seed 0; the start's row is not there.
				t.Errorf("z: %+v", tb)
			}
			var dangling int
			db.r.QueryRow(`SELECT count(*) FROM seats WHERE table_id = 'no such table'`).Scan(&dangling)
			if dangling != 0 {
				t.Error("the row that broke the commit is in the file")
			}

			// Writing again: every log goes on from its last committed event.
			if err := db.AppendEvents(ctx, "x", 4, log[4:6]); err != nil {
				t.Errorf("x after the failure: %v", err)
			}
			if err := db.AppendEvents(ctx, "y", 0, log[:3]); err != nil {
				t.Errorf("y after the failure: %v", err)
			}
			if err := db.AppendEventsTable(ctx, store.Table{ID: "z", Status: store.StatusPlaying, Seed: g.Seed()}, 0, log[:2], nil); err != nil {
				t.Errorf("z after the failure: %v", err)
			}
			if h := db.WriteHealth(); h.Failing(time.Now(), 0) || !h.Since.IsZero() {
				t.Errorf("health once writes commit again: %+v", h)
			}
		})
	}
}

// TestSetReadOnly_EveryWriteFailsAndReadsGoOn: a store set read-only fails
// every kind of write, as SQLite does on a read-only file, with health
// saying so; reads go on; once set back, writes commit and health is well.
func TestSetReadOnly_EveryWriteFailsAndReadsGoOn(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	log, _ := storetest.BotGame(t, 2)
	storetest.CreateTable(t, db, "x")
	if err := db.AppendEvents(ctx, "x", 0, log[:3]); err != nil {
		t.Fatal(err)
	}
	if err := db.SetReadOnly(ctx, true); err != nil {
		t.Fatal(err)
	}
	writes := map[string]func() error{
		"append":       func() error { return db.AppendEvents(ctx, "x", 3, log[3:4]) },
		"append clock": func() error { return db.AppendEventsClock(ctx, "x", 3, log[3:4], store.Clock{Step: 3}) },
		"save clock":   func() error { return db.SaveClock(ctx, "x", store.Clock{Step: 1}) },
		"heartbeat":    func() error { return db.Heartbeat(ctx, time.Now()) },
		"create":       func() error { return db.CreateTable(ctx, store.Table{ID: "y", Kind: store.KindOnline}, nil) },
		"seats":        func() error { return db.SaveSeats(ctx, "x", []store.Seat{{Seat: 1, Name: "a"}}) },
		"update":       func() error { return db.UpdateTable(ctx, store.Table{ID: "x", Status: store.StatusEnded}) },
		"rewrite":      func() error { return db.RewriteEvents(ctx, "x", 1, nil) },
		"set aside":    func() error { return db.SetAside(ctx, "x", "test") },
	}
	for name, w := range writes {
		if err := w(); err == nil {
			t.Errorf("%s: committed on a read-only store", name)
		}
		if h := db.WriteHealth(); !h.Failing(time.Now(), 0) || h.Reason != "read-only" {
			t.Errorf("after %s: health %+v, want failing, read-only", name, h)
		}
	}
	if got, err := db.Events(ctx, "x"); err != nil || storetest.SameEvents(got, log[:3]) != "" {
		t.Errorf("reads of a read-only store: %d events, %v", len(got), err)
	}
	if err := db.SetReadOnly(ctx, false); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(ctx, "x", 3, log[3:4]); err != nil {
		t.Fatal(err)
	}
	if h := db.WriteHealth(); h.Failing(time.Now(), 0) {
		t.Errorf("health once it writes: %+v", h)
	}
}

// TestWriteHealth_FailingHoldsAfterTheLastFailure pins the rule: failing
// while the last write failed, and for hold after any failure.
func TestWriteHealth_FailingHoldsAfterTheLastFailure(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	for _, c := range []struct {
		name string
		h    store.WriteHealth
		at   time.Duration
		want bool
	}{
		{"never failed", store.WriteHealth{LastOK: t0}, 0, false},
		{"the last write failed", store.WriteHealth{LastOK: t0, LastFail: t0.Add(time.Second)}, time.Hour, true},
		{"a failure, then a success, within hold", store.WriteHealth{LastFail: t0, LastOK: t0.Add(time.Second)}, 2 * time.Second, true},
		{"a failure, then a success, hold passed", store.WriteHealth{LastFail: t0, LastOK: t0.Add(time.Second)}, 5 * time.Second, false},
		{"only failures", store.WriteHealth{LastFail: t0}, time.Hour, true},
	} {
		if got := c.h.Failing(t0.Add(c.at), 5*time.Second); got != c.want {
			t.Errorf("%s: Failing = %v, want %v", c.name, got, c.want)
		}
	}
}
