// Package attack is the attack suite: tests that attack a real
// `mafia serve` (package server over a real SQLite file, its public
// listener and its operator's listener on loopback) the way an outsider
// would, and check that each attack is refused with its code while a real
// player on the same server still joins, connects, gets its frames and
// plays a game to the end.
//
// What it attacks: floods of connections from one address and of
// spectators on one table, slow request bodies and idle keep-alive
// connections, floods of table creation, floods of oversized and binary
// frames, chat floods from many sockets, and /metrics as an oracle of the
// night's moves. Other attacks join it as the guards against them are
// built.
//
// It runs on loopback only: every server listens on 127.0.0.1, port 0, and
// the attackers take addresses of their own in 127.0.0.0/8 (which Linux
// routes to loopback; elsewhere the tests that need several addresses
// skip, except in CI). Every attack is bounded in count and in time (each
// test has a deadline; the suite takes well under a minute on two cores,
// and -short makes the counts smaller). The package has no code of its
// own to ship: it is tests only.
package attack
