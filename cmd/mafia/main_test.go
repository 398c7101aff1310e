package main

import (
	"testing"

	"mafia/internal/pgtest"
	"mafia/internal/testpar"
)

// TestMain runs the package's tests, then stops the PostgreSQL that
// pgtest started for them, if any.
//
// The tests that run `mafia serve` in processes of their own (a cluster's
// nodes, a drain, a signal) call t.Parallel and run four at once: they
// spend their time waiting on those processes (a lease's time, a drain, a
// takeover), each on its own database, ports and files. The others, short
// or changing what the test process shares (serveContext), run one at a
// time first; so do the one that times how soon a paused server's clients
// know and the one that stops a node until its lease runs out.
func TestMain(m *testing.M) {
	testpar.Parallel(4)
	pgtest.Main(m)
}
