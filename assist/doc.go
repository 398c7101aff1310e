// Package assist is the host's assistant for an in-person game, served by
// `mafia serve` under /host/: a page the host runs on a phone to deal the
// cards, wake the roles in order, time the speeches, count the hands, track
// fouls, and keep the club's protocol of the game.
//
// The page runs the engine itself (compiled to WebAssembly from ./wasm), so
// the host keeps playing by the real rules when the venue's connection
// drops; every entry is kept on the phone (IndexedDB: the page shows it as
// done, and sends it, only once its write has completed, with durability
// "strict") and sent here in order, with an id, to
// POST /host/api/games/{id}/sync. A control on the host's screen acts only
// for the screen and the step it was drawn for (record.StepOf), so a double
// tap acts once; an entry carries its step, and one whose step has passed
// is refused (stale_step). This package applies each entry
// once through its own engine.Game and appends the events to the same store
// as online games, so the protocol is the engine's event log; it keeps the
// games it serves in memory, at most Config.MaxGames of them (the least
// recently used are read from the store again when asked for). It also makes
// the games (the deal, a host token, card links for the players' phones),
// lists the club's history, and exports each protocol as JSON, CSV and a
// printable page.
//
// The host takes back a mis-tap with an undo, itself an entry (see
// record.VerbUndo): the server rebuilds the game from the entries left in
// force and rewrites the stored log to the corrected game (a result an undo
// reopens is cleared), and the protocol lists every correction. A game
// moves to another phone by a link that carries the host's token in its
// fragment; the other phone loads the settings and entries
// (GET /host/api/games/{id}), and the first phone's further entries are
// refused as diverged. A referee or second host follows the same game live
// from their own phone and proposes corrections, which the host's phone
// applies (cohost.go: a one-time invitation, a key per co-host, the
// corrections in the server's order; docs/club.md).
//
// A service worker (static/sw.js, served at /host/sw.js with the files of
// this Version) keeps the page on the phone, so it reopens without the
// server; where the server cannot be reached, the page deals a new game
// itself (bridge.NewGame.Settings, the same deal as the server's) under an id
// and host token of its own, and sends that create first when the
// connection returns: the server deals again from the phone's seed and takes
// the game only if the cards are the phone's (create_phone.go).
//
// No secret travels in a URL (secrets.go): the page sends the host's token
// in an Authorization header, a link a phone opens (a card, a hand-off)
// carries its token in the fragment, the page draws every QR code itself,
// and a request with a token in its path or query is refused
// (token_in_url). Every answer that holds a token is Cache-Control:
// no-store.
//
// The host may correct the players' names after the game was made
// (PUT /host/api/games/{id}/names: the record keeps every change and the
// protocol lists it) and delete a game that was never finished from the
// club's history (DELETE /host/api/games/{id}: StatusDeleted; a finished
// game is refused; a club's game the club's host may close too), and link
// a club's game's seats to the roster (PUT /host/api/games/{id}/people).
// The protocol exports as JSON, as CSV (UTF-8 with a
// byte-order mark, the game's id on every row, the columns named in the
// reader's language, or with ?header=ids the columns' ids, the same in
// every language, for machines) and as a printable page that fits one or
// two A4 sheets. /host/seating prints an evening's seating cards, one per
// round and table, from the seating generator (package seating).
//
// A game may count for a club (docs/club.md; package club): its settings
// name the club, the host and referee, the table and game of the evening,
// and each seat's roster id (record.ClubInfo), and the host records the
// first-killed player's best move and the extra points
// (PUT /host/api/games/{id}/score, score.go). The club itself (its
// roster, members, seasons and standings, under /host/api/clubs) is
// package clubhttp's, mounted beside the assistant: a game reaches its club
// through Clubs, and the club reads the games through ClubGames
// (clubs.go); neither package imports the other.
//
// It owns the in-person tables (store.KindInPerson) and their statuses
// (StatusLive, StatusEnded, StatusDeleted); it loads and lists tables of
// that kind only, and the online server never loads nor lists them. It
// must not decide rules (the engine does) or touch online tables.
package assist
