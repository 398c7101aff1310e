//go:build !unix

package pgtest

import (
	"os"
	"testing"
)

// Main runs the tests of m and exits with their code.
func Main(m *testing.M) { os.Exit(m.Run()) }

// Stop does nothing: no server is started here.
func Stop() {}

// URL skips t (fails it under CI=true): the harness starts PostgreSQL as
// another user and stops it by signals, which only Unix offers.
func URL(t testing.TB) string {
	t.Helper()
	unsupported(t)
	return ""
}

// Migrated is URL here.
func Migrated(t testing.TB, migrate func(url string) error) string {
	t.Helper()
	unsupported(t)
	return ""
}

// Down is never reached here (URL skipped the test).
func Down(t testing.TB) { t.Helper(); unsupported(t) }

// Up is never reached here (URL skipped the test).
func Up(t testing.TB) { t.Helper(); unsupported(t) }

// unsupported skips t, or fails it where CI must run every test.
func unsupported(t testing.TB) {
	t.Helper()
	const why = "pgtest: the PostgreSQL harness runs on Unix only (initdb and pg_ctl as another user, signals to the postmaster); run these tests on Linux or macOS, or in WSL"
	if os.Getenv("CI") == "true" {
		t.Fatal(why)
	}
	t.Skip(why)
}
