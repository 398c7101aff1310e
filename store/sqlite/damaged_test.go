package sqlite

import (
	"bytes"
	"context"
	"errors"
	"mafia/store/storetest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"mafia/store"
)

// TestSetAside_LeavesTheTableOutOfEveryListingAndRefusesIt: a table set
// aside is refused by Table (ErrDamaged, with the first reason), left out of
// Tables and TableIDs, and stays so after the file is reopened; its rows are
// untouched, and the other tables are listed as before.
func TestSetAside_LeavesTheTableOutOfEveryListingAndRefusesIt(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	for _, id := range []string{"a", "b", "c"} {
		storetest.CreateTable(t, db, id)
	}
	log, _ := storetest.BotGame(t, 3)
	if err := db.AppendEvents(ctx, "b", 0, log[:5]); err != nil {
		t.Fatal(err)
	}
	if err := db.SetAside(ctx, "b", "event 3 does not decode"); err != nil {
		t.Fatal(err)
	}
	if err := db.SetAside(ctx, "b", "a second reason"); err != nil {
		t.Fatal(err)
	}
	check := func(db *DB) {
		t.Helper()
		_, _, err := db.Table(ctx, store.KindOnline, "b")
		if !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), "event 3 does not decode") {
			t.Errorf("Table of a table set aside: %v; want ErrDamaged with the first reason", err)
		}
		ids, err := db.TableIDs(ctx, store.KindOnline, store.StatusPlaying)
		if err != nil || !slices.Equal(ids, []string{"a", "c"}) {
			t.Errorf("TableIDs: %v, %v; want [a c]", ids, err)
		}
		all, err := db.Tables(ctx, store.KindOnline, store.TableFilter{})
		if err != nil || len(all) != 2 || all[0].ID == "b" || all[1].ID == "b" {
			t.Errorf("Tables: %d tables, %v; want a and c", len(all), err)
		}
		if got, err := db.Events(ctx, "b"); err != nil || len(got) != 5 {
			t.Errorf("the rows of a table set aside: %d events, %v; want them untouched", len(got), err)
		}
	}
	check(db)
	db.Close()
	db2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	check(db2)
}

// TestTableIDs_ReadsPastADamagedIndex overwrites the page of the index by
// status (which TableIDs reads first): the IDs are read from the rows.
func TestTableIDs_ReadsPastADamagedIndex(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	var want []string
	for _, id := range []string{"t1", "t2", "t3", "t4"} {
		storetest.CreateTable(t, db, id)
		want = append(want, id)
	}
	var pages []int
	rows, err := db.r.Query(`SELECT pageno FROM dbstat WHERE name = 'tables_by_status'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n int
		rows.Scan(&n)
		pages = append(pages, n)
	}
	rows.Close()
	db.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	junk := make([]byte, pageSize)
	for i := range junk {
		junk[i] = byte(i * 131)
	}
	for _, n := range pages {
		if _, err := f.WriteAt(junk, int64(n-1)*pageSize); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	db2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if _, err := db2.r.Query(`SELECT rowid FROM tables INDEXED BY tables_by_status WHERE status = 'playing'`); err == nil {
		// A query's error may come at its first row instead.
		var n int
		err = db2.r.QueryRow(`SELECT count(*) FROM tables INDEXED BY tables_by_status WHERE status = 'playing'`).Scan(&n)
		if err == nil {
			t.Fatalf("the index by status still reads after %d pages were overwritten", len(pages))
		}
	}
	ids, err := db2.TableIDs(ctx, store.KindOnline, store.StatusPlaying)
	if err != nil || !slices.Equal(ids, want) {
		t.Fatalf("TableIDs past a damaged index: %v, %v; want %v", ids, err, want)
	}
}

// damageEventsPage closes db, overwrites in the file a leaf page of the
// events that holds rows of table id and of no other of others, and opens
// the file again.
func damageEventsPage(t *testing.T, db *DB, path, id string, others ...string) *DB {
	t.Helper()
	var pages []int
	rows, err := db.r.Query(`SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n int
		rows.Scan(&n)
		pages = append(pages, n)
	}
	rows.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	page := make([]byte, pageSize)
	done := false
	for _, n := range pages {
		f.ReadAt(page, int64(n-1)*pageSize)
		alone := bytes.Contains(page, []byte(id))
		for _, o := range others {
			alone = alone && !bytes.Contains(page, []byte(o))
		}
		if alone {
			for i := range page {
				page[i] = byte(i*7 + 3)
			}
			f.WriteAt(page, int64(n-1)*pageSize)
			done = true
			break
		}
	}
	if !done {
		t.Fatalf("no leaf of the events holds %s's rows alone", id)
	}
	db2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db2.Close() })
	return db2
}

// TestCommit_ADamagedPageFailsOnlyTheMemberThatTouchesIt: a write that
// reads a damaged page of the file (here a rewrite of a game whose events
// are on it) fails the group commit it is in; the writer then tries each
// member alone, so the others are committed and that one alone is refused
// with ErrDamaged, and the store's health stays well.
func TestCommit_ADamagedPageFailsOnlyTheMemberThatTouchesIt(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	const bad, x, y = "bad-table-000001", "x-table-00000001", "y-table-00000001"
	long, _ := storetest.BotGame(t, 31)
	for _, id := range []string{bad, x, y} {
		storetest.CreateTable(t, db, id)
	}
	if err := db.AppendEvents(ctx, bad, 0, long); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(ctx, x, 0, long[:2]); err != nil {
		t.Fatal(err)
	}
	db = damageEventsPage(t, db, path, bad, x, y)

	release := holdWriter(t, db)
	okX := queue(t, ctx, db, x, 2, long[2:4])
	okY := queueClock(t, ctx, db, y, 0, long[:3], store.Clock{Step: 2, Left: time.Second})
	before := db.wr.Waiting()
	rewrite := make(chan error, 1)
	go func() { rewrite <- db.RewriteEvents(ctx, bad, 1, nil) }()
	waitFor(t, func() bool { return db.wr.Waiting() == before+1 })
	okX2 := queue(t, ctx, db, x, 4, long[4:5])
	release()
	if err := <-rewrite; !errors.Is(err, store.ErrDamaged) {
		t.Errorf("the write that reads the damaged page: %v, want ErrDamaged", err)
	}
	for name, ch := range map[string]<-chan error{"x": okX, "y": okY, "x again": okX2} {
		if err := <-ch; err != nil {
			t.Errorf("%s, in the batch beside the damaged write: %v", name, err)
		}
	}
	if got, err := db.Events(ctx, x); err != nil || storetest.SameEvents(got, long[:5]) != "" {
		t.Errorf("x: %d events, %v", len(got), err)
	}
	if got, err := db.Events(ctx, y); err != nil || storetest.SameEvents(got, long[:3]) != "" {
		t.Errorf("y: %d events, %v", len(got), err)
	}
	if h := db.WriteHealth(); h.Failing(time.Now(), 0) {
		t.Errorf("health after one member's damage: %+v; want well (the store writes)", h)
	}
}
