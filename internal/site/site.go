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
	var ps parts
	for _, o := range opts {
		o(&ps)
	}
	if ps.accounts != nil {
		mux.Handle("/api/account/", ps.accounts)
		mux.Handle("/api/players/", ps.accounts)
	}
	mux.Handle("/", srv.Handler())
	web.Mount(mux, web.Config{Timings: room.DefaultTimings().Millis(), StandIn: room.DefaultStandIn.Milliseconds(),
		Paces: []string{room.PaceHuman, room.PaceInstant}, Accounts: ps.accounts != nil})
	mux.Handle("/host/", host)
	mux.Handle("/host", host)
	return mux
}

// Option adds a further part to the face beside the server, the web and
// the assistant.
type Option func(*parts)

// parts are the further parts Handler mounts.
type parts struct {
	accounts *account.Handler
}

// WithAccounts mounts the accounts (package account): their API under
// /api/account/ and the players' pages' data under /api/players/; the
// browser client offers signing up and logging in.
func WithAccounts(h *account.Handler) Option {
	return func(p *parts) { p.accounts = h }
}
