//go:build !race

package sim

// raceOn reports that the tests run under the race detector (see
// statistical).
const raceOn = false
