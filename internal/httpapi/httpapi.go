// Package httpapi is the HTTP layer the online server and the host's
// assistant share: what HTTP status each kind of refusal gets (one table,
// so the two answer a code alike), the codes of the layer itself, and the
// JSON bodies both read and write. It owns those conventions and nothing
// of either's routes or state; it must not import the server or the
// assistant.
package httpapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"mafia/engine"
	"mafia/wire"
)

// The HTTP layer's own codes, which both the server and the assistant
// answer with (the room has its own bad_token, bad_request and internal,
// alike).
const (
	// CodeNotFound answers a request for a table, a game or a path that
	// does not exist.
	CodeNotFound engine.Code = "not_found"
	// CodeBadToken: no token, or not one of this table's or game's.
	CodeBadToken engine.Code = "bad_token"
	// CodeBadRequest: a body or a parameter that is not what the route
	// takes (Name says which).
	CodeBadRequest engine.Code = "bad_request"
	// CodeInternal: the server failed (its log says how).
	CodeInternal engine.Code = "internal"
)

// Kinds are the kinds of this package's codes.
var Kinds = map[engine.Code]engine.Kind{CodeNotFound: engine.KindNotFound, CodeBadToken: engine.KindForbidden,
	CodeBadRequest: engine.KindInvalid, CodeInternal: engine.KindInternal}

// StatusOf is the HTTP status of a kind of refusal: the one table of both
// the server's API and the assistant's.
func StatusOf(k engine.Kind) int {
	switch k {
	case engine.KindInvalid:
		return http.StatusBadRequest
	case engine.KindUnsupported:
		return http.StatusUnsupportedMediaType
	case engine.KindForbidden:
		return http.StatusForbidden
	case engine.KindNotFound:
		return http.StatusNotFound
	case engine.KindConflict:
		return http.StatusConflict
	case engine.KindGone:
		return http.StatusGone
	case engine.KindTooMany:
		return http.StatusTooManyRequests
	case engine.KindBusy:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// Vocabulary is the codes a handler answers with, each with its kind, from
// the tables of the packages whose refusals it passes on.
type Vocabulary struct {
	kinds map[engine.Code]engine.Kind
}

// NewVocabulary joins the tables of codes' kinds (engine.Kinds, room.Kinds,
// …). A code in two tables with two kinds is a programming error: it
// panics.
func NewVocabulary(tables ...map[engine.Code]engine.Kind) *Vocabulary {
	v := &Vocabulary{kinds: map[engine.Code]engine.Kind{}}
	for _, t := range tables {
		for c, k := range t {
			if old, ok := v.kinds[c]; ok && old != k {
				panic(fmt.Sprintf("httpapi: code %s is %s in one table and %s in another", c, old, k))
			}
			v.kinds[c] = k
		}
	}
	return v
}

// Kind is a code's kind; KindNone for a code no table declares (a test of
// each package checks that there is none).
func (v *Vocabulary) Kind(c engine.Code) engine.Kind { return v.kinds[c] }

// Status is a code's HTTP status (500 for one no table declares).
func (v *Vocabulary) Status(c engine.Code) int { return StatusOf(v.Kind(c)) }

// WriteJSON answers with v as JSON, never to be cached. Names are not HTML-escaped (a "<" stays
// one byte, not six): the answers are JSON for scripts, which render text
// as text, never HTML.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store") // an answer of now, never to be kept
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// ReadJSON reads a request's JSON body of at most limit bytes strictly
// (wire.DecodeStrict: no unknown key, no key in another case or given
// twice, UTF-8 only). It reports false for a body that is not such JSON,
// or is longer.
func ReadJSON(r *http.Request, limit int64, v any) bool {
	data, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	return err == nil && int64(len(data)) <= limit && wire.DecodeStrict(data, v) == nil
}
