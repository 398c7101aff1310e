package sqlite

import (
	"testing"

	"mafia/store/storetest"
)

// TestContractNameForms runs the store contract's name forms on SQLite.
func TestContractNameForms(t *testing.T) { storetest.RunNameForms(t, openContract) }

// TestContractSeenAddrs runs the store contract's addresses seen on
// SQLite.
func TestContractSeenAddrs(t *testing.T) { storetest.RunSeenAddrs(t, openContract) }
