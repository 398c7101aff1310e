package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { Main(m) }

// migrations counts the calls of TestMigrated_...'s migrate in the whole
// binary (see its doc).
var migrations int

// TestMigrated_EachCopyHasTheTemplatesSchemaAndRowsAndNoOtherCopysWrites
// pins Migrated: migrate runs once for the binary, on a database of its
// own; every copy has what it left (its table and its row) and is a
// database of its own (what one test writes, another does not see); URL's
// databases stay empty.
//
// migrations counts migrate's calls in the whole binary, not in one run of
// the test: the template is made once for the binary, and a second run of
// the test in it (go test -count=2) finds it made and calls migrate no
// more (its copies hold the first run's template, the same table and row).
func TestMigrated_EachCopyHasTheTemplatesSchemaAndRowsAndNoOtherCopysWrites(t *testing.T) {
	ctx := context.Background()
	migrate := func(url string) error {
		migrations++
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			return err
		}
		defer c.Close(ctx)
		_, err = c.Exec(ctx, `CREATE TABLE kept (v text); INSERT INTO kept VALUES ('from the template')`)
		return err
	}
	query := func(url, sql string, args ...any) []string {
		t.Helper()
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(ctx)
		rows, err := c.Query(ctx, sql, args...)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := Migrated(t, migrate), Migrated(t, migrate)
	if a == b {
		t.Fatalf("two calls gave one database: %s", a)
	}
	if migrations != 1 {
		t.Fatalf("migrate ran %d times in the binary, want once", migrations)
	}
	query(a, `INSERT INTO kept VALUES ('a''s own') RETURNING v`)
	for _, c := range []struct {
		url  string
		want int
	}{{a, 2}, {b, 1}, {Migrated(t, migrate), 1}} {
		got := query(c.url, `SELECT v FROM kept ORDER BY v`)
		if len(got) != c.want || got[len(got)-1] != "from the template" {
			t.Errorf("%s holds %q, want the template's row and %d of its own", c.url, got, c.want-1)
		}
	}
	if got := query(URL(t), `SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public'`); len(got) != 0 {
		t.Errorf("URL's database has tables %q, want none", got)
	}
}
