package sqlite

import (
	"context"
	"errors"
	"mafia/store/storetest"
	"os"
	"testing"
	"time"

	"mafia/store"
)

// TestCheckpoint_RunsInTheBackground appends a few events, far fewer than
// the writer's own automatic checkpoint waits for, and checks that they
// reach the database file anyway, copied from the WAL by the background
// checkpointer; and that Close still leaves a file that reopens whole.
func TestCheckpoint_RunsInTheBackground(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	log, _ := storetest.BotGame(t, 5)
	storetest.CreateTable(t, db, "x")
	before := fileSize(t, path)
	if err := db.AppendEvents(ctx, "x", 0, log); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for fileSize(t, path) <= before {
		if time.Now().After(deadline) {
			t.Fatalf("the database file stayed at %d bytes: nothing was checkpointed", before)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	got, err := db2.Events(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	if d := storetest.SameEvents(got, log); d != "" {
		t.Fatal(d)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestSaveClock_JoinsTheGroupCommit saves clocks in the same group commit
// as appends: a clock for a missing table is refused alone (not found), and
// the others, clocks and appends, are committed.
func TestSaveClock_JoinsTheGroupCommit(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	log, _ := storetest.BotGame(t, 6)
	storetest.CreateTable(t, db, "x")
	storetest.CreateTable(t, db, "y")
	release := holdWriter(t, db)
	clock := func(id string, step int) <-chan error {
		before := db.wr.Waiting()
		ch := make(chan error, 1)
		go func() {
			ch <- db.SaveClock(ctx, id, store.Clock{Step: step, Deadline: time.Unix(int64(step), 0).UTC()})
		}()
		waitFor(t, func() bool { return db.wr.Waiting() == before+1 })
		return ch
	}
	okX := queue(t, ctx, db, "x", 0, log[:3])
	clockX := clock("x", 2)
	clockZ := clock("z", 1)
	clockY := clock("y", 7)
	release()
	for name, c := range map[string]struct {
		ch   <-chan error
		want error
	}{"okX": {okX, nil}, "clockX": {clockX, nil}, "clockY": {clockY, nil}, "clockZ": {clockZ, store.ErrNotFound}} {
		if err := <-c.ch; !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	for id, step := range map[string]int{"x": 2, "y": 7} {
		c, err := db.Clock(ctx, id)
		if err != nil || c.Step != step || !c.Deadline.Equal(time.Unix(int64(step), 0)) {
			t.Errorf("clock of %s: %+v, %v", id, c, err)
		}
	}
	if got, err := db.Events(ctx, "x"); err != nil || storetest.SameEvents(got, log[:3]) != "" {
		t.Errorf("events of x: %d, %v", len(got), err)
	}
}
