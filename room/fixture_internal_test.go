package room

import (
	"path/filepath"
	"testing"
	"time"

	"mafia/engine"
	"mafia/internal/sqlitetest"
	"mafia/store/sqlite"
)

// internalFixture is what the package's internal tests start from: a real
// SQLite store in a temporary directory (closed when the test ends), a fake
// clock at a whole second, and the rulebook's setup of a table of n.
func internalFixture(t *testing.T, n int) (*sqlite.DB, *FakeClock, engine.Setup) {
	t.Helper()
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	setup, err := engine.Preset(n)
	if err != nil {
		t.Fatal(err)
	}
	return db, NewFakeClock(time.Unix(1_700_000_000, 0)), setup
}
