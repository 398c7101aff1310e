package store

import "context"

// UnratedTables is a Store that can list the rated online tables whose
// game has ended and is not rated yet: what a crash between a game's end
// and its rating left behind, rated again when the server starts.
type UnratedTables interface {
	// UnratedEnded returns the IDs of the online tables that ended, whose
	// data says they are rated (the room's settings, "rated": true), and
	// whose game no RateGame has rated; oldest first, never one set aside.
	UnratedEnded(ctx context.Context) ([]string, error)
}
