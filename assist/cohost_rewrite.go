package assist

import (
	"errors"
	"net/http"
	"time"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/internal/httpapi"
)

// A co-host's correction of an earlier entry, applied by the host's phone:
// it rebuilds the game from its entries with the corrected action in place
// (record.Amend) and keeps the later entries that still fit. Its sync then
// rewrites the entries from the first one that changed, the one way the
// server takes entries at places it holds already: only from the host's
// token, at most MaxRewrites times a game, naming the entry the server
// held at that place (Was: a phone that did not see the server's entries
// cannot overwrite them), and only as a list the engine replays whole;
// otherwise nothing changes. The game's record keeps each rewrite with the
// corrections it applied (by whom: the correction's writer).

// MaxRewrites is how many times a game's entries may be rewritten.
const MaxRewrites = 50

// The codes of a rewrite's refusals.
const (
	// CodeCohostNotHost: a co-host's key may follow and propose, not enter.
	CodeCohostNotHost engine.Code = "cohost_not_host"
	// CodeRewritesFull: the game's entries were rewritten MaxRewrites times (N).
	CodeRewritesFull engine.Code = "rewrites_full"
)

// rewriteRequest is a sync's rewrite: the batch's entries replace the
// server's from place From on.
type rewriteRequest struct {
	From int    `json:"from"`
	Was  string `json:"was"` // the id of the entry the server holds at From
	// Fixes are the corrections (their places in the game's list) this
	// rewrite applies: marked applied with it.
	Fixes []int `json:"fixes,omitempty"`
	// Dropped is how many later entries the phone could not keep.
	Dropped int `json:"dropped,omitempty"`
}

// Rewrite is one rewrite of the game's entries as its record keeps it.
type Rewrite struct {
	At      time.Time `json:"at"`
	From    int       `json:"from"`
	Fixes   []int     `json:"fixes,omitempty"`
	By      []string  `json:"by,omitempty"` // the corrections' writers
	Dropped int       `json:"dropped,omitempty"`
}

// syncingGame loads and locks game id for its host's sync. A co-host's key
// is refused with cohost_not_host, anything else with bad_token.
func (h *Handler) syncingGame(w http.ResponseWriter, r *http.Request, id string) (*game, bool) {
	gm, err := h.locked(r.Context(), id)
	if err != nil {
		h.fail(w, r, err, nil)
		return nil, false
	}
	tok := tokenOf(r, id)
	if gm.authorized(tok) {
		return gm, true
	}
	code := errBadToken
	if gm.cohostOf(bearer(r)) != nil {
		code = &engine.Error{Code: CodeCohostNotHost}
	}
	h.unlock(gm)
	h.fail(w, r, code, nil)
	return nil, false
}

// rewrite applies a sync's rewrite to gm: the entries from rw.From on
// become cmds (a whole list the engine replays). done is false when the
// server holds the rewrite already (a repeat: the sync goes on as usual).
// first is the first event of the log that changed.
func (h *Handler) rewrite(gm *game, rw *rewriteRequest, cmds []record.Command) (done bool, first int, err error) {
	held := len(gm.rec.Commands)
	bad := &engine.Error{Code: httpapi.CodeBadRequest, Name: "rewrite"}
	if rw.From < 0 || rw.From >= held || len(cmds) == 0 || len(rw.Fixes) > MaxFixes || rw.Dropped < 0 || rw.Dropped > 10*MaxBatch {
		return false, 0, bad
	}
	if gm.rec.Commands[rw.From].ID == cmds[0].ID {
		return false, 0, nil // applied already: its answer was lost
	}
	if gm.rec.Commands[rw.From].ID != rw.Was {
		return false, 0, &engine.Error{Code: CodeDiverged, N: held}
	}
	if len(gm.rec.Rewrites) >= MaxRewrites {
		return false, 0, &engine.Error{Code: CodeRewritesFull, N: MaxRewrites}
	}
	if rw.From+len(cmds) > h.cfg.MaxEntries {
		return false, 0, &engine.Error{Code: CodeEntriesFull, N: h.cfg.MaxEntries}
	}
	list := append([]record.Command(nil), gm.rec.Commands[:rw.From]...)
	for i, c := range cmds {
		if c.ID == "" || len(c.ID) > record.MaxID || c.Seq != rw.From+i {
			return false, 0, bad
		}
		list = append(list, c)
	}
	g, log, err := record.Replay(&gm.rec.Settings, list)
	if err != nil {
		if u := errors.Unwrap(err); u != nil {
			err = u
		}
		return false, 0, err
	}
	_, before, err := record.Replay(&gm.rec.Settings, gm.rec.Commands[:rw.From])
	if err != nil {
		return false, 0, err
	}
	now := h.cfg.Now().UTC()
	note := Rewrite{At: now, From: rw.From, Dropped: rw.Dropped}
	fixes := append([]Fix(nil), gm.rec.Fixes...)
	for _, seq := range rw.Fixes {
		if seq < 0 || seq >= len(fixes) || fixes[seq].State != FixProposed {
			continue // unknown or settled: the rewrite stands without it
		}
		fixes[seq].State, fixes[seq].Entry, fixes[seq].Resolved = FixApplied, rw.From+1, &now
		note.Fixes, note.By = append(note.Fixes, seq), append(note.By, fixes[seq].By)
	}
	// The stored log changes from the first event the old and the new log
	// do not share: at most where the entries before From end, earlier when
	// the entry rewritten was an undo (which had taken events back).
	first = min(len(before), samePrefix(gm.log, log))
	gm.rec.Commands, gm.g, gm.log = list, g, log
	gm.rec.Fixes = fixes
	gm.rec.Rewrites = append(append([]Rewrite(nil), gm.rec.Rewrites...), note)
	return true, first, nil
}

// samePrefix is how many events a and b begin with alike.
func samePrefix(a, b []engine.Event) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
