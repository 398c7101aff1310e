// Package hosttest is what the host's assistant's tests share: the
// assistant on loopback over a real SQLite file (Server, StartServer,
// StartMembersServer), its API called as the host's phone calls it (Call,
// Create7, SyncUp, ...), and, for the browser tests, the phone's tab in the
// package's one Chromium (Browser, Tab, NewTab) with the host's page on it
// (Host, OpenHost) and drivers that play a game on its screens (Driver,
// Script).
//
// It is for tests only: nothing in the program imports it. The assistant's
// own tests (package assist_test) and its browser tests (the packages under
// assist/browsertest, split in two so that go test runs them side by side
// and none nears its ten-minute timeout) import it.
package hosttest

import (
	"os"
	"path/filepath"
	"testing"
)

// Root returns the repository's root (the folder of go.mod), found upward
// from the test's working folder, so that a test in any package reads the
// repository's files by the same path.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = up
	}
}
