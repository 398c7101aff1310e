// Package seating owns a tournament's seating: which players sit at which
// table in which round, and in which seat (1 to the table's size), for N
// players, T tables of S seats and G games for each player. It promises,
// and its tests check over many seeds and sizes:
//
//   - every player plays exactly G games, and sits out the other rounds,
//     the same number of rounds as every other player, spread along the
//     event (a cost of the search: its tests find no more than two in a
//     row when a player sits out at most half the rounds);
//   - every player has every seat number as often as the numbers allow:
//     floor(G/S) or ceil(G/S) times (20 players, 10 games, 10 seats: each
//     seat exactly once);
//   - no pair to keep apart ever shares a table;
//   - the pairs of players meet as evenly as it can find: the count of
//     games each pair shares lies close to the mean (20 players on 2
//     tables for 10 games: every pair 4 or 5 times). docs/tournaments.md
//     gives how close it lands for 10 to 100 players.
//
// The method, in three parts, each chosen for what it can promise:
//
//  1. Who sits out: the rounds' sit-outs are taken in turn from one seeded
//     order of the players, N-T·S a round, so every player sits out exactly
//     R-G of the R rounds, spread along the event. The counts are exact by
//     construction, and stay so under the search's trades (below), which
//     pay a cost for each two rounds in a row a player sits out.
//  2. Who meets whom: simulated annealing over the rounds' tables, seeded,
//     on a cost that is the sum over pairs of f(d) = d² + 2d⁴, d the
//     distance of the games they share from the mean (convex: for a fixed
//     total of meetings the least cost is the most even spread; the
//     quartic term presses hardest on the pairs furthest off), plus a
//     heavy weight for each meeting of a pair to keep apart. A move swaps two players of one round between two tables,
//     or, when some sit out, trades one player's game in one round for
//     another's in another round (so game counts stay exact). Annealing
//     rather than a greedy construction because the greedy one stalls
//     above the bound in the last rounds; the cost's change for a move is
//     computed from the two tables alone, so a million moves take well
//     under a second.
//  3. Seat numbers: once the tables are fixed, seats are an edge colouring
//     of the bipartite multigraph of players and table-games with S
//     colours (König's theorem: a bipartite graph of largest degree S has
//     one), each player split into blocks of S games in round order. It
//     is exact, not a search: every block of S games gives a player every
//     seat once, and the last block distinct seats.
//
// It is pure like the engine: no clock, no I/O, no goroutines, no global
// random source. The same Config (with its Seed) gives the same Seating on
// every machine.
package seating
