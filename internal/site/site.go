// Package site is the public face of `mafia serve` on one mux: the
// server's lobby API, WebSockets and health (package server), the browser
// client (package web) and the host's assistant (package assist), side by
// side. Each part keeps its own guards and headers: the server its origin
// checks and limits, the web its page's policy, the assistant its refusal
// of secrets in URLs.
//
// cmd/mafia serves it; the tests that need the whole face (the browser
// client's browser tests, the attack suite) mount the same. It owns which
// part answers which path and nothing else; it must not add routes of its
// own.
package site

import (
	"net/http"

	"mafia/account"
	"mafia/assist"
	"mafia/room"
	"mafia/server"
	"mafia/web"
)

// Handler returns the public handler: the browser client's page at / and
// /t/{id}, its files under /static/, its catalogs at /api/i18n/{lang}; the
// assistant under /host/; the server for the rest (/api/tables…,
// /healthz), which answers 404 for a path it does not know. Serve it with
// srv.HTTPServer on srv.Listener, for the server's timeouts and caps.
func Handler(srv *server.Server, host *assist.Handler, opts ...Option) http.Handler {
	mux := http.NewServeMux()
	for _, o := range opts {
		o(mux)
	}
	mux.Handle("/", srv.Handler())
	web.Mount(mux, web.Config{Timings: room.DefaultTimings().Millis(), StandIn: room.DefaultStandIn.Milliseconds(),
		Paces: []string{room.PaceHuman, room.PaceInstant}})
	mux.Handle("/host/", host)
	mux.Handle("/host", host)
	return mux
}

// Option mounts a further part of the face beside the server, the web and
// the assistant.
type Option func(mux *http.ServeMux)

// WithAccounts mounts the accounts (package account): their API under
// /api/account/ and the players' pages' data under /api/players/.
func WithAccounts(h *account.Handler) Option {
	return func(mux *http.ServeMux) {
		mux.Handle("/api/account/", h)
		mux.Handle("/api/players/", h)
	}
}
