// Package record is the in-person game's record, shared by the host's
// browser (compiled to WebAssembly in ../wasm) and the server (package
// assist): the settings a host chooses, the commands the host enters, the
// replay of those commands through the engine, and the protocol (the club's
// record of a whole game) built from the engine's event log.
//
// It is pure like the engine: no I/O, no clock, no randomness of its own.
// It must not decide rules: every command goes through engine.Game.Handle,
// and the protocol only arranges the events the engine emitted.
package record
