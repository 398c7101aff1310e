// Package server is the HTTP and WebSocket face of `mafia serve`: the lobby
// API (create, list, join, leave), one WebSocket per player carrying the
// protocol of docs/protocol.md, health, the operator's metrics and profiler
// (OpsHandler, on an address of their own), and the registry of running
// rooms (resumed from the store at start, damaged tables set aside).
//
// It owns transport, authentication by token, and the guards of what an
// anonymous client may take (limits.go, listen.go: connections per address,
// per token, per table and in total, frames and chat by rate, tables per
// address, timeouts; and httpguard's origin and cookie checks). It must not
// decide rules or build what a seat sees: the room and the engine do; a
// connection only carries the room's frames for its own seat.
package server
