//go:build !race

package cluster

// raceOn says the tests run under the race detector (race_on_test.go).
const raceOn = false
