package server

// This file hands a voice table's signalling (docs/protocol.md, "Voice") to
// the voice table's forwarding unit, which the server knows only as the
// hook Config.Voice (package voice implements it; cmd/mafia wires it): the
// server never imports the media's packages.

import (
	"bytes"
	"sync"

	"mafia/engine"
	"mafia/room"
	"mafia/wire"
)

// Voice is a voice table's forwarding unit (package voice). The server
// hands it every "voice" message of a connection, in order, from the
// connection's reader, and tells it once when the connection ends.
type Voice interface {
	// Signal takes one "voice" message of p's connection; a refusal is a
	// coded error (engine.Error) the connection is answered with.
	Signal(p *VoicePeer, m wire.ClientMessage) error
	// Gone says that p's connection has ended: its audio ends too.
	Gone(p *VoicePeer)
}

// VoicePeer is one connection as the voice table sees it: its table, its
// seat (0: a spectator, or a host who holds no seat) and whether it is the
// host's; Send queues a frame to it.
type VoicePeer struct {
	Room *room.Room
	Seat engine.Seat
	Host bool
	wc   *peer
}

// Send queues a frame (a wire.VoiceMessage's) to the connection, after
// those already queued; false when the connection's voice queue is full or
// it has ended (the frame is dropped: signalling is resent by a new join).
func (p *VoicePeer) Send(frame []byte) bool {
	wc := p.wc
	if wc.done.Load() {
		return false
	}
	select {
	case wc.voiceFrames() <- frame:
		wc.notify()
		return true
	default:
		return false
	}
}

// voiceQueue bounds the voice frames queued for one connection.
const voiceQueue = 64

// voiceFrames is the connection's queue of voice frames, nil until its
// first voice message (signalVoice): a nil channel is never ready, so the
// writers' selects pass over it and a Send finds it full.
func (wc *peer) voiceFrames() chan []byte {
	if q := wc.voiceOut.Load(); q != nil {
		return *q
	}
	return nil
}

// VoiceMaxFrame is the largest "voice" frame a client may send at a server
// with voice (an answer names every seat's track): past Config.MaxFrame,
// only a voice frame is read this far.
const VoiceMaxFrame = 64 << 10

// readLimit is how far a frame is read before the connection is closed.
func (s *Server) readLimit() int64 {
	limit := s.cfg.MaxFrame
	if s.cfg.Voice != nil {
		limit = max(limit, VoiceMaxFrame)
	}
	return limit + hardFrameSlack
}

// voiceSized reports whether a frame past MaxFrame may still be read as a
// voice frame (its type is checked once parsed).
func (s *Server) voiceSized(data []byte) bool {
	return s.cfg.Voice != nil && len(data) <= VoiceMaxFrame && bytes.Contains(data, []byte(`"voice"`))
}

// voiceState is a connection's side of the voice table, made at its first
// voice message.
type voiceState struct {
	mu   sync.Mutex
	peer *VoicePeer
	gone bool
}

// signalVoice hands a voice message to the voice table.
func (s *Server) signalVoice(rm *room.Room, sub *room.Sub, wc *peer, m wire.ClientMessage) error {
	if s.cfg.Voice == nil || rm.Voice() == room.VoiceOff {
		return &engine.Error{Code: CodeVoiceOff}
	}
	wc.vs.mu.Lock()
	if wc.vs.gone {
		wc.vs.mu.Unlock()
		return nil
	}
	if wc.vs.peer == nil {
		q := make(chan []byte, voiceQueue)
		wc.voiceOut.Store(&q) // before the voice table can Send to it
		wc.vs.peer = &VoicePeer{Room: rm, Seat: sub.Seat, Host: sub.Host, wc: wc}
	}
	p := wc.vs.peer
	wc.vs.mu.Unlock()
	return s.cfg.Voice.Signal(p, m)
}

// voiceGone tells the voice table the connection has ended (once).
func (s *Server) voiceGone(wc *peer) {
	wc.vs.mu.Lock()
	p, was := wc.vs.peer, wc.vs.gone
	wc.vs.gone = true
	wc.vs.mu.Unlock()
	if p != nil && !was {
		s.cfg.Voice.Gone(p)
	}
}

// CodeVoiceOff refuses a voice message at a table without voice (or a
// server that carries none).
const CodeVoiceOff engine.Code = "voice_off"
