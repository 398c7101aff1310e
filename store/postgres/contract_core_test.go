package postgres

import (
	"testing"

	"mafia/store"
	"mafia/store/storetest"
)

// TestContractCore runs the store contract's core (package storetest) on
// PostgreSQL, a fresh database for each of its tests.
func TestContractCore(t *testing.T) {
	t.Parallel()
	storetest.RunCore(t, func(t *testing.T) store.Store { return open(t) })
}
