package postgres

import (
	"context"
	"errors"
	"testing"
	"time"

	"mafia/bot"
	"mafia/engine"
	"mafia/internal/pgtest"
	"mafia/internal/testpar"
	"mafia/rng"
	"mafia/store"
	"mafia/wire"
)

// TestMain runs the package's tests on one PostgreSQL (internal/pgtest),
// stopped at the end. The contract suites and the longest tests run side
// by side, four at a time unless -parallel says: each has databases of its
// own, and most of their time is the database's, not this process's. The
// tests that stop the database or time a pause run alone, first.
func TestMain(m *testing.M) {
	testpar.Parallel(4)
	pgtest.Main(m)
}

// open opens a store on a fresh database and closes it at the test's end.
func open(t *testing.T) *DB { return openB(t) }

// migratedURL is the URL of a new database of the test binary's
// PostgreSQL, a copy of one that Open brought up to date from nothing
// (pgtest.Migrated); TestOpenMigratesOnce's database is empty.
func migratedURL(t testing.TB) string {
	t.Helper()
	return pgtest.Migrated(t, func(url string) error {
		db, err := Open(context.Background(), url)
		if err != nil {
			return err
		}
		return db.Close()
	})
}

// openB is open for a test or a benchmark.
func openB(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), migratedURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// botLogB is botLog for a benchmark.
func botLogB(b *testing.B) []engine.Event { return botLogFor(b, 77) }

// TestOpenMigratesOnce pins that Open brings an empty database up to date
// and that opening it again finds nothing left to do.
func TestOpenMigratesOnce(t *testing.T) {
	url := pgtest.URL(t) // empty: this test is of the migrations
	ctx := context.Background()
	for range 2 {
		db, err := Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM tables`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
}

// botLog plays a bot game for the tests of this package.
func botLog(t *testing.T, seed uint64) []engine.Event { return botLogFor(t, seed) }

func botLogFor(t testing.TB, seed uint64) []engine.Event {
	t.Helper()
	src := rng.New(seed)
	players := engine.PresetMin + src.Intn(engine.PresetMax-engine.PresetMin+1)
	setup, _ := engine.Preset(players)
	g, start, err := engine.New(engine.DefaultRules(), setup.Deal(seed, nil), seed)
	if err != nil {
		t.Fatal(err)
	}
	log := append([]engine.Event(nil), start...) // start is the game's own
	bots := make([]bot.Bot, players+1)
	for s := 1; s <= players; s++ {
		bots[s] = bot.NewRandom(rng.Derive(seed, uint64(s)))
	}
	tb := &bot.Table{Game: g, Bots: bots, OnEvents: func(_ engine.Command, evs []engine.Event) { log = append(log, evs...) }}
	if !tb.Play(10000) {
		t.Fatal("the game did not end")
	}
	return log
}

func create(t *testing.T, db *DB, id string) {
	t.Helper()
	if err := db.CreateTable(context.Background(), store.Table{ID: id, Kind: store.KindOnline, Status: store.StatusPlaying}, nil); err != nil {
		t.Fatal(err)
	}
}

// TestTwoStoresOnOneDatabaseNeverTrustWhatTheyRemember: two stores on one
// database, as two servers: each append is checked against the log as it
// is in the database, not as the store last saw it.
func TestTwoStoresOnOneDatabaseNeverTrustWhatTheyRemember(t *testing.T) {
	ctx := context.Background()
	url := migratedURL(t)
	a, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, url, Shared()) // a second node beside the first
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	log := botLog(t, 3)
	create(t, a, "x")
	if err := a.AppendEvents(ctx, "x", 0, log[:3]); err != nil {
		t.Fatal(err)
	}
	if err := b.AppendEvents(ctx, "x", 3, log[3:5]); err != nil {
		t.Fatalf("the other store's append at the log's end: %v", err)
	}
	if err := a.AppendEvents(ctx, "x", 3, log[3:4]); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("an append at the end as the first store last saw it: %v, want ErrConflict", err)
	}
	if err := a.AppendEvents(ctx, "x", 5, log[5:]); err != nil {
		t.Fatal(err)
	}
	got, err := b.Events(ctx, "x")
	if err != nil || len(got) != len(log) {
		t.Fatalf("%d events, %v; want %d", len(got), err, len(log))
	}
}

// TestEventsAreReadableJSON pins the row shape: one row per event, its kind,
// and wire's JSON byte for byte, as SQLite keeps it.
func TestEventsAreReadableJSON(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	create(t, db, "t")
	log := botLog(t, 5)
	if err := db.AppendEvents(ctx, "t", 0, log); err != nil {
		t.Fatal(err)
	}
	var n int
	var kind, js string
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE table_id = 't'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != len(log) {
		t.Errorf("%d rows for %d events", n, len(log))
	}
	if err := db.pool.QueryRow(ctx, `SELECT kind, json::text FROM events WHERE table_id = 't' AND seq = 0`).Scan(&kind, &js); err != nil {
		t.Fatal(err)
	}
	want, err := wire.MarshalEvent(log[0], int(log[0].Count))
	if err != nil {
		t.Fatal(err)
	}
	if kind != "game_started" || js != string(want) {
		t.Errorf("first row: %s %s, want game_started %s", kind, js, want)
	}
	if _, ok := db.players.Load("t"); ok {
		t.Errorf("an ended game's player count is still remembered")
	}
}

// TestAppendEventsTableIsOneTransaction: when the table's row cannot be
// written (a trigger refuses it, as a full disk would refuse any write),
// neither the events nor the clock are committed.
func TestAppendEventsTableIsOneTransaction(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	log := botLog(t, 11)
	if err := db.CreateTable(ctx, store.Table{ID: "x", Kind: store.KindOnline, Status: store.StatusLobby}, nil); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
		`CREATE TRIGGER refuse BEFORE UPDATE ON tables FOR EACH ROW EXECUTE FUNCTION refuse()`,
	} {
		if _, err := db.pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	started := store.Table{ID: "x", Kind: store.KindOnline, Status: store.StatusPlaying}
	clk := store.Clock{Step: 1, Deadline: time.Unix(1_800_000_000, 0).UTC(), Left: time.Minute}
	if err := db.AppendEventsTable(ctx, started, 0, log[:3], &clk); err == nil {
		t.Fatal("an append whose table row was refused succeeded")
	}
	if evs, _ := db.Events(ctx, "x"); len(evs) != 0 {
		t.Errorf("the events of a refused append were committed: %d", len(evs))
	}
	if c, _ := db.Clock(ctx, "x"); c != (store.Clock{}) {
		t.Errorf("the clock of a refused append was committed: %+v", c)
	}
	if h := db.WriteHealth(); !h.Failing(time.Now(), 0) || h.Reason != "write failed" {
		t.Errorf("write health after a failed write: %+v", h)
	}
	if _, err := db.pool.Exec(ctx, `DROP TRIGGER refuse ON tables`); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEventsTable(ctx, started, 0, log[:3], &clk); err != nil {
		t.Fatal(err)
	}
	if h := db.WriteHealth(); h.Failing(time.Now(), 0) {
		t.Errorf("write health after a good write: %+v", h)
	}
}

// TestChatPastTheCapIsRefused: once a table keeps its cap of lines, the
// next is refused with store.ErrChatFull and not kept; another table's
// lines go on.
func TestChatPastTheCapIsRefused(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	db.chatCap = 6
	create(t, db, "full")
	create(t, db, "other")
	line := store.ChatLine{Channel: "town", Seat: 1, Name: "Nino", Text: "გამარჯობა", At: time.UnixMilli(1796000000000).UTC()}
	for range 6 {
		if err := db.AppendChat(ctx, "full", line); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.AppendChat(ctx, "full", line); !errors.Is(err, store.ErrChatFull) {
		t.Fatalf("the line past the cap: %v, want ErrChatFull", err)
	}
	if err := db.AppendChat(ctx, "other", line); err != nil {
		t.Fatalf("another table's line: %v", err)
	}
	if got, _ := db.Chat(ctx, "full", 0); len(got) != 6 {
		t.Fatalf("the full table keeps %d lines, want 6", len(got))
	}
	if h := db.WriteHealth(); h.Failing(time.Now(), 0) {
		t.Errorf("a full chat made the store unhealthy: %+v", h)
	}
}

// TestSetReadOnlyStopsEveryWrite: while the database is read-only every
// write fails, as read-only, with nothing written, and reads go on; then
// writes go on again.
func TestSetReadOnlyStopsEveryWrite(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	create(t, db, "x")
	log := botLog(t, 2)
	if err := db.SetReadOnly(ctx, true); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(ctx, "x", 0, log[:2]); err == nil {
		t.Fatal("an append to a read-only database succeeded")
	}
	if h := db.WriteHealth(); !h.Failing(time.Now(), 0) || h.Reason != "read-only" {
		t.Errorf("write health: %+v; want failing, read-only", h)
	}
	if _, _, err := db.Table(ctx, store.KindOnline, "x"); err != nil {
		t.Errorf("a read of a read-only database: %v", err)
	}
	if err := db.SetReadOnly(ctx, false); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(ctx, "x", 0, log[:2]); err != nil {
		t.Fatalf("an append once writable again: %v", err)
	}
}

// TestTableWithABadSeedIsDamaged: a row whose seed does not read is
// refused with store.ErrDamaged, and still listed by TableIDs.
func TestTableWithABadSeedIsDamaged(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	create(t, db, "x")
	if _, err := db.pool.Exec(ctx, `UPDATE tables SET seed = 'x' WHERE id = 'x'`); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.Table(ctx, store.KindOnline, "x"); !errors.Is(err, store.ErrDamaged) {
		t.Errorf("Table: %v, want ErrDamaged", err)
	}
	if ids, err := db.TableIDs(ctx, store.KindOnline, store.StatusPlaying); err != nil || len(ids) != 1 {
		t.Errorf("TableIDs: %v, %v", ids, err)
	}
	if _, err := db.pool.Exec(ctx, `INSERT INTO events (table_id, seq, kind, json) VALUES ('x', 1, 'x', '{}')`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Events(ctx, "x"); !errors.Is(err, store.ErrDamaged) {
		t.Errorf("Events of a log with a gap: %v, want ErrDamaged", err)
	}
}
