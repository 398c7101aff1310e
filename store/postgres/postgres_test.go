package postgres

import (
	"context"
	"testing"

	"mafia/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// open opens a store on a fresh database and closes it at the test's end.
func open(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestOpenMigratesOnce pins that Open brings an empty database up to date
// and that opening it again finds nothing left to do.
func TestOpenMigratesOnce(t *testing.T) {
	url := pgtest.URL(t)
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
