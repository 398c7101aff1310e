package browsertest

import "mafia/internal/testpar"

// Parallel makes up to n of a package's parallel tests (t.Parallel) run at
// once, in place of go test's default of one per CPU, unless the command
// line chose (-parallel). It is called from TestMain, before m.Run.
//
// A browser test spends most of its time waiting: on a game's clocks, on a
// connection cut for a minute, on a page's reconnect. On a 2-core machine
// two at a time leave the CPU idle through those waits, and the package's
// tests took longer than go test's default 10 minutes there; n at once
// overlap the waits. A slow machine runs fewer with -parallel 2 (README).
func Parallel(n int) { testpar.Parallel(n) }

// Slack is the factor by which a package's browser tests multiply the
// bound of every wait for a page (an action, an evaluation, a condition
// polled): a bound is where a test gives up, not a timing it checks, and a
// busy machine running several browser tests at once takes several times a
// quiet one's time to load a page or draw a frame. A passing test waits no
// longer for it. (A wait that checks that something does not happen keeps
// its own bound.)
const Slack = 4
