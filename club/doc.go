// Package club is a club's memory of its in-person games: the club and its
// roster (people who may have no account, each under a stable id, found by
// name in any script), the merge of two roster entries into one, the club's
// scoring rules (points for a win, the first-killed player's best move, the
// host's extra points, the penalty for removal by fouls), seasons, and each
// season's standings, with the CSV of one row per player per game.
//
// It is pure like the engine: no I/O, no clock, no globals that change. The
// store keeps what it describes (store.Clubs); the host's assistant (package
// assist) turns each finished game's record into a Game and asks this
// package for the points. It must not decide the game's rules (the engine
// does): a Game is what the engine's record says happened.
package club
