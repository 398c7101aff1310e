// Package scenario reads and runs the conformance format of
// docs/scenarios.md: a fixed deal, a list of steps (actions, next,
// expectations), played through the engine.
//
// It owns the file format, its validation (every error names the file and
// the step), and the comparison of expectations with the engine's state. It
// must not know any rule itself: every decision is the engine's.
package scenario
