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
// They run side by side after the others: the four longest, which wait on
// processes of their own (the binary killed and started again, a second
// server on one file, the Python example bot) or play many games whose
// every client reads every frame (the leak scan); four that spend their
// time waiting on the wall clock with little work, each on a server of its
// own (a server fallen silent, a connection written to and not pinged, one
// that leaves the ping unanswered, the HTTP timeouts); and two whose
// time is their games' clocks, 1- and 8-second nights on the wall clock,
// each on a server of its own whose every seat is read as it plays (the
// bots' languages, the best move). Four at once, not more: at six, with
// the eleven seats' game and the traffic analysis beside the leak scan on
// a loaded core (2026-12-07), clients starved of the CPU lost their
// connections and a traffic game outran its guard; those two, whose time
// is CPU and round trips rather than waiting, stay one at a time. The others stay one
// at a time: many hold a seat's connection unread while they drive
// another, and the server ends a connection that leaves its ping
// unanswered for Timeouts.WebSocket, which a test slowed by others beside
// it on a 2-core machine reached at the default 10 s (kicks by a seat
// dropped, healthz with no reader, a history read cut; the harness now
// sets it beyond any test's time: unstarved, helpers_test.go). A test's own
// independent games whose every client reads every frame may be parallel
// subtests (the deals test's twelve tables; the damaged file's seven
// cases, each on a file and a server of its own), taking these slots in
// turn.
const serverParallel = 4

// TestMain runs the package's tests, then fails them if any frame a test
// sent or received did not fit docs/protocol.schema.json (checkFrames), or
// if a goroutine they started is still running: every table, connection,
// timer and bot a test opens must end when it is closed. The PostgreSQL
// the cluster's tests started (internal/pgtest), if any, is stopped first.
func TestMain(m *testing.M) {
	testpar.Parallel(serverParallel)
	prebuild()
	code := m.Run()
	pgtest.Stop()
	afterBuild()
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
