package server

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"mafia/internal/pgtest"
	"mafia/internal/testpar"
)

// serverParallel is how many of the package's parallel tests run at once.
// The tests that spend their time waiting (on their games' clocks, on
// processes of their own: the binary killed and started again, a second
// server on one file, the Python example bot) or play many games whose
// every client reads every frame (the leak scan) run side by side, after
// the others. The test driver's connections read in a goroutine of their
// own (driver_test.go), so a seat's connection held unread while a test
// drives another still answers the server's pings: a test slowed by
// others beside it is not dropped by the 10 s ping timeout. The tests left
// one at a time are the quick ones, and those that must be alone: a
// PostgreSQL restart, a package variable set for one test, a count of the
// goroutines left running, timing a silence.
const serverParallel = 6

// TestMain runs the package's tests, then fails them if any frame a test
// sent or received did not fit docs/protocol.schema.json (checkFrames), or
// if a goroutine they started is still running: every table, connection,
// timer and bot a test opens must end when it is closed. The PostgreSQL
// the cluster's tests started (internal/pgtest), if any, is stopped first.
func TestMain(m *testing.M) {
	testpar.Parallel(serverParallel)
	code := m.Run()
	pgtest.Stop()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
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
