package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"mafia/store"
)

// TestKinds_NoneIsNotAKind: a table without a kind (or of an unknown one) is
// not recorded, and a load or listing must name one of the kinds.
func TestKinds_NoneIsNotAKind(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	for _, k := range []store.Kind{"", "club"} {
		if err := db.CreateTable(ctx, store.Table{ID: "t", Kind: k, Status: store.StatusLobby}, nil); err == nil {
			t.Errorf("CreateTable of kind %q: recorded", k)
		}
		if _, _, err := db.Table(ctx, k, "t"); err == nil || errors.Is(err, store.ErrNotFound) {
			t.Errorf("Table of kind %q: %v; want a refusal of the kind", k, err)
		}
		if _, err := db.Tables(ctx, k, store.TableFilter{}); err == nil {
			t.Errorf("Tables of kind %q: no error", k)
		}
		if _, err := db.TableIDs(ctx, k, store.StatusLobby); err == nil {
			t.Errorf("TableIDs of kind %q: no error", k)
		}
	}
}

// oldRow is a table's row as the schema before kinds held it.
type oldRow struct {
	id     string
	status string
	config string
}

// fileBeforeKinds makes a file with the migrations before kinds (00001,
// 00002) and the given rows, as a server of that time left it.
func fileBeforeKinds(t *testing.T, rows []oldRow) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "old.db")
	if err := newFilePages(path); err != nil {
		t.Fatal(err)
	}
	c, err := sql.Open("sqlite", path+"?"+pragmas)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := provider(t, c).UpTo(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		_, err := c.Exec(`INSERT INTO tables
			(id, name, public, invite, status, config, host_token, seed, winner, created_at, updated_at)
			VALUES (?, ?, 0, '', ?, ?, '', '7', '', '2025-01-02T03:04:05.000000000Z', '2025-01-02T03:04:05.000000000Z')`,
			r.id, "table "+r.id, r.status, []byte(r.config))
		if err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestMigration_TheTablesBeforeKindsGetTheKindTheirStatusGave: a file made
// before kinds opens with every table given the kind that the code of that
// time served it as: the assistant's statuses (in_person,
// in_person_ended, in_person_deleted) are in-person games, every other
// status an online table's; the rows are otherwise unchanged (each one's
// config is its Data). The migrations go down to 00002 and up again.
func TestMigration_TheTablesBeforeKindsGetTheKindTheirStatusGave(t *testing.T) {
	ctx := context.Background()
	const room = `{"name":"Friday","setup":"classic"}`
	const assist = `{"in_person":{"settings":{"names":["A","B"]},"commands":[]}}`
	rows := []oldRow{
		{"lobby-1", "lobby", room}, {"play-1", "playing", room}, {"frozen-1", "frozen", room},
		{"ended-1", "ended", room}, {"expired-1", "expired", room},
		{"live-1", "in_person", assist}, {"over-1", "in_person_ended", assist},
		{"gone-1", "in_person_deleted", assist},
	}
	path := fileBeforeKinds(t, rows)
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { db.Close() }()
	for _, r := range rows {
		want := store.KindOnline
		if r.config == assist {
			want = store.KindInPerson
		}
		tb, _, err := db.Table(ctx, want, r.id)
		if err != nil || tb.Kind != want || string(tb.Status) != r.status || string(tb.Data) != r.config || tb.Seed != 7 {
			t.Errorf("%s (%s) after the migration: %+v, %v; want it unchanged, of kind %s", r.id, r.status, tb, err, want)
		}
	}
	if ids, err := db.TableIDs(ctx, store.KindOnline, store.StatusPlaying); err != nil || !slices.Equal(ids, []string{"play-1"}) {
		t.Errorf("online tables playing: %v, %v; want [play-1]", ids, err)
	}
	if ids, err := db.TableIDs(ctx, store.KindInPerson, "in_person"); err != nil || !slices.Equal(ids, []string{"live-1"}) {
		t.Errorf("in-person games going on: %v, %v; want [live-1]", ids, err)
	}
	online, err := db.Tables(ctx, store.KindOnline, store.TableFilter{})
	if err != nil || len(online) != 5 {
		t.Errorf("online tables: %d, %v; want 5", len(online), err)
	}
	inPerson, err := db.Tables(ctx, store.KindInPerson, store.TableFilter{})
	if err != nil || len(inPerson) != 3 {
		t.Errorf("in-person tables: %d, %v; want 3", len(inPerson), err)
	}
	// A new table is of the kind it is given, not the column's default.
	if err := db.CreateTable(ctx, store.Table{ID: "new-1", Kind: store.KindOnline, Status: "in_person"}, nil); err != nil {
		t.Fatal(err)
	}
	if tb, _, err := db.Table(ctx, store.KindOnline, "new-1"); err != nil || tb.Kind != store.KindOnline {
		t.Errorf("a new online table under an in-person status: %+v, %v", tb, err)
	}
	db.Close()

	// The migration goes down (the column is gone) and up again.
	c, err := sql.Open("sqlite", path+"?"+pragmas)
	if err != nil {
		t.Fatal(err)
	}
	p := provider(t, c)
	if _, err := p.DownTo(ctx, 2); err != nil {
		t.Fatalf("down to 00002: %v", err)
	}
	var n int
	if err := c.QueryRow(`SELECT count(*) FROM pragma_table_info('tables') WHERE name = 'kind'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("after the migration down: %d columns named kind, %v", n, err)
	}
	c.Close()
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if tb, _, err := db.Table(ctx, store.KindInPerson, "over-1"); err != nil || tb.Kind != store.KindInPerson {
		t.Errorf("up again: %+v, %v", tb, err)
	}
}

// provider is goose over the embedded migrations, on c.
func provider(t *testing.T, c *sql.DB) *goose.Provider {
	t.Helper()
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, c, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMigration_ADamagedPageOfTablesStopsTheUpgradeAndSaysSo: adding the
// kinds reads every table's row (SQLite checks a STRICT table's rows when
// a column is added), so a file made before kinds with a damaged page of
// tables' rows does not open: the error is ErrDamaged, said as damage, and
// the file is left at the schema it had, for a recovery to read.
func TestMigration_ADamagedPageOfTablesStopsTheUpgradeAndSaysSo(t *testing.T) {
	big := `{"name":"` + strings.Repeat("x", 1500) + `"}`
	var rows []oldRow
	for i := range 12 {
		rows = append(rows, oldRow{fmt.Sprintf("online-%02d", i), "playing", big})
	}
	rows = append(rows, oldRow{"live-1", "in_person", `{"in_person":{}}`})
	path := fileBeforeKinds(t, rows)
	damageTablesPage(t, path, "online-03", "live-1")
	db, err := Open(path)
	if err == nil {
		db.Close()
		t.Fatal("a file with a damaged page of tables opened")
	}
	if !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), "bringing it up to date") {
		t.Errorf("the upgrade of a damaged file: %v; want ErrDamaged, saying that the update cannot read it", err)
	}
	c, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var version int
	if err := c.QueryRow(`SELECT max(version_id) FROM goose_db_version WHERE is_applied`).Scan(&version); err != nil || version != 2 {
		t.Errorf("the file's schema after the failed upgrade: version %d, %v; want 2, as it was", version, err)
	}
}

// damageTablesPage overwrites in the file (closed) a leaf page of the
// tables' rows that holds table id's row and not table keep's.
func damageTablesPage(t *testing.T, path, id, keep string) {
	t.Helper()
	c, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var pages []int
	rows, err := c.Query(`SELECT pageno FROM dbstat WHERE name = 'tables' AND pagetype = 'leaf'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n int
		rows.Scan(&n)
		pages = append(pages, n)
	}
	rows.Close()
	c.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	page := make([]byte, pageSize)
	for _, n := range pages {
		f.ReadAt(page, int64(n-1)*pageSize)
		if bytes.Contains(page, []byte(id)) && !bytes.Contains(page, []byte(keep)) {
			for i := range page {
				page[i] = byte(i*7 + 3)
			}
			f.WriteAt(page, int64(n-1)*pageSize)
			return
		}
	}
	t.Fatalf("no leaf of the tables holds %s's row without %s's", id, keep)
}
