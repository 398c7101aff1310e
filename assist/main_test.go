package assist_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain runs the package's tests and then fails them if a goroutine they
// started is still running: every game, store, server and connection a
// test opens must end when it is closed. The check runs once, after all of
// them, so it costs the package one look at its goroutines, not one per
// test. The assistant's browser tests are in the packages under
// assist/browsertest, each with a TestMain of its own.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "FAIL: goroutines left running after the tests: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}
