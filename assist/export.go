package assist

import (
	"context"
	"encoding/csv"
	"net/http"
	"time"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/locale"
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

// readable is what a protocol is made of: the table, the settings, the
// stored log, and the host's corrections (the undos, for the audit trail).
type readable struct {
	table store.Table
	s     *record.Settings
	log   []engine.Event
	fixes []record.Correction
}

// readable loads what a protocol needs. A finished game's protocol is for
// everyone; a game still going on is the host's alone (it shows every card).
func (h *Handler) readable(r *http.Request, id string) (*readable, error) {
	gm, err := h.locked(r.Context(), id)
	if err != nil {
		return nil, err
	}
	t, s, ok := gm.table, gm.rec.Settings, gm.table.Status == StatusEnded || gm.authorized(tokenOf(r, id))
	cmds := append([]record.Command(nil), gm.rec.Commands...)
	gm.mu.Unlock()
	if !ok {
		return nil, errBadToken
	}
	log, err := h.storedLog(r.Context(), id)
	if err != nil {
		return nil, err
	}
	fixes, err := record.Corrections(&s, cmds)
	if err != nil {
		return nil, err
	}
	return &readable{table: t, s: &s, log: log, fixes: fixes}, nil
}

// build arranges the protocol, with the corrections.
func (rd *readable) build() *record.Protocol {
	p := record.Build(rd.s, rd.log)
	p.Correct(rd.fixes)
	return p
}

// storedLog is the log as the store holds it: the protocol is that log.
func (h *Handler) storedLog(ctx context.Context, id string) ([]engine.Event, error) {
	return h.cfg.Store.Events(ctx, id)
}

func (h *Handler) protocolJSON(w http.ResponseWriter, r *http.Request) {
	rd, err := h.readable(r, r.PathValue("id"))
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	t := rd.table
	p := Protocol{ID: t.ID, Created: t.CreatedAt, Updated: t.UpdatedAt, Protocol: rd.build()}
	w.Header().Set("Content-Disposition", `attachment; filename="mafia-`+t.ID+`.json"`)
	writeJSON(w, http.StatusOK, p)
}

func (h *Handler) protocolCSV(w http.ResponseWriter, r *http.Request) {
	rd, err := h.readable(r, r.PathValue("id"))
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	t := rd.table
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", `attachment; filename="mafia-`+t.ID+`.csv"`)
	cw := csv.NewWriter(w)
	_ = cw.Write(csvHeader(locale.New(langOf(r))))
	_ = cw.WriteAll(record.CSV(rd.s, rd.log))
	_ = cw.WriteAll(record.CorrectionRows(rd.s, rd.fixes))
}

// csvHeader is the CSV's header row in a language: each column's name from
// the catalogs (assist.csv.<column>).
func csvHeader(p *locale.Printer) []string {
	out := make([]string, len(record.CSVHeader))
	for i, c := range record.CSVHeader {
		out[i] = p.T("assist.csv."+c, nil)
	}
	return out
}
