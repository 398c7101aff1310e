package room

// This file is what the voice table (package voice) reads of a table: its
// voice setting. Who may be heard follows the room's step (watch.go).

// The voice settings of a table (Settings.Voice).
const (
	// VoiceOff: no voice (the default).
	VoiceOff = "off"
	// VoiceSeats: the players talk and hear each other, as the rules let
	// them; spectators hear nothing.
	VoiceSeats = "seats"
	// VoiceEveryone: as VoiceSeats, and spectators listen.
	VoiceEveryone = "everyone"
)

// Voice is the table's voice setting: VoiceOff, VoiceSeats or
// VoiceEveryone. It never changes while the room runs, and may be read
// from any goroutine.
func (r *Room) Voice() string {
	switch r.set.Voice {
	case VoiceSeats, VoiceEveryone:
		return r.set.Voice
	}
	return VoiceOff
}
