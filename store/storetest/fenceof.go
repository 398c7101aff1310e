package storetest

import (
	"context"

	"mafia/store/internal/fence"
)

// FenceOf returns the fencing token a write's context carries for table
// on its way from a store.Fenced handle to the store, and whether it
// carries one: for a test's spy between the two (room/fence_test.go), since
// only the stores read a fence otherwise.
func FenceOf(ctx context.Context, table string) (token int64, ok bool) {
	return fence.Of(ctx, table)
}
