// Package web is the browser client: plain HTML, CSS and JavaScript modules
// embedded in the binary (no build step, nothing fetched from elsewhere),
// served by `mafia serve` at / and at the invite links /t/{id}.
//
// Mount adds its routes to the public mux beside the server's API and the
// host's assistant (internal/site): the page and its files, and the message
// catalogs of package locale as JSON (GET /api/i18n/{lang}), so that every
// string the page shows comes from the same catalogs as the server's
// sentences. The page narrates the game's events itself from the catalog's
// event.* templates (static/js/narrate.js mirrors locale/event.go; a
// browser test checks that both tell every event of real games alike).
package web
