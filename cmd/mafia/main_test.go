package main

import (
	"testing"

	"mafia/internal/pgtest"
)

// TestMain runs the package's tests, then stops the PostgreSQL that
// pgtest started for them, if any.
func TestMain(m *testing.M) { pgtest.Main(m) }
