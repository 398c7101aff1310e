package server

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests when a goroutine they started is still
// running once they are done: every table, connection, timer and bot that
// a test opens must end when it is closed.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
