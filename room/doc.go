// Package room runs one table: a single goroutine (the room's actor) owns the
// table's seats and its engine.Game, takes every request through a bounded
// inbox, keeps the server's clock for every step, lets bots play empty seats,
// appends events to the store before anyone sees them, and sends each
// connected seat only its own view and the events it may see.
//
// It owns sequencing and time. It must not decide rules (the engine does),
// touch the network (connections do) or filter secrets by hand: every frame
// is built from engine.Game.ViewFor and engine.Game.EventFor.
package room
