// Package engine is the rules of the club's Mafia (docs/rules.md) as a
// pure, deterministic library: setups and options, commands in, events out,
// per-seat views, and replay.
//
// The engine owns every rule and every piece of game state. It must not read
// a clock, do I/O, start goroutines or use a global random source: time
// arrives as the Next command, randomness as a seed recorded in the
// GameStarted event. A test (purity_test.go) fails the build otherwise.
//
// One place changes state: apply, which folds one Event into a Game.
// Handle validates a Command against the state, and either refuses it with an
// *Error (changing nothing) or emits events through apply. Replay folds a
// recorded log into the same Game. Views (ViewFor, HostView, SpectatorView)
// are new values built from what one seat may know; no code path hands the
// Game's state to a player.
package engine
