package room

import "mafia/store"

// Store is what a room keeps its table in: the table, its seats, its log
// and clock (store.Store), and its chat, read a window at a time for the
// history pages (store.ChatPages). Both stores offer it (store.All); a
// room is given it typed in its Config, never finding a capability at run
// time. With a fence (Config.Fence), the room writes through
// store.Fenced's handle on it.
type Store = store.TableStore
