package cluster

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if a goroutine they started is still
// running: every node, embedded NATS server, session and server a test
// opens must end when it is closed.
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
