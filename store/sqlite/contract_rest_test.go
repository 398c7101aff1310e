package sqlite

import (
	"testing"

	"mafia/store"
	"mafia/store/storetest"
)

// openContract opens a fresh file for one subtest of the contract suite.
func openContract(t *testing.T) store.Store {
	db, _ := openTest(t)
	return db
}

func TestContract_Accounts(t *testing.T) { storetest.RunAccounts(t, openContract) }

func TestContract_Clubs(t *testing.T) { storetest.RunClubs(t, openContract) }

func TestContract_Ratings(t *testing.T) { storetest.RunRatings(t, openContract) }
