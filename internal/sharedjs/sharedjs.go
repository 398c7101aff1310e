// Package sharedjs holds the ES modules that the browser client (web) and
// the host's assistant (assist) both load: dom.js, the one element builder
// h() (and patch, lines), and i18n.js, the one language module (the
// languages, the one to start in, the choice remembered, t and tn from a
// catalog source), and rolecard.js, each card as a card (its name, side,
// what it does at night, how it wins: the client's deal, how-to and table,
// and the assistant's night-1 card round). Each page serves them among its
// own files, as js/dom.js, js/i18n.js and js/rolecard.js (package static's
// Include), so that its modules import them as their neighbours; the
// assistant's service worker keeps them with the rest.
//
// It owns these modules and nothing else of either page: no page's screens
// or routes, and no sentences (the card's come from the catalogs).
package sharedjs

import "embed"

// FS holds the modules, at its top.
//
//go:embed *.js
var FS embed.FS
