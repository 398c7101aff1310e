package sqlite

import (
	"context"
	"errors"
	"testing"
	"time"

	"mafia/store"
)

// TestPreparedStatements_SameAnswersOnceCached runs each write twice or
// more, so that the later runs use the statements prepared after the first,
// and checks that refusals come back exactly as before: a taken ID is a
// conflict, a missing table is not found.
func TestPreparedStatements_SameAnswersOnceCached(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	seats := []store.Seat{{Seat: 1, Name: "a"}, {Seat: 2, Name: "b"}}
	for i := 0; i < 3; i++ {
		err := db.CreateTable(ctx, store.Table{ID: "t1", Kind: store.KindOnline, Name: "one", Status: store.StatusLobby}, seats)
		if i == 0 && err != nil {
			t.Fatal(err)
		}
		if i > 0 && !errors.Is(err, store.ErrConflict) {
			t.Fatalf("create %d of the same ID: %v, want a conflict", i+1, err)
		}
	}
	for i := 0; i < 3; i++ {
		if err := db.SaveClock(ctx, "t1", store.Clock{Step: i, Deadline: time.Unix(int64(1000+i), 0)}); err != nil {
			t.Fatal(err)
		}
		if err := db.SaveClock(ctx, "nope", store.Clock{Step: i}); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("clock of a missing table, run %d: %v", i+1, err)
		}
		if err := db.SaveSeats(ctx, "nope", seats); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("seats of a missing table, run %d: %v", i+1, err)
		}
		if err := db.UpdateTable(ctx, store.Table{ID: "nope", Status: store.StatusEnded}); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("update of a missing table, run %d: %v", i+1, err)
		}
		if err := db.SaveSeats(ctx, "t1", seats[:1+i%2]); err != nil {
			t.Fatal(err)
		}
	}
	c, err := db.Clock(ctx, "t1")
	if err != nil || c.Step != 2 || !c.Deadline.Equal(time.Unix(1002, 0)) {
		t.Fatalf("clock %+v, %v", c, err)
	}
	_, got, err := db.Table(ctx, store.KindOnline, "t1")
	if err != nil || len(got) != 1 {
		t.Fatalf("seats %+v, %v", got, err)
	}
	db.stmts.mu.Lock()
	n := len(db.stmts.m)
	db.stmts.mu.Unlock()
	if n < 5 {
		t.Errorf("%d statements prepared, want the writer's usual ones", n)
	}
}
