package sqlite

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestCheckpoint_RunsInTheBackground appends a few events, far fewer than
// the writer's own automatic checkpoint waits for, and checks that they
// reach the database file anyway, copied from the WAL by the background
// checkpointer; and that Close still leaves a file that reopens whole.
func TestCheckpoint_RunsInTheBackground(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	log, _ := botGame(t, 5)
	createTable(t, db, "x")
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
	if d := sameEvents(got, log); d != "" {
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
