package postgres

import (
	"context"
	"io/fs"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"mafia/store"
	"mafia/store/internal/fence"
)

// TestMigration_EventFencesComeAndGo: a database whose events carry their
// fences migrated down to 00004 loses the column and the rewrite's
// append_events with a token, and gets 00004's append_step back, with which
// the group commit still appends (fenced); opened again it comes back up,
// the events from before carrying 0, the new ones their token.
func TestMigration_EventFencesComeAndGo(t *testing.T) {
	ctx := context.Background()
	url := migratedURL(t)
	db, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	log := botLog(t, 21)
	create(t, db, "x")
	l, err := db.Acquire(ctx, "x", "node-a", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	fctx := fence.With(ctx, "x", l.Token)
	if err := db.AppendEvents(fctx, "x", 0, log[:3]); err != nil {
		t.Fatal(err)
	}
	if err := db.RewriteEvents(fctx, "x", 2, log[2:4]); err != nil {
		t.Fatal(err)
	}
	if got, err := db.EventFences(ctx, "x"); err != nil || !slices.Equal(got, []int64{l.Token, l.Token, l.Token, l.Token}) {
		t.Fatalf("the fences: %v, %v; want four %d", got, err, l.Token)
	}

	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	sqldb := stdlib.OpenDBFromPool(db.pool)
	p, err := goose.NewProvider(goose.DialectPostgres, sqldb, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 4); err != nil {
		t.Fatalf("down to 00004: %v", err)
	}
	var cols, withToken, without int
	if err := db.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM information_schema.columns WHERE table_name = 'events' AND column_name = 'fence'),
		(SELECT count(*) FROM pg_proc WHERE proname = 'append_events' AND pronargs = 5),
		(SELECT count(*) FROM pg_proc WHERE proname = 'append_events' AND pronargs = 4)`).Scan(&cols, &withToken, &without); err != nil {
		t.Fatal(err)
	}
	if cols != 0 || withToken != 0 || without != 1 {
		t.Errorf("after the migration down: %d fence columns, %d append_events with a token, %d without; want 0, 0, 1",
			cols, withToken, without)
	}
	if err := db.AppendEventsClock(fctx, "x", 4, log[4:5], store.Clock{Step: 1, Left: time.Second, Paused: true}); err != nil {
		t.Errorf("a fenced append on 00004's append_step: %v", err)
	}
	sqldb.Close()
	db.Close()

	db, err = Open(ctx, url)
	if err != nil {
		t.Fatalf("up again: %v", err)
	}
	defer db.Close()
	if err := db.AppendEvents(fctx, "x", 5, log[5:6]); err != nil {
		t.Fatal(err)
	}
	if got, err := db.EventFences(ctx, "x"); err != nil || !slices.Equal(got, []int64{0, 0, 0, 0, 0, l.Token}) {
		t.Errorf("the fences after down and up: %v, %v; want five 0s (from before), then %d", got, err, l.Token)
	}
	if got, err := db.Events(ctx, "x"); err != nil || len(got) != 6 {
		t.Errorf("the log after down and up: %d events, %v; want 6", len(got), err)
	}
}
