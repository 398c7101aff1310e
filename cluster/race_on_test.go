//go:build race

package cluster

// raceOn says the tests run under the race detector, whose own work
// allocates in a socket's write: allocation counts are not the code's.
const raceOn = true
