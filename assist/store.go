package assist

import "mafia/store"

// Store is what the assistant keeps its in-person games and clubs in: the
// tables and their logs (store.Store), the clubs, their members, and the
// accounts members are found by. Both stores offer it (store.All); it is
// given typed in Config, never found at run time.
type Store interface {
	store.Store
	store.Clubs
	store.ClubMembers
	store.Accounts
}
