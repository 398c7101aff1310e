package clubhttp

import "mafia/store"

// Store is what the clubs are kept in: the clubs with their rosters,
// seasons and games' index, their members, the accounts members are found
// by, the ratings the club's leaderboard reads, and the clubs' tournaments. Both stores offer it
// (store.All); it is given typed in Config, never found at run time.
type Store interface {
	store.Clubs
	store.ClubMembers
	store.Accounts
	store.Ratings
	store.Tournaments
}
