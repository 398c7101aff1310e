package main

import (
	"mafia/cluster"
	"mafia/internal/site"
	"mafia/seating"
	"mafia/tournament"
	"mafia/voice"
)

// vocabulary is the program's one vocabulary of codes: every package's
// Kinds (site.Vocabulary) with the cluster's relay's, built once here,
// where the packages are wired, and given to the server, the accounts,
// the assistant (whose seating cards answer the seating generator's
// refusals), the clubs (whose tournaments answer the tournament's
// refusals) and the relay, so that a code has one status
// from every part (docs/architecture.md).
var vocabulary = site.Vocabulary(cluster.Kinds, seating.Kinds, tournament.Kinds, voice.Kinds)
