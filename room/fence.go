package room

// This file is the room's half of a cluster's table leases
// (docs/cluster.md): its writes carry the fencing token of the table's
// lease, and a room whose write is refused with store.ErrFenced lets the
// table go at once.
//
// A node that owns a table holds its lease (store.Leases) with a token,
// and runs the table's room with that token (Config.Fence, or the one
// Config.Own gives a table it creates). Every store write of the table's
// state the room makes carries it: the room writes through
// store.Fenced(Config.Store, table, token), a handle that fences each
// write itself, so that no write can leave without it (a context is not
// its carrier). Once the
// lease has passed to another node (this one was paused past its ttl, or
// lost the database for a while), the store refuses the room's next write
// with store.ErrFenced, and the room (lose):
//
//   - applies nothing of what it was writing: the refused events are
//     rolled back as any refused append is, and nobody is sent them;
//   - refuses the request that hit it with CodeMoved, then drops every
//     connection with CodeMoved (the server closes them 1012 table_moved:
//     the client reconnects with since, to any node, and finds the table at
//     its new owner);
//   - writes nothing again: every later write is refused before it reaches
//     the store, its kept background writes (persist.go) are forgotten, not
//     tried again, and nothing of it is retried (a step's end, a kept write);
//   - stops at once (the request it is in is its last), and calls
//     Config.Lost once, on its goroutine, before Done is closed.
//
// The new owner loads the table from the store as it is: everything the
// room wrote before the refusal, and nothing after. A room without a fence
// (Fence 0: one node alone) writes to its store directly; a clustered
// store refuses its writes of a leased table (store.ErrUnfenced).
//
// A node that hands a table over of its own accord (a drain) stops its
// room with Move: Stop's writes (everything kept is committed before it
// returns), then every connection dropped with CodeMoved as above, without
// Lost; the node lets the lease go afterwards.

import (
	"context"
	"errors"
	"sync/atomic"

	"mafia/engine"
	"mafia/store"
)

// CodeMoved: the table passed to another node of a cluster (its lease was
// taken over, or handed over): the room let it go. The client reconnects,
// to any node, with since.
const CodeMoved engine.Code = "table_moved"

// fenceState is the room's fence: the context its writes come from, and
// whether a write of it was fenced out.
type fenceState struct {
	// base is the context every store call of the room comes from.
	base context.Context
	// moved is set (once) when a write was refused with store.ErrFenced,
	// or when a room stopped by Move has ended; read from any goroutine
	// (Moved, stoppedCode).
	moved atomic.Bool
	// moving is set by Move, before it stops the room.
	moving atomic.Bool
	// fenced: a write was refused with store.ErrFenced (Lost is called).
	fenced bool
	// unfenced is Config.Store as given, which setFence wraps.
	unfenced Store
}

// setFence makes token (0: none) the fence of the room's writes: the room
// writes through store.Fenced's handle on its Store (its chat too), and
// its life starts again. It is called before the room runs (newRoom, and
// Create once Config.Own has given the token).
func (r *Room) setFence(token int64) {
	if r.endLife != nil {
		r.endLife()
	}
	if r.unfenced == nil {
		r.unfenced = r.cfg.Store
	}
	r.cfg.Store = r.unfenced
	if token != 0 {
		r.cfg.Store = store.Fenced(r.unfenced, r.id, token)
	}
	r.chats = r.cfg.Store
	r.base = context.Background()
	r.life, r.endLife = context.WithCancel(r.base)
}

// Moved reports whether the room stopped, or is stopping, because its
// table passed to another node: a write of it was refused with
// store.ErrFenced (the lease was taken over), or it was stopped by Move (a
// handover). A room stopped by Stop, or for any other reason, has not
// moved. Safe from any goroutine.
func (r *Room) Moved() bool { return r.moved.Load() }

// Move stops the room as Stop does (see Stop for what is written before it
// returns) for a table this node hands over to another (a drain): every
// connection is dropped with CodeMoved, not CodeStopped, so that its client
// reconnects at once, to any node, and requests are refused with CodeMoved.
// Config.Lost is not called: the node let the table go of its own accord,
// and releases (or lets run out) its lease once Move has returned.
func (r *Room) Move() {
	r.moving.Store(true)
	r.Stop()
}

// movedErr refuses a write once the table has moved (nil until then): the
// room writes nothing more, not even to be refused by the store.
func (r *Room) movedErr() error {
	if r.moved.Load() {
		return errCode(CodeMoved)
	}
	return nil
}

// fencedOut reports whether err is the store's refusal of a fenced write
// (store.ErrFenced); the first one lets the table go (lose).
func (r *Room) fencedOut(err error) bool {
	if err == nil || !errors.Is(err, store.ErrFenced) {
		return false
	}
	r.lose(err)
	return true
}

// lose lets the table go, once: the room stops after the request it is in
// (run drops every connection with CodeMoved and calls Config.Lost), and
// its writes kept to be tried again are forgotten.
func (r *Room) lose(err error) {
	if r.moved.Swap(true) {
		return
	}
	r.fenced = true
	r.cfg.Log.Warn("the table's lease passed to another node: the room lets the table go", "err", err)
	r.stopping = true
	stopTimer(&r.rewrite)
	stopTimer(&r.retry)
	clear(r.unsaved)
	r.unsaved = nil
}
