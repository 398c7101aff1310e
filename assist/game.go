package assist

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"golang.org/x/time/rate"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/store"
	"mafia/wire"
)

// stored is an in-person table's Data in the store. Everything sits under
// "in_person", as it has since the first in-person games (when that, and
// their statuses, told them apart from the rooms' tables; their kind does
// now).
type stored struct {
	InPerson *inPerson `json:"in_person"`
}

// inPerson is what the store keeps of an in-person game besides its events:
// the settings, and every entry the host made, in order (an entry's Seq is
// its index). The entries make syncing idempotent and let a game be rebuilt
// on another phone; the events stay the record.
type inPerson struct {
	Settings record.Settings  `json:"settings"`
	Commands []record.Command `json:"commands"`
	Viewed   []int            `json:"viewed,omitempty"`  // seats that opened their card link
	Renames  []Rename         `json:"renames,omitempty"` // names corrected after the game was made
	// Score is the best move and the extra points the host recorded for
	// the club (score.go); nil: none.
	Score *gameScore `json:"score,omitempty"`
	// Account is the account logged in when the game was made (0: none):
	// its host, who finds it in the history from any device (history.go).
	Account int64 `json:"account,omitempty"`
	// Cohosts are the people the host invited to follow the game live,
	// and Fixes the corrections they proposed, in the server's order
	// (cohost.go).
	Cohosts []Cohost `json:"cohosts,omitempty"`
	Fixes   []Fix    `json:"fixes,omitempty"`
	// Clock is the speech clock as the host's phone last told it (clock.go);
	// nil: never told.
	Clock *Clock `json:"clock,omitempty"`
	// Rewrites are the times the host's phone rewrote earlier entries to
	// apply corrections (cohost_rewrite.go), with whose.
	Rewrites []Rewrite `json:"rewrites,omitempty"`
}

// game is a loaded in-person table: its stored state and its engine, kept
// equal to the store. Its mutex orders every change.
type game struct {
	mu    sync.Mutex
	table store.Table
	seats []store.Seat
	rec   inPerson
	g     *engine.Game
	log   []engine.Event
	// stale: this copy is no longer the game's in memory (a write failed,
	// so memory may be ahead of the store; or the game was deleted, or
	// dropped from memory): whoever locks it reads the game again.
	stale bool
	// waiting counts the requests that found the game in memory and have
	// not locked it yet (guarded by Handler.mu): meanwhile it is not
	// dropped from memory (see gameCache).
	waiting int
	// clocks bounds how often the clock's state is written (setClock),
	// made at the first; a copy read again from the store starts anew.
	clocks *rate.Limiter
}

// hostGame loads and locks game id for a request that only its host may
// make; otherwise it answers the request itself and returns false. The
// caller unlocks it (Handler.unlock).
func (h *Handler) hostGame(w http.ResponseWriter, r *http.Request, id string) (*game, bool) {
	gm, err := h.locked(r.Context(), id)
	if err != nil {
		h.fail(w, r, err, nil)
		return nil, false
	}
	if !gm.authorized(tokenOf(r, id)) {
		h.unlock(gm)
		h.fail(w, r, errBadToken, nil)
		return nil, false
	}
	return gm, true
}

// locked returns a table's game with its mutex held; the caller unlocks it
// with Handler.unlock.
func (h *Handler) locked(ctx context.Context, id string) (*game, error) {
	for range 3 {
		gm, err := h.load(ctx, id)
		if err != nil {
			return nil, err
		}
		gm.mu.Lock()
		h.mu.Lock()
		gm.waiting--
		h.mu.Unlock()
		if !gm.stale && h.cfg.Shared {
			gm.stale = h.changedElsewhere(ctx, gm)
		}
		if !gm.stale {
			return gm, nil
		}
		gm.mu.Unlock()
		h.forget(id)
	}
	return nil, fmt.Errorf("assist: table %s: cannot load a fresh copy", id)
}

// changedElsewhere reports whether another server has written gm's table
// since this one read or wrote it (Config.Shared): its stored row is not
// the one gm holds. A row that cannot be read counts as changed, so that the
// game is read again rather than written from a copy that may be stale.
func (h *Handler) changedElsewhere(ctx context.Context, gm *game) bool {
	t, _, err := h.cfg.Store.Table(ctx, store.KindInPerson, gm.table.ID)
	if err != nil {
		return true
	}
	return !t.UpdatedAt.Equal(gm.table.UpdatedAt) || t.Status != gm.table.Status || !bytes.Equal(t.Data, gm.table.Data)
}

// load returns the game of a table, loading it from the store when it is
// not in memory (its first use, or it was dropped: see gameCache). The
// game is counted as waiting for the caller, who locks it and then counts
// itself out (locked).
func (h *Handler) load(ctx context.Context, id string) (*game, error) {
	h.mu.Lock()
	gm := h.games.get(id)
	if gm != nil {
		gm.waiting++
	}
	h.mu.Unlock()
	if gm != nil {
		return gm, nil
	}
	gm, err := h.read(ctx, id)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if old := h.games.get(id); old != nil {
		old.waiting++
		return old, nil
	}
	gm.waiting++
	h.games.add(id, gm)
	return gm, nil
}

// unlock unlocks a game that locked returned, and drops from memory the
// games beyond the bound that were in use until now (see gameCache).
func (h *Handler) unlock(gm *game) {
	gm.mu.Unlock()
	h.mu.Lock()
	h.games.trim()
	h.mu.Unlock()
}

// forget drops a game from memory, so that the next request reads it from
// the store again (after a failed write). Only the copy that is stale is
// dropped: another request may have loaded a fresh one already.
func (h *Handler) forget(id string) {
	h.mu.Lock()
	if gm := h.games.get(id); gm != nil && gm.stale {
		h.games.remove(id)
	}
	h.mu.Unlock()
}

// read loads a table and replays its entries through the engine. The log in
// the store must be the start of the replayed log; a tail missing from the
// store (a crash between saving the entries and appending their events) is
// appended now, and a log that an undo should have rewritten is rewritten.
func (h *Handler) read(ctx context.Context, id string) (*game, error) {
	t, seats, err := h.cfg.Store.Table(ctx, store.KindInPerson, id)
	if err != nil {
		return nil, err
	}
	if t.Status != StatusLive && t.Status != StatusEnded {
		return nil, store.ErrNotFound
	}
	var st stored
	if err := json.Unmarshal(t.Data, &st); err != nil || st.InPerson == nil {
		return nil, fmt.Errorf("assist: table %s: bad data: %v", id, err)
	}
	g, log, err := record.Replay(&st.InPerson.Settings, st.InPerson.Commands)
	if err != nil {
		return nil, fmt.Errorf("assist: table %s: replay: %w", id, err)
	}
	have, err := h.cfg.Store.Events(ctx, id)
	if err != nil {
		return nil, err
	}
	n := g.Players()
	same := 0
	for same < len(have) && same < len(log) && sameEvent(have[same], log[same], n) {
		same++
	}
	switch {
	case same == len(have) && same < len(log):
		if err := h.cfg.Store.AppendEvents(ctx, id, same, log[same:]); err != nil {
			return nil, err
		}
		h.cfg.Log.Warn("assist: appended events missing from the store", "table", id, "from", same, "to", len(log))
	case same < len(have) && (corrected(st.InPerson.Commands) || len(st.InPerson.Rewrites) > 0):
		// An undo or a rewrite (a referee's correction) was saved, and the
		// log was not rewritten after it (the server stopped, or the
		// write failed): the entries are the truth.
		if err := h.cfg.Store.RewriteEvents(ctx, id, same, log[same:]); err != nil {
			return nil, err
		}
		h.cfg.Log.Warn("assist: rewrote the log after an undo", "table", id, "from", same, "to", len(log))
	case len(have) > len(log):
		return nil, fmt.Errorf("assist: table %s: the store has %d events, the entries give %d", id, len(have), len(log))
	case same < len(have):
		return nil, fmt.Errorf("assist: table %s: event %d differs from the replay", id, same)
	}
	return &game{table: t, seats: seats, rec: *st.InPerson, g: g, log: log}, nil
}

// corrected reports whether the entries hold an undo.
func corrected(cmds []record.Command) bool {
	for _, c := range cmds {
		if c.Verb == record.VerbUndo {
			return true
		}
	}
	return false
}

// sameEvent compares two events as the store keeps them (their wire form).
func sameEvent(a, b engine.Event, players int) bool {
	x, _ := json.Marshal(wire.FromEvent(a, players))
	y, _ := json.Marshal(wire.FromEvent(b, players))
	return string(x) == string(y)
}

// data encodes what the store keeps of the game besides its seats and log
// (the table's Data).
func (gm *game) data() []byte {
	b, err := json.Marshal(stored{InPerson: &gm.rec})
	if err != nil {
		panic("assist: " + err.Error())
	}
	return b
}

// authorized reports whether tok is the game's host token.
func (gm *game) authorized(tok string) bool { return tokenMatches(tok, gm.table.HostToken) }
