package sqlite

import (
	"testing"

	"mafia/store"
	"mafia/store/storetest"
)

// openContract opens a fresh file for one test of the contract suite.
func openContract(t *testing.T) store.Store {
	db, _ := openTest(t)
	return db
}

// TestContractAccounts, TestContractClubs, TestContractRatings and
// TestContractClubMembers run the store contract's accounts, clubs, ratings
// and clubs' members (package storetest) on SQLite.
func TestContractAccounts(t *testing.T) { storetest.RunAccounts(t, openContract) }

func TestContractClubs(t *testing.T) { storetest.RunClubs(t, openContract) }

func TestContractRatings(t *testing.T) { storetest.RunRatings(t, openContract) }

func TestContractClubMembers(t *testing.T) { storetest.RunClubMembers(t, openContract) }

// TestContractTournaments runs the store contract's tournaments (package
// storetest) on SQLite.
func TestContractTournaments(t *testing.T) { storetest.RunTournaments(t, openContract) }
