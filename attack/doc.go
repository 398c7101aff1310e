// Package attack is the attack suite: tests that attack a real
// `mafia serve` (package server over a real SQLite file, its public
// listener with the host's assistant under /host/, and its operator's
// listener, on loopback) the way an outsider would: a program with no
// token, or with only the tokens of seats it took itself, or a foreign web
// page's requests. Each checks that the attack is refused with its code,
// or that what it looks for does not leak, and, where the attack is on a
// running server, that a real player on the same server still joins,
// connects, gets its frames and plays a game to the end.
//
// What it attacks, by the items of issue 17:
//
//   - 1, /metrics as an oracle of the night's moves (oracle_test.go);
//   - 2, traffic analysis: a spy holding seven seats compares the lengths
//     and moments of the frames they get over whole games
//     (traffic_test.go);
//   - 3, the dead's and the mafia's chat read through a socket without a
//     token, and a spectator's posts (chat_test.go);
//   - 4, one address taking every seat of a table while the host kicks it
//     (seats_test.go);
//   - 5, floods of connections from one address and of spectators on one
//     table, slow request bodies and idle keep-alive connections
//     (connections_test.go);
//   - 6, many abandoned games, which must stop writing (abandoned_test.go);
//   - 7, floods of table creation (tables_test.go);
//   - 8, huge and hostile names, and the size of the public list
//     (names_test.go);
//   - 9, floods of oversized, binary and malformed frames and of chat from
//     many sockets (frames_test.go);
//   - 14, 15, 16, numbers that would wrap, frames a lenient decoder would
//     bend, and a late vote landing in the revote (input_test.go);
//   - 17, 18, a foreign page's cookie-carrying state changes behind an
//     https proxy, and tokens in the assistant's URLs (origin_test.go);
//   - from issue 18, floods of signups and of password guesses,
//     names told apart by their refusals, and a foreign page's signup
//     (accounts_test.go);
//   - from issue 25, a stranger on a cluster's bus: plain NATS clients at
//     every port of two nodes and a rogue NATS server routed to them,
//     reading and forging while a relayed game plays (bus_test.go);
//     password hashing forced from many addresses at once
//     (hashing_test.go), a name locked by another's wrong passwords
//     (lockout_test.go), and look-alike names, a bot's token used as a
//     host's login, and the assistant's history read by a stranger
//     (lookalike_test.go);
//   - and, from issue 25 too, one person taking a stranger's table's
//     seats through their bot accounts and a second account
//     (botseats_test.go), a rating farm of such seats and of accounts the
//     stand-ins play (farm_test.go), and one address reconnecting a
//     flooding socket and pouring out GETs (reconnect_test.go), and GETs
//     of every other part of the public face: the accounts, the players'
//     pages, the catalogs, the client's pages and the assistant
//     (gets_test.go);
//   - from issue 27, a relay link between two nodes recorded off the wire
//     and sent again to a node's link port (link_test.go);
//   - one address asking the host's assistant for game after game (each
//     a table in the store) while a real host on another network makes
//     one (assist_test.go);
//   - many addresses asking at once for the host's seating cards, each
//     seconds of the seating generator's CPU, and one address asking for
//     seating after seating (seating_test.go).
//
// The login flood also runs as a process of its own, for measuring
// players' latency beside it: attack/loginflood (docs/performance.md).
//
// Items 10 to 13 (damaged rows, two servers on one file, a crash between
// writes, a failing disk) are faults of the operator's side, not
// something an outsider can do: package server and store/sqlite test
// them.
//
// It runs on loopback only: every server listens on 127.0.0.1, port 0, and
// the attackers take addresses of their own in 127.0.0.0/8 (which Linux
// routes to loopback; elsewhere the tests that need several addresses
// skip, except in CI). Every attack is bounded in count and in time (each
// test has a deadline; the suite takes well under a minute on two cores,
// and -short makes the counts smaller). The package has no code of its
// own to ship: it is tests only.
package attack
