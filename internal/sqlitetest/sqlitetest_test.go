package sqlitetest_test

import (
	"database/sql"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"mafia/internal/sqlitetest"
	"mafia/store/sqlite"
)

// schema reads a closed file's tables, indexes and the migrations it has.
func schema(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var s, versions string
	if err := db.QueryRow("SELECT group_concat(type || ' ' || name || ': ' || coalesce(sql, ''), char(10)) FROM (SELECT * FROM sqlite_master ORDER BY type, name)").Scan(&s); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT group_concat(version_id, ',') FROM (SELECT version_id FROM goose_db_version WHERE is_applied ORDER BY version_id)").Scan(&versions); err != nil {
		t.Fatal(err)
	}
	return s + "\nmigrations " + versions
}

// TestOpen_AFreshCopyIsTheSchemaANewFileGetsAndNoOtherTestsFile: a copy
// has the schema and the migrations sqlite.Open gives a file made from
// nothing; two copies are two files (what one test writes the other does
// not see); a path that exists is refused, not overwritten.
func TestOpen_AFreshCopyIsTheSchemaANewFileGetsAndNoOtherTestsFile(t *testing.T) {
	dir := t.TempDir()
	fresh, err := sqlite.Open(filepath.Join(dir, "fresh.db"))
	if err != nil {
		t.Fatal(err)
	}
	fresh.Close()
	a, err := sqlitetest.Open(filepath.Join(dir, "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := sqlitetest.Open(filepath.Join(dir, "b.db"))
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	b.Close()
	ra, err := sql.Open("sqlite", filepath.Join(dir, "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ra.Exec("CREATE TABLE only_in_a (x)"); err != nil {
		t.Fatal(err)
	}
	ra.Close()
	if got := schema(t, filepath.Join(dir, "b.db")); strings.Contains(got, "only_in_a") {
		t.Fatalf("a table made in one copy is in the other:\n%s", got)
	}
	if got := schema(t, filepath.Join(dir, "a.db")); !strings.Contains(got, "only_in_a") {
		t.Fatalf("the table made in a copy is not in it:\n%s", got)
	}
	want := schema(t, filepath.Join(dir, "fresh.db"))
	for _, p := range []string{"b.db"} {
		if got := schema(t, filepath.Join(dir, p)); got != want {
			t.Errorf("%s's schema:\n%s\nwant a new file's:\n%s", p, got, want)
		}
	}
	if _, err := sqlitetest.Open(filepath.Join(dir, "a.db")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a copy onto an existing file: %v, want it refused", err)
	}
}
