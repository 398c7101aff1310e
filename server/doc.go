// Package server is the HTTP and WebSocket face of `mafia serve`: the lobby
// API (create, list, join, leave), one WebSocket per player carrying the
// protocol of docs/protocol.md, health and metrics, and the registry of
// running rooms (resumed from the store at start).
//
// It owns transport, authentication by token, and guards (origin, frame
// size, rate). It must not decide rules or build what a seat sees: the room
// and the engine do; a connection only carries the room's frames for its
// own seat.
package server
