package assist

import (
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"time"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/locale"
	"mafia/store"
)

var errBadToken = &engine.Error{Code: httpapi.CodeBadToken}

// Protocol is the exported protocol of a game: the table and the record
// arranged from the stored event log.
type Protocol struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	*record.Protocol
	// Renames lists the names the host corrected after the game was made.
	Renames []Rename `json:"renames,omitempty"`
	// Rewrites lists each replay of the game with a referee's correction in
	// place: from which entry, the corrections, how many entries dropped.
	Rewrites []RewriteView `json:"rewrites,omitempty"`
	// Score is the club's part: the best move, the extra points and every
	// seat's points (score_export.go); for a finished game, or one scored.
	Score *protocolScore `json:"score,omitempty"`
}

// readable is what a protocol is made of: the table, the settings, the
// stored log, and the host's corrections (the undos, for the audit trail).
type readable struct {
	table store.Table
	s     *record.Settings
	log   []engine.Event
	fixes []record.Correction
	// renames are the names corrected after the game was made.
	renames []Rename
	// rewrites are the game's replays with a co-host's correction.
	rewrites []RewriteView
	// score is the best move and extra points the host recorded (nil: none).
	score *gameScore
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
	renames := append([]Rename(nil), gm.rec.Renames...)
	rewrites := rewriteViews(gm.rec.Rewrites, gm.rec.Fixes)
	score := gm.rec.Score
	h.unlock(gm)
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
	return &readable{table: t, s: &s, log: log, fixes: fixes, renames: renames, rewrites: rewrites, score: score}, nil
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
	p := Protocol{ID: t.ID, Created: t.CreatedAt, Updated: t.UpdatedAt, Protocol: rd.build(), Renames: rd.renames,
		Rewrites: rd.rewrites}
	if p.Score, err = h.score(r.Context(), rd, p.Protocol); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="mafia-`+t.ID+`.json"`)
	writeJSON(w, http.StatusOK, p)
}

// protocolCSV answers the protocol as CSV: UTF-8 with a byte-order mark
// (so that Excel reads the Georgian and Russian names as such), a header
// row of the catalogs' column names, and the game's id in the first column
// of every row (so that the rows of many games can be put together). With
// ?header=ids the header row is the columns' ids instead ("game", then
// record.CSVHeader): the same in every language, for machines.
func (h *Handler) protocolCSV(w http.ResponseWriter, r *http.Request) {
	rd, err := h.readable(r, r.PathValue("id"))
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	t := rd.table
	pr := rd.build()
	ps, err := h.score(r.Context(), rd, pr)
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	ids := r.URL.Query().Get("header") == "ids"
	name := "mafia-" + t.ID + ".csv"
	if ids {
		name = "mafia-" + t.ID + ".ids.csv"
	}
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	_, _ = io.WriteString(w, bom)
	cw := csv.NewWriter(w)
	if ids {
		_ = cw.Write(append([]string{"game"}, record.CSVHeader...))
	} else {
		_ = cw.Write(csvHeader(locale.New(langOf(r))))
	}
	for _, rows := range [][][]string{record.CSV(rd.s, rd.log), record.CorrectionRows(rd.s, rd.fixes), clubRows(rd, pr, ps)} {
		for _, row := range rows {
			_ = cw.Write(append([]string{t.ID}, row...))
		}
	}
	cw.Flush()
}

// bom is UTF-8's byte-order mark, which spreadsheets take as "this file is UTF-8".
const bom = "\ufeff"

// csvHeader is the CSV's header row in a language: the game's column, then
// each column of record.CSV, named by the catalogs (assist.csv.<column>).
func csvHeader(p *locale.Printer) []string {
	out := []string{p.T("assist.csv.game", nil)}
	for _, c := range record.CSVHeader {
		out = append(out, p.T("assist.csv."+c, nil))
	}
	return out
}
