package voice

// This file is the process's forwarding unit: its WebRTC API on one UDP
// port, its tables, and the signalling the server hands it.

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"sync"

	"github.com/pion/ice/v4"
	"github.com/pion/interceptor"
	"github.com/pion/webrtc/v4"

	"mafia/engine"
	"mafia/room"
	"mafia/server"
	"mafia/wire"
)

// Config is what the forwarding unit needs.
type Config struct {
	// UDP is the process's one UDP socket: every table's media goes
	// through it (ice.UDPMux). Required; the hub closes it.
	UDP net.PacketConn
	// PublicIPs are the addresses clients reach UDP at, when it is behind
	// a 1:1 NAT (webrtc's SetNAT1To1IPs); empty: the socket's own.
	PublicIPs []string
	// Loopback offers loopback candidates (tests on one machine).
	Loopback bool
	// SilenceFrames is how many Opus silence frames end a run of a seat's
	// packets (default 3).
	SilenceFrames int
	// ICE is the STUN and TURN servers handed to clients, with their
	// credentials (none: clients reach UDP directly only).
	ICE ICEConfig
	// Log receives the unit's errors, WebRTC's warnings and errors
	// among them (nil: discarded).
	Log *slog.Logger
}

// Hub is the forwarding unit of a process: it implements server.Voice.
type Hub struct {
	cfg Config
	api *webrtc.API
	mux *ice.UDPMuxDefault

	mu     sync.Mutex
	tables map[*room.Room]*table
	closed bool
}

// New makes the forwarding unit on cfg.UDP.
func New(cfg Config) (*Hub, error) {
	if cfg.UDP == nil {
		return nil, errors.New("voice: no UDP socket")
	}
	if cfg.SilenceFrames <= 0 {
		cfg.SilenceFrames = 3
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	m := &webrtc.MediaEngine{}
	if err := m.RegisterCodec(webrtc.RTPCodecParameters{RTPCodecCapability: opusCap, PayloadType: 111}, webrtc.RTPCodecTypeAudio); err != nil {
		return nil, err
	}
	mux := ice.NewUDPMuxDefault(ice.UDPMuxParams{UDPConn: cfg.UDP})
	se := webrtc.SettingEngine{}
	se.SetICEUDPMux(mux)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4, webrtc.NetworkTypeUDP6})
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	se.LoggerFactory = pionLogs{log: cfg.Log}
	se.SetIncludeLoopbackCandidate(cfg.Loopback)
	if len(cfg.PublicIPs) > 0 {
		se.SetNAT1To1IPs(cfg.PublicIPs, webrtc.ICECandidateTypeHost)
	}
	// Of pion's default interceptors only the RTCP reports: the
	// receiver reports tell each microphone's browser its loss (its Opus
	// sizes its in-band FEC by it), the sender reports give a listener's
	// browser its round trip. NACK (video only: a browser asks for no lost
	// audio), the statistics (the unit counts for itself: Stats) and
	// transport-wide congestion feedback (a bandwidth estimate a forward-
	// only audio unit does not use) would cost every packet in and out.
	ir := &interceptor.Registry{}
	if err := webrtc.ConfigureRTCPReports(ir); err != nil {
		return nil, err
	}
	api := webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithSettingEngine(se), webrtc.WithInterceptorRegistry(ir))
	return &Hub{cfg: cfg, api: api, mux: mux, tables: map[*room.Room]*table{}}, nil
}

// opusCap is the one codec: Opus, with in-band FEC and DTX.
var opusCap = webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: opusRate, Channels: 2,
	SDPFmtpLine: "minptime=10;useinbandfec=1;usedtx=1"}

// Close ends every table's audio and closes the UDP port.
func (h *Hub) Close() error {
	h.mu.Lock()
	h.closed = true
	ts := make([]*table, 0, len(h.tables))
	for _, t := range h.tables {
		ts = append(ts, t)
	}
	h.mu.Unlock()
	for _, t := range ts {
		t.close("stopped")
	}
	return h.mux.Close()
}

// Signal takes one "voice" message of a connection (server.Voice).
func (h *Hub) Signal(p *server.VoicePeer, m wire.ClientMessage) error {
	switch m.Action {
	case "join":
		return h.join(p, m)
	case "answer", "candidate", "leave", "restart":
		t := h.tableOf(p.Room)
		var pt *participant
		if t != nil {
			pt = t.participant(p)
		}
		if pt == nil {
			if m.Action == "leave" {
				return nil
			}
			return &engine.Error{Code: CodeNotJoined}
		}
		switch m.Action {
		case "answer":
			if err := pt.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: m.SDP}); err != nil {
				return &engine.Error{Code: CodeBadSignal, Name: "sdp"}
			}
			for _, c := range pt.early {
				_ = pt.pc.AddICECandidate(c) // as checked when it came
			}
			pt.early = nil
		case "candidate":
			if m.Candidate == nil {
				return &engine.Error{Code: CodeBadSignal, Name: "candidate"}
			}
			c := webrtc.ICECandidateInit{Candidate: m.Candidate.Candidate, SDPMid: m.Candidate.SDPMid,
				SDPMLineIndex: m.Candidate.SDPMLineIndex, UsernameFragment: m.Candidate.UsernameFragment}
			if pt.pc.SignalingState() == webrtc.SignalingStateHaveLocalOffer {
				// A candidate may overtake its answer (a client sends both
				// as they come): while the unit's offer is out (the first,
				// or a restart's), it is kept for the answer, a few only.
				// Given before, WebRTC drops one of the answer's new
				// credentials unsaid (CI: a seat was never heard again
				// after its restart).
				if len(pt.early) >= maxEarly {
					return &engine.Error{Code: CodeBadSignal, Name: "candidate"}
				}
				pt.early = append(pt.early, c)
				return nil
			}
			if err := pt.pc.AddICECandidate(c); err != nil {
				return &engine.Error{Code: CodeBadSignal, Name: "candidate"}
			}
		case "leave":
			t.leave(p)
		case "restart":
			return t.restart(p, pt)
		}
		return nil
	}
	return &engine.Error{Code: CodeBadSignal, Name: "action", Value: m.Action}
}

// join checks who may join, then offers the connection its audio (a
// join again starts over: a phone that changed networks).
func (h *Hub) join(p *server.VoicePeer, m wire.ClientMessage) error {
	switch {
	case m.Seat != 0 && engine.Seat(m.Seat) != p.Seat:
		return &engine.Error{Code: CodeNotYourSeat, Seat: engine.Seat(m.Seat)}
	case p.Seat == 0 && m.Mic:
		return &engine.Error{Code: CodeListenOnly}
	case p.Seat == 0 && !p.Host && p.Room.Voice() != room.VoiceEveryone:
		return &engine.Error{Code: CodeNoSpectators}
	}
	t, err := h.table(p.Room)
	if err != nil {
		return err
	}
	return t.join(p, m.Mic)
}

// tableOf is the room's table, nil if none.
func (h *Hub) tableOf(rm *room.Room) *table {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.tables[rm]
}

// table is the room's table, made (and watching the room) if none.
func (h *Hub) table(rm *room.Room) (*table, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, &engine.Error{Code: CodeUnavailable}
	}
	if t := h.tables[rm]; t != nil {
		return t, nil
	}
	t := newTable(h, rm)
	cancel, err := rm.Watch(context.Background(), t.observe)
	if err != nil {
		t.stopLoop()
		return nil, &engine.Error{Code: CodeUnavailable}
	}
	t.cancel = cancel
	h.tables[rm] = t
	return t, nil
}

// drop forgets a table (it has stopped, or nobody is left).
func (h *Hub) drop(t *table) {
	h.mu.Lock()
	if h.tables[t.room] == t {
		delete(h.tables, t.room)
	}
	h.mu.Unlock()
}

// Gone ends the audio of a connection that has ended (server.Voice).
func (h *Hub) Gone(p *server.VoicePeer) {
	if t := h.tableOf(p.Room); t != nil {
		t.leave(p)
	}
}
