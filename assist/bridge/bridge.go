// Package bridge is the host's page's way into the engine: the functions the
// WebAssembly module (../wasm) exports to JavaScript, each taking and
// returning JSON text. It holds the one game the page runs, the language the
// page speaks, and renders every sentence with package locale, so the page
// shows the engine's own refusals in the catalogs' words.
//
// It must not decide rules (the engine does) or do I/O: the page stores and
// sends the entries itself.
package bridge

import (
	"encoding/json"
	"errors"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/locale"
	"mafia/wire"
)

// Bridge is one page's game and language. It is not safe for concurrent
// use (a page has one thread).
type Bridge struct {
	p        *locale.Printer
	settings *record.Settings
	game     *engine.Game
	log      []engine.Event
	cmds     []record.Command // the entries made so far, undos included
}

// New returns a bridge speaking English with no game.
func New() *Bridge { return &Bridge{p: locale.New(locale.En)} }

// Refusal is a refused request as JSON: the code, and the sentence.
type Refusal struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Reply is every answer: the events a command caused and the state after
// it, or a refusal.
type Reply struct {
	Error  *Refusal         `json:"error,omitempty"`
	Events []wire.Event     `json:"events,omitempty"`
	State  *record.State    `json:"state,omitempty"`
	Cmds   []record.Command `json:"commands,omitempty"`
}

func encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return `{"error":{"code":"internal","message":"` + err.Error() + `"}}`
	}
	return string(b)
}

// refuse renders err as a Reply.
func (b *Bridge) refuse(err error) string {
	return encode(Reply{Error: b.refusal(err)})
}

func (b *Bridge) refusal(err error) *Refusal {
	var e *engine.Error
	if !errors.As(err, &e) {
		e = &engine.Error{Code: "bad_request", Name: "json"}
	}
	return &Refusal{Code: string(e.Code), Message: Sentence(b.p, e)}
}

// Sentence renders a refusal: the engine's and the server's codes through
// locale, the assistant's own (record.CodeBadSettings, "out_of_order",
// "diverged") from the [assist] catalog tables.
func Sentence(p *locale.Printer, e *engine.Error) string {
	switch e.Code {
	case record.CodeBadSettings:
		id := "assist.error.bad_settings_" + e.Name
		if !p.Has(id) {
			id = "assist.error.bad_settings"
		}
		return p.T(id, e.Params())
	case "bad_fix": // co-hosting's correction not well formed (assist.CodeBadFix)
		id := "assist.error.bad_fix_" + e.Name
		if !p.Has(id) {
			id = "assist.error.bad_fix"
		}
		return p.T(id, e.Params())
	case "out_of_order", "diverged":
		return p.T("assist.error."+string(e.Code), e.Params())
	case record.CodeNothingToUndo, record.CodeUndoNotLast:
		return p.T("assist.undo_error."+string(e.Code), e.Params())
	}
	if id := "assist.error." + string(e.Code); p.Has(id) {
		if pluralCodes[e.Code] {
			return p.Plural(id, e.N, e.Params()) // "2000 записей", "1 წამში"
		}
		return p.T(id, e.Params()) // the assistant's other codes (id_taken, ...)
	}
	return p.Refusal(e)
}

// pluralCodes are the assistant's codes whose sentence has a plural form
// for each count its N takes (assist's limits.go: the most entries, the
// seconds to wait).
var pluralCodes = map[engine.Code]bool{"entries_full": true, "rate_limited": true}

// SetLang switches the language ("ka", "en", "ru"; anything else: English)
// and returns the language now spoken.
func (b *Bridge) SetLang(lang string) string {
	l, ok := locale.Parse(lang)
	if !ok {
		l = locale.En
	}
	b.p = locale.New(l)
	return string(l)
}

// T renders a catalog message with data (a JSON object, or "").
func (b *Bridge) T(id, data string) string {
	return b.p.T(id, decodeData(data))
}

// Plural renders a catalog message in the plural form of count.
func (b *Bridge) Plural(id string, count int, data string) string {
	d := decodeData(data)
	if d == nil {
		d = map[string]any{}
	}
	if _, ok := d["Count"]; !ok {
		d["Count"] = count
	}
	return b.p.Plural(id, count, d)
}

func decodeData(s string) map[string]any {
	if s == "" {
		return nil
	}
	var d map[string]any
	if json.Unmarshal([]byte(s), &d) != nil {
		return nil
	}
	// JSON numbers are float64; the catalogs print whole numbers.
	for k, v := range d {
		if f, ok := v.(float64); ok && f == float64(int64(f)) {
			d[k] = int64(f)
		}
	}
	return d
}

// Name renders the name of a role, team, phase, result, cause or winner
// (group is one of those words) as the catalogs spell it.
func (b *Bridge) Name(group, key string) string {
	switch group {
	case "role":
		r, _ := engine.ParseRole(key)
		return b.p.Role(r)
	case "result":
		r, _ := engine.ParseResult(key)
		return b.p.Result(r)
	case "phase":
		ph, _ := engine.ParsePhase(key)
		return b.p.Phase(ph)
	case "winner":
		w, _ := engine.ParseWinner(key)
		return b.p.Winner(w)
	}
	id := group + "." + key
	if b.p.Has(id) {
		return b.p.T(id, nil)
	}
	return key
}
