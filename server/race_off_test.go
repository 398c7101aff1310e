//go:build !race

package server

// raceOn reports that the tests run under the race detector, several times
// slower: tests that play on the real clock give their steps more time.
const raceOn = false
