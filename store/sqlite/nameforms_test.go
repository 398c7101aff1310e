package sqlite

import (
	"testing"

	"mafia/store/storetest"
)

// TestContractNameForms runs the store contract's name forms on SQLite.
func TestContractNameForms(t *testing.T) { storetest.RunNameForms(t, openContract) }
