package assist

import (
	"context"
	"encoding/csv"
	"net/http"
	"time"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/store"
)

var errBadToken = &engine.Error{Code: codeBadToken}

// Protocol is the exported protocol of a game: the table and the record
// arranged from the stored event log.
type Protocol struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	*record.Protocol
}

// readable loads what a protocol needs: the settings and the stored log. A
// finished game's protocol is for everyone; a game still going on is the
// host's alone (it shows every card).
func (h *Handler) readable(r *http.Request, id string) (store.Table, *record.Settings, []engine.Event, error) {
	gm, err := h.locked(r.Context(), id)
	if err != nil {
		return store.Table{}, nil, nil, err
	}
	t, s, ok := gm.table, gm.rec.Settings, gm.table.Status == StatusEnded || gm.authorized(tokenOf(r, id))
	gm.mu.Unlock()
	if !ok {
		return t, nil, nil, errBadToken
	}
	log, err := h.storedLog(r.Context(), id)
	return t, &s, log, err
}

// storedLog is the log as the store holds it: the protocol is that log.
func (h *Handler) storedLog(ctx context.Context, id string) ([]engine.Event, error) {
	return h.cfg.Store.Events(ctx, id)
}

func (h *Handler) protocolJSON(w http.ResponseWriter, r *http.Request) {
	t, s, log, err := h.readable(r, r.PathValue("id"))
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	p := Protocol{ID: t.ID, Created: t.CreatedAt, Updated: t.UpdatedAt, Protocol: record.Build(s, log)}
	w.Header().Set("Content-Disposition", `attachment; filename="mafia-`+t.ID+`.json"`)
	writeJSON(w, http.StatusOK, p)
}

func (h *Handler) protocolCSV(w http.ResponseWriter, r *http.Request) {
	t, s, log, err := h.readable(r, r.PathValue("id"))
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", `attachment; filename="mafia-`+t.ID+`.csv"`)
	cw := csv.NewWriter(w)
	_ = cw.Write(record.CSVHeader)
	_ = cw.WriteAll(record.CSV(s, log))
}
