package engine_test

import (
	"testing"

	"mafia/internal/puritytest"
)

// The engine is a pure, deterministic library (doc.go): no clock, no I/O,
// no goroutines, no global random source. This test fails the build when
// its source (or the source of a project package it imports) breaks that.

// TestPurity_EngineImportsOnlyPurePackages parses the engine's non-test
// source, and that of every project package it imports, and fails on an
// impure import, a go statement, a select, a channel, or a print
// (internal/puritytest; its own tests prove it can fail).
func TestPurity_EngineImportsOnlyPurePackages(t *testing.T) {
	problems, err := puritytest.Check("..", "mafia/engine")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}
