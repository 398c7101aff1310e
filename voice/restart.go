package voice

// This file is the ICE restart: a phone that changed networks keeps its
// connection's audio (the same tracks, the same numbering) and gets a new
// path, and nobody else's connection is touched.

import (
	"github.com/pion/webrtc/v4"

	"mafia/engine"
	"mafia/server"
	"mafia/wire"
)

// restart offers p's connection an ICE restart: a new offer on the same
// peer connection, with new ICE credentials, that the client answers as it
// answered the first. Its tracks, and so its listeners' streams of it and
// its own of the others, run on: nothing is renegotiated for anyone else.
func (t *table) restart(p *server.VoicePeer, pt *participant) error {
	if pt.pc.SignalingState() != webrtc.SignalingStateStable {
		// An offer is out, unanswered: the restart would race it.
		return &engine.Error{Code: CodeBadSignal, Name: "restart"}
	}
	// The restart gathers from CreateOffer on: its candidates wait for
	// the offer (a client drops one of credentials not yet offered, and a
	// seat was never heard again after its restart).
	pt.holdCandidates()
	offer, err := pt.pc.CreateOffer(&webrtc.OfferOptions{ICERestart: true})
	if err != nil {
		pt.offered(nil)
		return &engine.Error{Code: CodeUnavailable}
	}
	pt.early = nil
	pt.offered(func() {
		p.Send(wire.VoiceMessage{Action: "offer", SDP: offer.SDP, ICEServers: t.h.cfg.ICE.Servers(t.room.ID(), p.Seat)}.Frame())
	})
	if err := pt.pc.SetLocalDescription(offer); err != nil {
		return &engine.Error{Code: CodeUnavailable}
	}
	return nil
}
