//go:build race

package browsertest

// raceBuild: the tests were built with the race detector.
const raceBuild = true
