// Package testpar sets how many of a test binary's parallel tests
// (t.Parallel) run at once. It is for tests only: nothing in the program
// imports it.
package testpar

import (
	"flag"
	"strconv"
)

// Parallel makes up to n of a package's parallel tests run at once, in
// place of go test's default of one per CPU, unless the command line chose
// (-parallel). It is called from TestMain, before m.Run.
//
// It is for tests that spend most of their time waiting (on a browser's
// page, a game's clocks, a child process, a connection cut on purpose): on
// a 2-core machine two at a time leave the CPU idle through those waits; n
// at once overlap them. A slow machine runs fewer with -parallel 2.
func Parallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}
