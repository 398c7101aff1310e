package wire

// This file is the voice table's signalling (docs/protocol.md, "Voice"):
// the fields a client's "voice" message carries, and the server's "voice"
// messages, which are rare and go by encoding/json.

import "encoding/json"

// VoiceCandidate is one ICE candidate, as a browser's
// RTCIceCandidate.toJSON() spells it.
type VoiceCandidate struct {
	Candidate        string  `json:"candidate"`
	SDPMid           *string `json:"sdpMid,omitempty"`
	SDPMLineIndex    *uint16 `json:"sdpMLineIndex,omitempty"`
	UsernameFragment *string `json:"usernameFragment,omitempty"`
}

// VoiceMessage is a server's "voice" message to one connection. Action
// says which fields matter:
//
//	"offer":     SDP, ICEServers — the table's forwarding unit offers the connection
//	             its audio: one track per other seat (its id "seat-N"), and
//	             a track to receive the connection's microphone if it asked
//	             to send one; the client answers with a "voice" "answer"
//	"candidate": Candidate — one of the server's ICE candidates
//	"state":     Heard — the seats whose microphones are carried now (the
//	             same message for every connection of the table)
//	"closed":    Code — the server ended the connection's audio (the table
//	             stopped or moved: join again)
type VoiceMessage struct {
	V         int             `json:"v"`
	Type      string          `json:"type"`
	Action    string          `json:"action"`
	SDP       string          `json:"sdp,omitempty"`
	Candidate *VoiceCandidate `json:"candidate,omitempty"`
	Heard     []int           `json:"heard,omitempty"`
	Code      string          `json:"code,omitempty"`
	// ICEServers (on "offer"): the STUN and TURN servers the client's peer
	// connection is to use, as RTCIceServer spells them.
	ICEServers []VoiceICEServer `json:"ice_servers,omitempty"`
}

// VoiceICEServer is one STUN or TURN server, as a browser's RTCIceServer
// spells it: its URLs, and for a TURN server a short-lived username and
// credential (the TURN REST API's).
type VoiceICEServer struct {
	URLs       []string `json:"urls"`
	Username   string   `json:"username,omitempty"`
	Credential string   `json:"credential,omitempty"`
}

// Frame encodes the message as a frame, its version and type set.
func (m VoiceMessage) Frame() []byte {
	m.V, m.Type = Version, "voice"
	b, _ := json.Marshal(m) // nothing in it can fail to encode
	return b
}
