// Package site is the public face of `mafia serve` on one mux: the
// server's lobby API, WebSockets and health (package server), the browser
// client (package web), the host's assistant (package assist), and the
// accounts and the clubs (packages account and clubhttp) side by side.
// Each part keeps its own guards and headers: the server its origin
// checks and limits, the web its page's policy, the assistant its refusal
// of secrets in URLs (the clubs, under /host/, pass it too). One guard is the face's: every GET of every part
// takes from its address's rate of requests (server.Server.Paced), but for
// the files a page is made of, the health probes and the WebSocket
// upgrades (which have caps of their own).
//
// cmd/mafia serves it; the tests that need the whole face (the browser
// client's browser tests, the attack suite) mount the same. It owns which
// part answers which path and nothing else; it must not add routes of its
// own. It also joins every part's codes into the program's one
// vocabulary (Vocabulary), which cmd/mafia gives each part.
package site

import (
	"net/http"
	"strings"

	"mafia/account"
	"mafia/assist"
	"mafia/assist/record"
	"mafia/bot"
	"mafia/club"
	"mafia/clubhttp"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/internal/httpguard"
	"mafia/room"
	"mafia/server"
	"mafia/web"
)

// Handler returns the public handler: the browser client's page at / and
// /t/{id}, its files under /static/, its catalogs at /api/i18n/{lang}; the
// assistant under /host/; the further parts of opts (WithAccounts,
// WithClubs) at their paths; the server for the rest (/api/tables…,
// /healthz), which answers 404 for a path it does not know. Serve it with
// srv.HTTPServer on srv.Listener, for the server's timeouts and caps.
// Every GET and HEAD but those unpaced lets through is counted against its
// address's rate and refused past it (429 rate_limited, Retry-After).
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
	if ps.clubs != nil {
		// The clubs answer at the paths the assistant's page (and the
		// phones that keep it) have always called, behind its front door.
		front := host.Front(ps.clubs)
		mux.Handle("/host/api/clubs", front)
		mux.Handle("/host/api/clubs/", front)
		mux.Handle("/host/clubs/", front)
		mux.Handle("/api/clubs/", ps.clubs) // the club's leaderboard, anyone's to read
	}
	paced := srv.Paced(mux)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if unpaced(r) {
			mux.ServeHTTP(w, r)
			return
		}
		paced.ServeHTTP(w, r)
	})
}

// unpaced reports whether a request is one the face does not count: the
// health probes (a load balancer's), the versioned files a page is made of
// (the browser caches them), the favicon, the player's page's app files
// (its worker, manifest and icons: web/app.go) and the assistant's worker, and a
// WebSocket's upgrade (the server caps sockets per address itself).
func unpaced(r *http.Request) bool {
	p := r.URL.Path
	switch {
	case p == "/healthz" || p == "/readyz" || p == "/favicon.ico" || p == "/host/sw.js" ||
		p == "/sw.js" || p == "/manifest.webmanifest" || p == "/icon-192.png" || p == "/icon-512.png":
		return true
	case strings.HasPrefix(p, "/static/") || strings.HasPrefix(p, "/host/static/"):
		return true
	case strings.EqualFold(r.Header.Get("Upgrade"), "websocket"):
		return true
	}
	return false
}

// Option adds a further part to the face beside the server, the web and
// the assistant.
type Option func(*parts)

// parts are the further parts Handler mounts.
type parts struct {
	accounts *account.Handler
	clubs    *clubhttp.Handler
}

// WithAccounts mounts the accounts (package account): their API under
// /api/account/ and the players' pages' data under /api/players/; the
// browser client offers signing up and logging in.
func WithAccounts(h *account.Handler) Option {
	return func(p *parts) { p.accounts = h }
}

// WithClubs mounts the clubs (package clubhttp) beside the assistant:
// their API under /host/api/clubs and the printable standings under
// /host/clubs/, at the paths the assistant's page calls, behind the
// assistant's refusal of secrets in URLs (assist.Handler.Front); and the
// club's leaderboard under /api/clubs/ (which the server's
// /api/ratings?club= is sent to).
func WithClubs(h *clubhttp.Handler) Option {
	return func(p *parts) { p.clubs = h }
}

// Vocabulary is the program's one vocabulary of codes (internal/httpapi):
// every package's Kinds joined once — the engine's, the room's, the bots',
// the record's, the guard's, the HTTP layer's, the accounts', the
// server's, the assistant's and the club's — and more's (the cluster's,
// which only cmd/mafia imports). cmd/mafia builds it once and gives it to
// every handler's Config and the relay's, so that a code has one status
// from every part of the face. Two tables that give one code two kinds
// are a programming error: it panics.
func Vocabulary(more ...map[engine.Code]engine.Kind) *httpapi.Vocabulary {
	return httpapi.NewVocabulary(append([]map[engine.Code]engine.Kind{engine.Kinds, room.Kinds, bot.Kinds, record.Kinds,
		httpguard.Kinds, httpapi.Kinds, account.Kinds, server.Kinds, assist.Kinds, club.Kinds}, more...)...)
}
