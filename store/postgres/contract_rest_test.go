package postgres

import (
	"testing"

	"mafia/store"
	"mafia/store/storetest"
)

// openContract opens a store on a fresh database for one test of the
// contract suite.
func openContract(t *testing.T) store.Store { return open(t) }

// TestContractAccounts, TestContractClubs, TestContractRatings and
// TestContractClubMembers run the store contract's accounts, clubs, ratings
// and clubs' members (package storetest) on PostgreSQL.
func TestContractAccounts(t *testing.T) {
	t.Parallel()
	storetest.RunAccounts(t, openContract)
}

func TestContractClubs(t *testing.T) {
	t.Parallel()
	storetest.RunClubs(t, openContract)
}

func TestContractRatings(t *testing.T) {
	t.Parallel()
	storetest.RunRatings(t, openContract)
}

func TestContractClubMembers(t *testing.T) {
	t.Parallel()
	storetest.RunClubMembers(t, openContract)
}

// TestContractTournaments runs the store contract's tournaments (package
// storetest) on PostgreSQL.
func TestContractTournaments(t *testing.T) {
	t.Parallel()
	storetest.RunTournaments(t, openContract)
}
