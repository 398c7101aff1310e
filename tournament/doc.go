// Package tournament is a club's tournament: its players (roster ids), its
// scoring (club.Scoring), its qualifying rounds seated by the seating
// generator from a seed (with pairs to keep apart), a final for the top
// players with a points factor, the tie-break order the organiser declares,
// the host and the referee, each round's table linked to the club's game
// once played, and the standings computed from those games.
//
// It is pure like the club and the seating: no I/O, no clock, no
// goroutines, no global random source. The store keeps a Tournament
// (store.Tournaments); the club's HTTP handler (package clubhttp) reads the
// games and asks this package for the standings.
package tournament
