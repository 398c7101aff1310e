package assist

import "mafia/store"

// Store is what the assistant keeps its in-person games in: the tables
// and their logs (store.Store). The clubs keep their own (package
// clubhttp, reached through Clubs). Both stores offer it (store.All); it
// is given typed in Config, never found at run time.
type Store interface {
	store.Store
}
