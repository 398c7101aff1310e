// Package voice owns the voice table (docs/voice.md): one WebRTC forwarding
// unit per table, inside the server, that carries the players' microphones
// and lets the rules, never a client, decide who is heard. It follows the
// table's step through the room's hook (room.Room.Watch): during a speech, a
// defence, a tie speech or last words only the seat that holds the floor is
// forwarded; in a vote and at night nobody; after the end, and in the lobby,
// everyone; a foul given to the floor's seat cuts it until the floor moves.
//
// Each listener gets one audio track per other seat; each track's RTP
// sequence numbers and timestamps are rewritten so that a run of packets
// follows the last one as if the stream had never stopped (a new speaker
// starts at once), a few Opus silence frames end each run (the browser does
// not fade), and header extensions are stripped. Every process has one UDP
// port (ice.UDPMux). Signalling rides on the game's own WebSocket: the
// server hands this package its "voice" messages (server.Voice).
package voice
