// Package rating is the players' skill ratings: the Weng-Lin Bayesian
// approximation method (Weng & Lin 2011, "A Bayesian Approximation Method
// for Online Ranking", JMLR 12) with the parameters the OpenSkill libraries
// publish, and the mafia-specific reading of a finished game (Game): teams
// town, mafia and Maniac, the winner first and the others tied behind it,
// an overall rating and a rating per side.
//
// It is pure: no clock, I/O, goroutines or globals. The store keeps what it
// computes (store.Ratings); docs/ratings.md says which method, why, and its
// parameters, with a worked example that a test checks.
package rating
