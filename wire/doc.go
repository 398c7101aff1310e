// Package wire turns the engine's values into JSON and back: events (for the
// store and for clients) and views (for clients), in the shapes documented in
// docs/protocol.md.
//
// It owns the field names and the exact round trip: an event decoded from
// its encoding is equal to the original, so a game replayed from stored JSON
// equals the live one. It must not decide anything about the rules, nor
// filter secrets: callers pass it only what the receiver may see
// (engine.Game.EventFor, engine.Game.ViewFor).
package wire
