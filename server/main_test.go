package server

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"mafia/internal/pgtest"
)

// TestMain runs the package's tests, then fails them if any frame a test
// sent or received did not fit docs/protocol.schema.json (checkFrames), or
// if a goroutine they started is still running: every table, connection,
// timer and bot a test opens must end when it is closed. The PostgreSQL
// the cluster's tests started (internal/pgtest), if any, is stopped first.
func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	if !checkFrames() && code == 0 {
		code = 1
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "FAIL: goroutines left running after the tests: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}
