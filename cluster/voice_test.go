package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"mafia/client"
	"mafia/server"
	"mafia/voice"
	"mafia/wire"
)

// voiceSeat is one seat's WebSocket and pion peer at a voice table.
type voiceSeat struct {
	t    *testing.T
	seat int
	conn *client.Conn
	pc   *webrtc.PeerConnection
	mic  *webrtc.TrackLocalStaticRTP

	mu    sync.Mutex
	heard map[int]int // packets received, by the seat they are of
	cands []string    // the server's ICE candidates
	errs  []string
}

var voiceAPI = func() *webrtc.API {
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

// joinVoiceAt dials table at api with token and turns voice on, with a
// microphone.
func joinVoiceAt(ctx context.Context, t *testing.T, api *client.API, table, token string, seat int) *voiceSeat {
	t.Helper()
	c, err := api.Dial(ctx, table, token, 0)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := voiceAPI.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	v := &voiceSeat{t: t, seat: seat, conn: c, pc: pc, heard: map[int]int{}}
	t.Cleanup(func() { c.CloseNow(); pc.Close() })
	v.mic, err = webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "mic", "m")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pc.AddTransceiverFromTrack(v.mic, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
		t.Fatal(err)
	}
	pc.OnICECandidate(func(ic *webrtc.ICECandidate) {
		if ic == nil {
			return
		}
		ci := ic.ToJSON()
		_, _ = c.Send(ctx, wire.ClientMessage{Type: "voice", Action: "candidate", Candidate: &wire.VoiceCandidate{Candidate: ci.Candidate,
			SDPMid: ci.SDPMid, SDPMLineIndex: ci.SDPMLineIndex, UsernameFragment: ci.UsernameFragment}})
	})
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		var from int
		fmt.Sscanf(tr.ID(), "seat-%d", &from)
		for {
			if _, _, err := tr.ReadRTP(); err != nil {
				return
			}
			v.mu.Lock()
			v.heard[from]++
			v.mu.Unlock()
		}
	})
	go v.read(ctx)
	if _, err := c.Send(ctx, wire.ClientMessage{Type: "voice", Action: "join", Mic: true}); err != nil {
		t.Fatal(err)
	}
	return v
}

// read answers the unit's offer and takes its candidates.
func (v *voiceSeat) read(ctx context.Context) {
	for {
		data, err := v.conn.ReadRaw(ctx)
		if err != nil {
			return
		}
		var m wire.VoiceMessage
		if json.Unmarshal(data, &m) != nil || m.Type != "voice" {
			var e wire.ServerMessage
			if json.Unmarshal(data, &e) == nil && e.Type == "error" {
				v.mu.Lock()
				v.errs = append(v.errs, e.Code)
				v.mu.Unlock()
			}
			continue
		}
		switch m.Action {
		case "offer":
			err := v.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: m.SDP})
			var ans webrtc.SessionDescription
			if err == nil {
				ans, err = v.pc.CreateAnswer(nil)
			}
			if err == nil {
				err = v.pc.SetLocalDescription(ans)
			}
			if err != nil {
				v.t.Errorf("seat %d: the offer: %v", v.seat, err)
				return
			}
			_, _ = v.conn.Send(ctx, wire.ClientMessage{Type: "voice", Action: "answer", SDP: ans.SDP})
		case "candidate":
			v.mu.Lock()
			v.cands = append(v.cands, m.Candidate.Candidate)
			v.mu.Unlock()
			_ = v.pc.AddICECandidate(webrtc.ICECandidateInit{Candidate: m.Candidate.Candidate, SDPMid: m.Candidate.SDPMid,
				SDPMLineIndex: m.Candidate.SDPMLineIndex, UsernameFragment: m.Candidate.UsernameFragment})
		}
	}
}

// TestARelayedSeatsVoiceGoesToTheOwnersUnit: at a voice table that node b
// owns, a seat whose WebSocket is on node a (relayed to b) turns voice on:
// its signalling passes through the relay to b's forwarding unit, whose
// offer and candidates come back through it naming b's own media port, and
// its audio flows with b's unit directly: it hears a seat connected to b,
// and is heard by it. The relaying node carries no media.
func TestARelayedSeatsVoiceGoesToTheOwnersUnit(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hub, err := voice.New(voice.Config{UDP: udp, Loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hub.Close() })
	p := startPairServer(ctx, t, nil, func(c *server.Config) { c.Voice = hub })

	body, _ := json.Marshal(map[string]any{"name": "Voice", "players": 5, "voice": "seats"})
	resp, err := http.Post(p.direct.Base+"/api/tables", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		Table string `json:"table"`
	}
	err = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if err != nil || created.Table == "" {
		t.Fatalf("create: %v %s", err, resp.Status)
	}
	var tokens [3]string
	for s := 1; s <= 2; s++ {
		j, err := p.direct.Join(ctx, created.Table, fmt.Sprintf("P%d", s), s, "")
		if err != nil {
			t.Fatal(err)
		}
		tokens[s] = j.Token
	}
	p.own(ctx, t, created.Table)

	direct := joinVoiceAt(ctx, t, p.direct, created.Table, tokens[1], 1)
	relayed := joinVoiceAt(ctx, t, p.relayed, created.Table, tokens[2], 2)
	port := fmt.Sprintf(" %d typ ", udp.LocalAddr().(*net.UDPAddr).Port)
	var seq uint16
	for {
		seq++
		for _, v := range []*voiceSeat{direct, relayed} {
			if v.pc.ConnectionState() == webrtc.PeerConnectionStateConnected {
				_ = v.mic.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: seq, Timestamp: uint32(seq) * 960},
					Payload: []byte{0xab, byte(v.seat)}})
			}
		}
		direct.mu.Lock()
		relayed.mu.Lock()
		done := direct.heard[2] > 0 && relayed.heard[1] > 0
		state := fmt.Sprintf("seat 1 heard %v, seat 2 heard %v, refusals %v %v", direct.heard, relayed.heard, direct.errs, relayed.errs)
		cands := append([]string(nil), relayed.cands...)
		relayed.mu.Unlock()
		direct.mu.Unlock()
		if done {
			if len(cands) == 0 {
				t.Fatal("the relayed seat got no candidate of the unit")
			}
			for _, c := range cands {
				if !strings.Contains(c, port) {
					t.Errorf("the relayed seat was offered %q, not the owner's media port%s", c, port)
				}
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the voices never met: %s", state)
		case <-time.After(20 * time.Millisecond): // a microphone's pace
		}
	}
}
