package voice

import "mafia/engine"

// The voice table's refusals (catalog id "error.<code>").
const (
	// CodeNotYourSeat: a join names a seat the connection does not hold.
	CodeNotYourSeat engine.Code = "voice_not_your_seat"
	// CodeListenOnly: a connection that holds no seat (a spectator, a
	// host who does not play) asked to send a microphone.
	CodeListenOnly engine.Code = "voice_listen_only"
	// CodeNoSpectators: the table's voice is its players' only.
	CodeNoSpectators engine.Code = "voice_no_spectators"
	// CodeNotJoined: an answer or a candidate before a join.
	CodeNotJoined engine.Code = "voice_not_joined"
	// CodeBadSignal: an answer or a candidate WebRTC cannot take, or an
	// unknown action.
	CodeBadSignal engine.Code = "voice_bad_signal"
	// CodeUnavailable: the table's audio could not be set up (the room
	// stopped, the server is closing).
	CodeUnavailable engine.Code = "voice_unavailable"
)

// Kinds are the kinds of the voice table's codes.
var Kinds = map[engine.Code]engine.Kind{
	CodeNotYourSeat: engine.KindForbidden, CodeListenOnly: engine.KindForbidden, CodeNoSpectators: engine.KindForbidden,
	CodeNotJoined: engine.KindConflict, CodeBadSignal: engine.KindInvalid, CodeUnavailable: engine.KindBusy,
}
