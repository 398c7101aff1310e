package account

import "mafia/store"

// Store is what the accounts are kept in: the accounts, their sessions and
// bots (store.Accounts), and the rating history a profile shows beside
// each game (store.Ratings). Both stores offer it (store.All); it is given
// typed in Config, never found at run time.
type Store interface {
	store.Accounts
	store.Ratings
	store.NameForms
}
