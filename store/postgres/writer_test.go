package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"mafia/engine"
	"mafia/store"
)

// req makes an append request of events, encoded as the store encodes them.
func req(t *testing.T, db *DB, table string, first int, evs []engine.Event, c *store.Clock, up *store.Table) *appendReq {
	t.Helper()
	kinds, jsons, _, _, err := db.encode(context.Background(), table, first, evs)
	if err != nil {
		t.Fatal(err)
	}
	return &appendReq{table: table, first: first, kinds: kinds, jsons: jsons, clock: c, update: up}
}

// TestGroupCommitRefusesAloneInItsBatch commits one batch by hand: a
// conflicting append and one to a missing table are refused, the others,
// two to the same table in a row among them, are committed, in one
// transaction; and when a member fails the transaction itself (its table's
// row cannot be written), the batch is committed again one by one, so that
// only that member fails, and with its events undone.
func TestGroupCommitRefusesAloneInItsBatch(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	log := botLog(t, 8)
	for _, id := range []string{"x", "y", "w"} {
		create(t, db, id)
	}
	if err := db.AppendEvents(ctx, "x", 0, log[:2]); err != nil {
		t.Fatal(err)
	}
	okX1 := req(t, db, "x", 2, log[2:4], nil, nil)
	badX := req(t, db, "x", 2, log[2:3], nil, nil) // the log has 4 events by then
	okY := req(t, db, "y", 0, log[:3], &store.Clock{Step: 2, Left: time.Second, Paused: true}, nil)
	okX2 := req(t, db, "x", 4, log[4:5], nil, nil)
	missing := req(t, db, "z", 0, log[:1], nil, nil)
	before := db.WriteStats()
	db.commit([]*appendReq{okX1, badX, okY, okX2, missing})
	for name, c := range map[string]struct {
		r    *appendReq
		want error
	}{"okX1": {okX1, nil}, "badX": {badX, store.ErrConflict}, "okY": {okY, nil}, "okX2": {okX2, nil}, "missing": {missing, store.ErrNotFound}} {
		if err := c.r.Err; !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	if got := db.WriteStats(); got.Commits-before.Commits != 1 || got.Writes-before.Writes != 5 {
		t.Errorf("stats %+v after %+v: want one commit of 5", got, before)
	}
	for id, n := range map[string]int{"x": 5, "y": 3} {
		if got, err := db.Events(ctx, id); err != nil || len(got) != n {
			t.Errorf("%s: %d events, %v; want %d", id, len(got), err, n)
		}
	}
	if c, _ := db.Clock(ctx, "y"); c.Step != 2 || !c.Paused {
		t.Errorf("y's clock: %+v", c)
	}

	// w's row refuses to be written: the batch fails, and is retried.
	for _, q := range []string{
		`CREATE FUNCTION refuse_w() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.id = 'w' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`,
		`CREATE TRIGGER refuse_w BEFORE UPDATE ON tables FOR EACH ROW EXECUTE FUNCTION refuse_w()`,
	} {
		if _, err := db.pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	okX3 := req(t, db, "x", 5, log[5:7], nil, nil)
	badW := req(t, db, "w", 0, log[:2], nil, &store.Table{ID: "w", Kind: store.KindOnline, Status: store.StatusEnded, UpdatedAt: time.Now()})
	okY2 := req(t, db, "y", 3, log[3:4], nil, &store.Table{ID: "y", Kind: store.KindOnline, Status: store.StatusPlaying, Winner: "none yet", UpdatedAt: time.Now()})
	db.commit([]*appendReq{okX3, badW, okY2})
	if okX3.Err != nil || okY2.Err != nil {
		t.Errorf("the good members of a failed batch: %v, %v", okX3.Err, okY2.Err)
	}
	if badW.Err == nil || errors.Is(badW.Err, store.ErrConflict) || errors.Is(badW.Err, store.ErrNotFound) {
		t.Errorf("the member whose row was refused: %v", badW.Err)
	}
	if got, _ := db.Events(ctx, "w"); len(got) != 0 {
		t.Errorf("w: %d events of a refused append were committed", len(got))
	}
	if tb, _, _ := db.Table(ctx, store.KindOnline, "y"); tb.Winner != "none yet" {
		t.Errorf("y's row after the retry: %+v", tb)
	}
	if h := db.WriteHealth(); h.Failing(time.Now(), 0) {
		t.Errorf("one member's failure made the store unhealthy: %+v", h)
	}
}

// TestCloseCommitsWhatIsQueued: Close waits for the appends under way,
// each of which is then committed or refused with ErrClosed, never lost
// half-way; appends after Close are refused.
func TestCloseCommitsWhatIsQueued(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	log := botLog(t, 6)
	const n = 50
	for i := range n {
		create(t, db, fmt.Sprint(i))
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { errs[i] = db.AppendEvents(ctx, fmt.Sprint(i), 0, log[:3]) })
	}
	time.Sleep(time.Millisecond) // some under way, some perhaps not yet
	db.stopWriters()
	wg.Wait()
	if err := db.AppendEvents(ctx, "0", 3, log[3:4]); !errors.Is(err, ErrClosed) {
		t.Errorf("an append after Close: %v, want ErrClosed", err)
	}
	committed := 0
	for i, err := range errs {
		got, rerr := db.Events(ctx, fmt.Sprint(i))
		switch {
		case rerr != nil:
			t.Fatal(rerr)
		case err == nil && len(got) == 3:
			committed++
		case errors.Is(err, ErrClosed) && len(got) == 0:
		default:
			t.Errorf("table %d: %v with %d events", i, err, len(got))
		}
	}
	t.Logf("%d of %d appends committed before Close", committed, n)
}
