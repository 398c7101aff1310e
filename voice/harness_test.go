package voice_test

// The tests' harness: a real server on loopback over a real SQLite file,
// with the forwarding unit on a loopback UDP port, and players that are
// real pion peers on the game's own WebSocket.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"mafia/client"
	"mafia/internal/sqlitetest"
	"mafia/locale"
	"mafia/room"
	"mafia/server"
	"mafia/voice"
	"mafia/wire"
)

// rig is a server with voice on loopback.
type rig struct {
	hub *voice.Hub
	srv *server.Server
	hs  *httptest.Server
	api *client.API
}

func newRig(t *testing.T, withVoice bool) *rig {
	t.Helper()
	return newRigWith(t, withVoice, nil)
}

// newRigWith is newRig, the unit's config first given to with (if any).
func newRigWith(t *testing.T, withVoice bool, with func(*voice.Config)) *rig {
	t.Helper()
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{}
	cfg := server.Config{Store: db, SeatsPerAddress: -1, Pace: room.PaceInstant, DealSeed: func() uint64 { return 3 },
		Render: func(lang string, err error) string {
			l, ok := locale.Parse(lang)
			if !ok {
				l = locale.En
			}
			return locale.New(l).Refusal(err)
		}}
	if withVoice {
		udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		vc := voice.Config{UDP: udp, Loopback: true}
		if with != nil {
			with(&vc)
		}
		if r.hub, err = voice.New(vc); err != nil {
			t.Fatal(err)
		}
		cfg.Voice = r.hub
	}
	r.srv = server.New(cfg)
	if _, err := r.srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.hs = httptest.NewServer(r.srv.Handler())
	r.api = &client.API{Base: r.hs.URL}
	t.Cleanup(func() {
		r.hs.Close()
		r.srv.Close()
		if r.hub != nil {
			r.hub.Close()
		}
		db.Close()
	})
	return r
}

// create makes a table of n seats with the voice setting given, every seat
// joined by a test's person; it returns the table, the host's token and
// the seats' tokens (index = seat).
func (r *rig) create(t *testing.T, n int, voiceSetting string) (string, string, []string) {
	t.Helper()
	return r.createOn(t, r.hs.URL, n, voiceSetting, 6000)
}

// createAt is create at a server elsewhere (a measurement's), with a
// night of night ms.
func (r *rig) createAt(t *testing.T, url string, n int, night int64) (string, string, []string) {
	t.Helper()
	return r.createOn(t, url, n, "everyone", night)
}

func (r *rig) createOn(t *testing.T, url string, n int, voiceSetting string, night int64) (string, string, []string) {
	t.Helper()
	// The night lasts its full length, always (docs/rules.md): a short one,
	// long enough for a night's checks.
	body, _ := json.Marshal(map[string]any{"name": "Voice", "players": n, "voice": voiceSetting,
		"timings_ms": map[string]int64{"night": night}})
	resp, err := http.Post(url+"/api/tables", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Table     string `json:"table"`
		HostToken string `json:"host_token"`
	}
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	tokens := make([]string, n+1)
	for s := 1; s <= n; s++ {
		j, err := r.api.Join(context.Background(), out.Table, fmt.Sprintf("P%d", s), s, "")
		if err != nil {
			t.Fatal(err)
		}
		tokens[s] = j.Token
	}
	return out.Table, out.HostToken, tokens
}

// rx is one RTP packet a player received.
type rx struct {
	from  int // the seat whose track it came on
	seq   uint16
	ts    uint32
	mark  bool
	ext   bool
	data  []byte
	burst int // the burst it is of (-1: a silence frame)
}

// player is one connection: its WebSocket and, once joined, its peer.
type player struct {
	t    *testing.T
	seat int
	conn *client.Conn
	api  *webrtc.API
	pc   *webrtc.PeerConnection
	mic  *webrtc.TrackLocalStaticRTP
	seq  uint16
	ts   uint32

	mu       sync.Mutex
	changed  chan struct{} // signalled at each frame or packet
	view     *wire.View
	lobby    *wire.Lobby
	heard    []int
	hasHeard bool
	errs     map[int64]string // refusals by request id
	replies  map[int64]bool
	got      []rx
	closed   bool
	// onAnswer, if set, is told each answer's SDP before it is sent.
	onAnswer func(sdp string)
	// relay makes the peer when the offer comes, with the offer's ICE
	// servers and a relay-only policy (a player behind a strict NAT).
	relay   bool
	wantMic bool
	offers  []wire.VoiceMessage // every offer the unit made
	hold    bool                // leave offers unanswered (a client that never answers)
	// candidatesFirst sends the answer's first candidate before the
	// answer itself (a client whose candidates overtake its answer).
	candidatesFirst bool
	candSent        chan struct{} // signalled at each candidate sent
	// countOnly keeps only the number of packets received (received), not
	// each one (a load's peers).
	countOnly bool
	received  int64
	sent      atomic.Int64 // packets its microphone sent (talk)
	// endErr is why the connection ended (nil while it is open);
	// closedCode the code of the voice table's closed, if one came
	// (before the end: read in order).
	endErr     error
	closedCode string
}

var rtcAPI = func() *webrtc.API {
	m := &webrtc.MediaEngine{}
	if err := m.RegisterDefaultCodecs(); err != nil {
		panic(err)
	}
	se := webrtc.SettingEngine{}
	se.SetIncludeLoopbackCandidate(true)
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	se.SetInterfaceFilter(func(name string) bool { return name == "lo" })
	return webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithSettingEngine(se))
}()

// dial connects a player (token "": a spectator) and starts reading.
func (r *rig) dial(t *testing.T, table, token string, seat int) *player {
	t.Helper()
	return r.dialLang(t, table, token, seat, "")
}

func (r *rig) dialLang(t *testing.T, table, token string, seat int, lang string) *player {
	t.Helper()
	api := *r.api
	api.Lang = lang
	c, err := api.Dial(context.Background(), table, token, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := &player{t: t, seat: seat, conn: c, changed: make(chan struct{}, 1), candSent: make(chan struct{}, 1), errs: map[int64]string{}, replies: map[int64]bool{},
		view: c.View, lobby: c.Lobby}
	go p.read()
	t.Cleanup(func() {
		p.mu.Lock()
		p.closed = true
		p.mu.Unlock()
		c.CloseNow()
		if p.pc != nil {
			p.pc.Close()
		}
	})
	return p
}

func (p *player) signal() {
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

// read takes the connection's frames: the voice table's signalling, the
// views, the answers.
func (p *player) read() {
	for {
		data, err := p.conn.ReadRaw(context.Background())
		if err != nil {
			p.mu.Lock()
			p.endErr = err
			p.mu.Unlock()
			p.signal()
			return
		}
		var head struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(data, &head)
		if head.Type == "voice" {
			checkSchema(p.t, "voice_message", data)
			var v wire.VoiceMessage
			if err := json.Unmarshal(data, &v); err != nil {
				p.t.Errorf("seat %d: voice frame: %v", p.seat, err)
				continue
			}
			p.onVoice(v)
			p.signal()
			continue
		}
		m, err := p.conn.Absorb(data)
		if err != nil {
			continue
		}
		p.mu.Lock()
		if m.View != nil {
			p.view = m.View
		}
		if m.Lobby != nil {
			p.lobby = m.Lobby
		}
		switch m.Type {
		case "error":
			p.errs[m.ID] = m.Code + ": " + m.Message
		case "reply":
			p.replies[m.ID] = true
		}
		p.mu.Unlock()
		p.signal()
	}
}

// onVoice answers the unit's offer (with the microphone, if any, on the
// track it offered to receive) and takes its candidates and states.
func (p *player) onVoice(v wire.VoiceMessage) {
	switch v.Action {
	case "offer":
		p.mu.Lock()
		p.offers = append(p.offers, v)
		hold := p.hold
		p.mu.Unlock()
		if hold {
			return
		}
		if p.pc == nil {
			var cfg webrtc.Configuration
			for _, s := range v.ICEServers {
				cfg.ICEServers = append(cfg.ICEServers, webrtc.ICEServer{URLs: s.URLs, Username: s.Username, Credential: s.Credential})
			}
			cfg.ICETransportPolicy = webrtc.ICETransportPolicyRelay
			if err := p.makePC(cfg); err != nil {
				p.t.Errorf("seat %d: a peer for the offer's ICE servers %+v: %v", p.seat, v.ICEServers, err)
				return
			}
		}
		select {
		case <-p.candSent: // one sent before: not this answer's (a restart gathers from the offer on)
		default:
		}
		if err := p.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: v.SDP}); err != nil {
			p.t.Errorf("seat %d: offer: %v", p.seat, err)
			return
		}
		p.mu.Lock()
		first := p.candidatesFirst
		p.mu.Unlock()
		ans, err := p.pc.CreateAnswer(nil)
		if err == nil {
			err = p.pc.SetLocalDescription(ans)
		}
		if err != nil {
			p.t.Errorf("seat %d: answer: %v", p.seat, err)
			return
		}
		if first {
			select {
			case <-p.candSent:
			case <-time.After(30 * time.Second):
				p.t.Errorf("seat %d: no candidate gathered for the answer", p.seat)
				return
			}
		}
		if p.onAnswer != nil {
			p.onAnswer(ans.SDP)
		}
		p.send(wire.ClientMessage{Type: "voice", Action: "answer", SDP: ans.SDP})
	case "candidate":
		if p.pc == nil {
			return // no peer: its offer could not be taken (an error already)
		}
		c := v.Candidate
		p.mu.Lock()
		var offer string
		if len(p.offers) > 0 {
			offer = p.offers[len(p.offers)-1].SDP
		}
		hold := p.hold
		p.mu.Unlock()
		if u, o := candUfrag.FindStringSubmatch(c.Candidate), iceUfrag.FindStringSubmatch(offer); !hold && u != nil && o != nil && u[1] != o[1] {
			// Taken before its offer, WebRTC would drop it unsaid.
			p.t.Errorf("seat %d: the unit's candidate of ICE credentials %s came before their offer (the last offered %s)", p.seat, u[1], o[1])
		}
		if err := p.pc.AddICECandidate(webrtc.ICECandidateInit{Candidate: c.Candidate, SDPMid: c.SDPMid,
			SDPMLineIndex: c.SDPMLineIndex, UsernameFragment: c.UsernameFragment}); err != nil {
			p.t.Errorf("seat %d: candidate: %v", p.seat, err)
		}
	case "state":
		p.mu.Lock()
		p.heard, p.hasHeard = v.Heard, true
		p.mu.Unlock()
	case "closed":
		p.mu.Lock()
		p.closedCode = v.Code
		p.mu.Unlock()
	}
}

func (p *player) send(m wire.ClientMessage) int64 {
	if m.Type == "voice" {
		m.V = wire.Version
		checkSchema(p.t, "client_message", m.AppendJSON(nil))
	}
	id, err := p.conn.Send(context.Background(), m)
	if err != nil {
		p.mu.Lock()
		closed := p.closed
		p.mu.Unlock()
		if !closed {
			p.t.Errorf("seat %d: send: %v", p.seat, err)
		}
	}
	return id
}

// joinVoice makes the player's peer and asks the table for its audio (a
// relay player makes its peer when the offer comes, with the ICE servers
// the offer names).
func (p *player) joinVoice(mic bool) int64 {
	p.wantMic = mic
	if !p.relay {
		if err := p.makePC(webrtc.Configuration{}); err != nil {
			p.t.Fatal(err)
		}
	}
	return p.send(wire.ClientMessage{Type: "voice", Action: "join", Mic: mic})
}

// makePC makes the player's peer connection: its microphone, if it sends
// one, and its handlers.
func (p *player) makePC(cfg webrtc.Configuration) error {
	pc, err := rtcAPI.NewPeerConnection(cfg)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.pc = pc
	p.mu.Unlock()
	if p.wantMic {
		p.mic, err = webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2},
			"mic", fmt.Sprintf("seat-%d", p.seat))
		if err != nil {
			return err
		}
		// Sendonly: it pairs with the one m-line the unit offers to
		// receive, never with a seat's track.
		if _, err := pc.AddTransceiverFromTrack(p.mic, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
			return err
		}
	}
	pc.OnICECandidate(func(c *webrtc.ICECandidate) {
		if c == nil {
			return
		}
		ci := c.ToJSON()
		p.send(wire.ClientMessage{Type: "voice", Action: "candidate", Candidate: &wire.VoiceCandidate{Candidate: ci.Candidate,
			SDPMid: ci.SDPMid, SDPMLineIndex: ci.SDPMLineIndex, UsernameFragment: ci.UsernameFragment}})
		select {
		case p.candSent <- struct{}{}:
		default:
		}
	})
	pc.OnConnectionStateChange(func(webrtc.PeerConnectionState) { p.signal() })
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		var from int
		fmt.Sscanf(tr.ID(), "seat-%d", &from)
		for {
			pkt, _, err := tr.ReadRTP()
			if err != nil {
				return
			}
			if p.countOnly {
				p.mu.Lock()
				p.received++
				p.mu.Unlock()
				continue
			}
			r := rx{from: from, seq: pkt.SequenceNumber, ts: pkt.Timestamp, mark: pkt.Marker, ext: pkt.Extension,
				data: append([]byte(nil), pkt.Payload...), burst: -1}
			if len(r.data) == 4 && r.data[0] == 0xab {
				r.burst = int(r.data[2])
			}
			p.mu.Lock()
			p.got = append(p.got, r)
			p.mu.Unlock()
			p.signal()
		}
	})
	return nil
}

// burst sends k packets of burst b from the player's microphone, each
// payload marked with its seat and burst, each with a header extension
// the unit must strip. The numbers run on across bursts, as a microphone's
// do.
func (p *player) burst(b, k int) {
	for i := range k {
		p.seq++
		p.ts += 960
		h := rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: p.seq, Timestamp: p.ts}
		if err := h.SetExtension(1, []byte{0x30}); err != nil {
			p.t.Fatal(err)
		}
		if err := p.mic.WriteRTP(&rtp.Packet{Header: h, Payload: []byte{0xab, byte(p.seat), byte(b), byte(i)}}); err != nil {
			p.t.Fatal(err)
		}
	}
}

// rtpPacket is a microphone's packet.
func rtpPacket(seq uint16, ts uint32, payload []byte) *rtp.Packet {
	return &rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: seq, Timestamp: ts}, Payload: payload}
}

// waitFor waits until cond holds (checked at each frame or packet the
// player takes), failing the test after a long while.
func (p *player) waitFor(what string, cond func() bool) {
	p.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		p.mu.Lock()
		ok := cond()
		p.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-p.changed:
		case <-time.After(50 * time.Millisecond): // the peer's state changes without a frame
		case <-deadline:
			p.t.Fatalf("seat %d: timed out waiting for %s", p.seat, what)
		}
	}
}

// answer waits for the answer to request id: "" accepted, else the
// refusal's code and sentence.
func (p *player) answer(id int64) string {
	p.t.Helper()
	var out string
	p.waitFor(fmt.Sprintf("the answer to %d", id), func() bool {
		if e, ok := p.errs[id]; ok {
			out = e
			return true
		}
		return p.replies[id]
	})
	return out
}

// connected waits until the player's peer is connected.
func (p *player) connected() {
	p.t.Helper()
	p.waitFor("the peer connected", func() bool { return p.pc != nil && p.pc.ConnectionState() == webrtc.PeerConnectionStateConnected })
}

// code is a refusal's code.
func code(answer string) string {
	c, _, _ := strings.Cut(answer, ":")
	return c
}
