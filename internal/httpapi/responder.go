package httpapi

// This file is the one writer of refusals: every HTTP handler of the
// program (the server's API, the accounts, the host's assistant, the
// cluster's relay) answers a refused request through a Responder, so that
// a code gets one status, one body and the request's own language
// everywhere.

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync"

	"mafia/engine"
	"mafia/locale/negotiate"
)

// ErrorBody is every refusal's JSON: {"error": {"code": …, "message": …}}.
type ErrorBody struct {
	Error ErrorField `json:"error"`
}

// ErrorField is a refusal's code and its sentence in the request's
// language.
type ErrorField struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ownVocabulary is the HTTP layer's own codes, made once: a Responder
// with no Vocabulary uses it.
var ownVocabulary = NewVocabulary(Kinds)

// Responder answers refused requests. Its zero fields have defaults: the
// HTTP layer's own codes, the code itself as the sentence, no Retry-After.
type Responder struct {
	// Vocabulary gives each code its kind, and so its status (nil: the
	// HTTP layer's own codes, ownVocabulary).
	Vocabulary *Vocabulary
	// Render is a refusal's sentence in a language (lang as the protocol
	// spells it: "ka", "en", "ru").
	Render func(lang string, err error) string
	// Classify turns an error that is no refusal into one (a store's
	// not-found into not_found), ok false for none: it is then logged and
	// answered internal.
	Classify func(err error) (*engine.Error, bool)
	// RetryAfter is the seconds a refusal asks the client to wait
	// (the Retry-After header; 0: none).
	RetryAfter func(e *engine.Error) int
	// Counted, if set, is told each refusal's code (a metric).
	Counted func(code engine.Code)
	// Log receives the errors that are no refusal (nil: slog's default).
	Log *slog.Logger
	// What names the handler in the log ("request failed", "account
	// request failed").
	What string

	messages sync.Map // lang + code → sentence, for the refusals that carry only their code
}

// Refusal is err as a refusal: its code (internal for an error that is no
// refusal and that Classify does not know, logged) and its status.
func (rs *Responder) Refusal(r *http.Request, err error) (*engine.Error, int) {
	var e *engine.Error
	switch {
	case errors.As(err, &e):
	case rs.Classify != nil:
		if c, ok := rs.Classify(err); ok {
			e = c
		}
	}
	if e == nil {
		log := rs.Log
		if log == nil {
			log = slog.Default()
		}
		what := rs.What
		if what == "" {
			what = "request failed"
		}
		log.Error(what, "path", r.URL.Path, "err", err)
		e = &engine.Error{Code: CodeInternal}
	}
	v := rs.Vocabulary
	if v == nil {
		v = ownVocabulary
	}
	return e, v.Status(e.Code)
}

// Body is the refusal's JSON body in the request's language
// (negotiate.Lang: ?lang=, the lang cookie, Accept-Language with its
// q-values, else the server's default).
func (rs *Responder) Body(r *http.Request, e *engine.Error) ErrorBody {
	return ErrorBody{Error: ErrorField{Code: string(e.Code), Message: rs.message(string(negotiate.Lang(r)), e)}}
}

// Fail answers err as a refusal: its status, Retry-After where the code
// asks for one, and its body.
func (rs *Responder) Fail(w http.ResponseWriter, r *http.Request, err error) {
	e, status := rs.Refusal(r, err)
	rs.Write(w, r, e, status, rs.Body(r, e))
}

// Write sends a refusal already made (Refusal) with body, a Body or a
// handler's own struct that embeds one (the assistant's adds what a phone
// must send again).
func (rs *Responder) Write(w http.ResponseWriter, r *http.Request, e *engine.Error, status int, body any) {
	if rs.RetryAfter != nil {
		if s := rs.RetryAfter(e); s > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(s))
		}
	}
	if rs.Counted != nil {
		rs.Counted(e.Code)
	}
	WriteJSON(w, status, body)
}

// message is a refusal's sentence in lang: rendered once and kept for a
// code that carries nothing else (the refusals a flood gets), else each
// time.
func (rs *Responder) message(lang string, e *engine.Error) string {
	render := rs.Render
	if render == nil {
		render = func(_ string, err error) string { return err.Error() }
	}
	if *e != (engine.Error{Code: e.Code}) {
		return render(lang, e)
	}
	k := lang + "\x00" + string(e.Code)
	if m, ok := rs.messages.Load(k); ok {
		return m.(string)
	}
	m := render(lang, e)
	rs.messages.Store(k, m)
	return m
}
