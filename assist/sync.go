package assist

import (
	"errors"
	"net/http"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/internal/httpapi"
)

// syncRequest is the body of POST /host/api/games/{id}/sync: entries in
// order, each with its place (Seq) in the game's list of entries.
type syncRequest struct {
	Commands []record.Command `json:"commands"`
	// Rewrite, from the host's phone after it applied a correction of an
	// earlier entry: the entries replace the server's from Rewrite.From on
	// (cohost_rewrite.go).
	Rewrite *rewriteRequest `json:"rewrite,omitempty"`
}

// syncReply answers a sync: how many entries the server holds, how many
// events the log has, and the result once the game is over.
type syncReply struct {
	Applied int    `json:"applied"`
	Events  int    `json:"events"`
	Ended   bool   `json:"ended"`
	Winner  string `json:"winner,omitempty"`
}

// MaxBatch is the most entries one sync may carry.
const MaxBatch = 200

// syncGame applies a batch of entries once each, in order. An entry whose
// place the server already holds is skipped if its id matches (a repeat
// after a lost answer) and refused with diverged if it does not (another
// phone); an entry beyond the next place is refused with out_of_order, and
// the answer says how many entries the server holds, so the phone sends from
// there. An entry the engine refuses is refused with the engine's code and
// sentence; the entries before it are kept.
func (h *Handler) syncGame(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	id := r.PathValue("id")
	var req syncRequest
	if err := decode(r, &req, 64<<10); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	if len(req.Commands) > MaxBatch {
		h.fail(w, r, &engine.Error{Code: httpapi.CodeBadRequest, Name: "commands", N: MaxBatch}, nil)
		return
	}
	gm, ok := h.syncingGame(w, r, id)
	if !ok {
		return
	}
	defer h.unlock(gm)
	before, first, stored := len(gm.rec.Commands), len(gm.log), len(gm.log)
	var refusal error
	rewritten := false
	if req.Rewrite != nil {
		done, changed, err := h.rewrite(gm, req.Rewrite, req.Commands)
		if err != nil {
			h.fail(w, r, err, &before)
			return
		}
		rewritten, first = done, changed
	}
	for _, c := range req.Commands {
		if rewritten {
			break // the rewrite took the whole batch
		}
		held := len(gm.rec.Commands)
		if c.ID == "" || len(c.ID) > record.MaxID {
			refusal = &engine.Error{Code: httpapi.CodeBadRequest, Name: "id"}
			break
		}
		if c.Seq < held {
			if c.Seq < 0 || gm.rec.Commands[c.Seq].ID != c.ID {
				refusal = &engine.Error{Code: CodeDiverged, N: held}
				break
			}
			continue
		}
		if c.Seq > held {
			refusal = &engine.Error{Code: CodeOutOfOrder, N: held}
			break
		}
		if held >= h.cfg.MaxEntries {
			refusal = &engine.Error{Code: CodeEntriesFull, N: h.cfg.MaxEntries}
			break
		}
		kept, err := gm.enter(c)
		if err != nil {
			refusal = err
			break
		}
		first = min(first, kept)
	}
	if len(gm.rec.Commands) > before || rewritten {
		if err := h.save(r, gm, first, stored); err != nil {
			gm.stale = true
			h.forget(id)
			h.fail(w, r, err, nil)
			return
		}
	}
	applied := len(gm.rec.Commands)
	if refusal != nil {
		h.fail(w, r, refusal, &applied)
		return
	}
	writeJSON(w, http.StatusOK, syncReply{Applied: applied, Events: len(gm.log), Ended: gm.g.Ended(), Winner: gm.g.Winner().String()})
}

// enter applies one entry at the next place: an undo through a replay of
// the entries left in force, any other entry through the engine. kept is
// how much of the log before it stayed (less after an undo). A refused
// entry changes nothing.
func (gm *game) enter(c record.Command) (kept int, err error) {
	if err := record.CheckEntry(gm.rec.Commands, c); err != nil {
		return 0, err
	}
	if c.Verb == record.VerbUndo {
		cmds := append(append([]record.Command(nil), gm.rec.Commands...), c)
		g, log, err := record.Replay(&gm.rec.Settings, cmds)
		if err != nil {
			return 0, errors.Unwrap(err)
		}
		gm.rec.Commands, gm.g, gm.log = cmds, g, log
		return len(log), nil
	}
	kept = len(gm.log)
	if err := record.CheckStep(gm.log, c); err != nil {
		return 0, err
	}
	ec, err := c.Engine()
	if err != nil {
		return 0, err
	}
	evs, err := gm.g.Handle(ec)
	if err != nil {
		return 0, err
	}
	gm.rec.Commands = append(gm.rec.Commands, c)
	gm.log = append(gm.log, evs...)
	return kept, nil
}

// save writes new entries and then their events (from index first of the
// log; the store held stored events before): if the server stops between
// the two, read brings the events in line with the entries. After an undo
// the stored log is rewritten from first on (the corrected game);
// otherwise the new events are appended. A game
// that an undo reopened is live again, its result cleared.
func (h *Handler) save(r *http.Request, gm *game, first, stored int) error {
	t := gm.table
	t.Data = gm.data()
	t.UpdatedAt = h.cfg.Now()
	t.Status, t.Winner = StatusLive, ""
	if gm.g.Ended() {
		t.Status, t.Winner = StatusEnded, gm.g.Winner().String()
	}
	if err := h.cfg.Store.UpdateTable(r.Context(), t); err != nil {
		return err
	}
	gm.table = t
	if first < stored {
		return h.cfg.Store.RewriteEvents(r.Context(), t.ID, first, gm.log[first:])
	}
	return h.cfg.Store.AppendEvents(r.Context(), t.ID, first, gm.log[first:])
}
