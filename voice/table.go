package voice

// This file is one table's forwarding unit: its connections, the room's
// step as its watcher sees it, and who is heard.

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/webrtc/v4"

	"mafia/engine"
	"mafia/room"
	"mafia/server"
	"mafia/wire"
)

// table is one table's forwarding unit.
type table struct {
	h       *Hub
	room    *room.Room
	players int
	cancel  func() // the room's watch

	// latest is the room's newest state, which observe leaves for the
	// table's own goroutine (wake); quit ends that goroutine.
	smu    sync.Mutex
	latest room.StepState
	wake   chan struct{}
	quit   chan struct{}
	once   sync.Once

	// mu guards who is connected and who is heard: a packet is forwarded
	// under its read lock, so that once heard changes no packet of a seat
	// no longer heard goes out after its run's silence.
	mu     sync.RWMutex
	parts  map[*server.VoicePeer]*participant
	mics   [engine.MaxSeats + 1]*participant // the seat's connection whose microphone counts
	state  room.StepState
	heard  engine.SeatSet
	cut    engine.SeatSet
	closed bool
	told   atomic.Bool // closed was sent to every connection (tellClosed)
	// changed is when who is heard last changed, changedIn each seat's
	// count of packets read (in) then (Stats).
	changed   time.Time
	changedIn [engine.MaxSeats + 1]int64

	in [engine.MaxSeats + 1]atomic.Int64 // packets read from each seat's microphone
}

// participant is one connection's audio.
type participant struct {
	peer *server.VoicePeer
	seat engine.Seat
	pc   *webrtc.PeerConnection
	outs [engine.MaxSeats + 1]*outTrack // by seat: every seat but its own
	// early holds candidates that came before the answer to the unit's
	// offer, the first or a restart's (the connection's reader alone
	// touches it: its messages come in order).
	early []webrtc.ICECandidateInit
	// cmu orders the unit's candidates after the offer they belong to:
	// an ICE restart gathers from its CreateOffer on, before the offer
	// is sent, and a client drops a candidate of credentials it has not
	// been offered yet. While offering, candidates wait in held.
	cmu      sync.Mutex
	offering bool
	held     []*wire.VoiceCandidate
}

// holdCandidates holds the unit's candidates until offered: an offer is
// being made.
func (pt *participant) holdCandidates() {
	pt.cmu.Lock()
	pt.offering = true
	pt.cmu.Unlock()
}

// sendCandidate sends the unit's candidate c to the connection, or holds
// it while its offer is being made.
func (pt *participant) sendCandidate(c *wire.VoiceCandidate) {
	pt.cmu.Lock()
	defer pt.cmu.Unlock()
	if pt.offering {
		pt.held = append(pt.held, c)
		return
	}
	pt.peer.Send(wire.VoiceMessage{Action: "candidate", Candidate: c}.Frame())
}

// offered sends what was held while offering (the offer sent before it,
// or the offer failed and nothing is sent), and sends later candidates as
// they come.
func (pt *participant) offered(send func()) {
	pt.cmu.Lock()
	defer pt.cmu.Unlock()
	if send != nil {
		send()
		for _, c := range pt.held {
			pt.peer.Send(wire.VoiceMessage{Action: "candidate", Candidate: c}.Frame())
		}
	}
	pt.held, pt.offering = nil, false
}

// maxEarly bounds the candidates kept before an answer.
const maxEarly = 32

func newTable(h *Hub, rm *room.Room) *table {
	t := &table{h: h, room: rm, players: rm.Lobby().Players, wake: make(chan struct{}, 1), quit: make(chan struct{}),
		parts: map[*server.VoicePeer]*participant{}}
	go t.loop()
	return t
}

// observe is the room's watcher: it runs on the room's goroutine, so it
// only leaves the state for the table's goroutine.
func (t *table) observe(st room.StepState) {
	if st.Stopped {
		// The room lets its connections go right after this call: their
		// closed is queued now, ahead of their close (a moved table's
		// 1012), so that the pages join again at once where it went.
		t.tellClosed(closedCode(st))
	}
	t.smu.Lock()
	t.latest = st
	t.smu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// loop applies the room's states as they come.
func (t *table) loop() {
	for {
		select {
		case <-t.wake:
		case <-t.quit:
			return
		}
		t.smu.Lock()
		st := t.latest
		t.smu.Unlock()
		if st.Stopped {
			t.close(closedCode(st))
			return
		}
		t.apply(st)
	}
}

func (t *table) stopLoop() { t.once.Do(func() { close(t.quit) }) }

// apply takes a new state: who is heard changes, the runs of the seats no
// longer heard end with silence, and every connection is told.
func (t *table) apply(st room.StepState) {
	t.mu.Lock()
	t.cut = nextCut(t.state, st, t.cut)
	t.state = st
	heard := Heard(st, t.cut, t.players)
	was := t.heard
	t.heard = heard
	if heard != was {
		t.changed = time.Now()
		for s := range t.changedIn {
			t.changedIn[s] = t.in[s].Load()
		}
		for s := was &^ heard; s != 0; s = s.Without(s.First()) {
			t.endRunsAt(s.First(), t.changed)
		}
	}
	parts := t.list()
	t.mu.Unlock()
	if heard != was {
		frame := stateFrame(heard)
		for _, p := range parts {
			p.peer.Send(frame)
		}
	}
}

// endRuns ends every listener's run of a seat with silence (under mu).
func (t *table) endRuns(seat engine.Seat) { t.endRunsAt(seat, time.Now()) }

// endRunsAt is endRuns at now.
func (t *table) endRunsAt(seat engine.Seat, now time.Time) {
	for _, p := range t.parts {
		if o := p.outs[seat]; o != nil {
			o.end(t.h.cfg.SilenceFrames, now)
		}
	}
}

// stateFrame is the "state" message: the same for every connection.
func stateFrame(heard engine.SeatSet) []byte {
	seats := []int{}
	for m := heard; m != 0; m = m.Without(m.First()) {
		seats = append(seats, int(m.First()))
	}
	return wire.VoiceMessage{Action: "state", Heard: seats}.Frame()
}

// list is the participants now (under mu).
func (t *table) list() []*participant {
	out := make([]*participant, 0, len(t.parts))
	for _, p := range t.parts {
		out = append(out, p)
	}
	return out
}

// participant is p's, nil if it has not joined.
func (t *table) participant(p *server.VoicePeer) *participant {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.parts[p]
}

// join offers p its audio: a sending track for every other seat, and a
// receiving one for its microphone when it sends one.
func (t *table) join(p *server.VoicePeer, mic bool) error {
	pc, err := t.h.api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return &engine.Error{Code: CodeUnavailable}
	}
	pt := &participant{peer: p, seat: p.Seat, pc: pc}
	fail := func() error {
		_ = pc.Close()
		return &engine.Error{Code: CodeUnavailable}
	}
	for s := 1; s <= t.players && s <= engine.MaxSeats; s++ {
		if engine.Seat(s) == p.Seat {
			continue
		}
		tr, err := webrtc.NewTrackLocalStaticRTP(opusCap, fmt.Sprintf("seat-%d", s), "mafia-voice")
		if err != nil {
			return fail()
		}
		if _, err := pc.AddTransceiverFromTrack(tr, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
			return fail()
		}
		pt.outs[s] = &outTrack{track: tr}
	}
	if mic {
		if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
			return fail()
		}
		pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) { go t.readMic(pt, tr) })
	}
	pc.OnICECandidate(func(c *webrtc.ICECandidate) {
		if c == nil {
			return
		}
		ci := c.ToJSON()
		pt.sendCandidate(&wire.VoiceCandidate{Candidate: ci.Candidate,
			SDPMid: ci.SDPMid, SDPMLineIndex: ci.SDPMLineIndex, UsernameFragment: ci.UsernameFragment})
	})
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		return fail()
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return fail()
	}
	old := t.parts[p] // a join again starts over: a phone that changed networks
	if old != nil && t.mics[old.seat] == old {
		t.mics[old.seat] = nil
	}
	t.parts[p] = pt
	if mic {
		t.mics[p.Seat] = pt // the seat's newest connection speaks for it
	}
	// The offer before any candidate: candidates gather once the local
	// description is set. The state is queued under mu (Send only
	// queues): once p is in parts, apply tells it every later change, and
	// a state read here but queued after apply's (as it was, out of the
	// lock) left the connection with the older one (CI: a seat waited 30 s
	// for the lobby's "everyone").
	p.Send(wire.VoiceMessage{Action: "offer", SDP: offer.SDP, ICEServers: t.h.cfg.ICE.Servers(t.room.ID(), p.Seat)}.Frame())
	p.Send(stateFrame(t.heard))
	t.mu.Unlock()
	if old != nil {
		_ = old.pc.Close()
	}
	if err := pc.SetLocalDescription(offer); err != nil {
		t.leave(p)
		return &engine.Error{Code: CodeUnavailable}
	}
	return nil
}

// readMic forwards a seat's microphone while its seat is heard.
func (t *table) readMic(pt *participant, tr *webrtc.TrackRemote) {
	seat := pt.seat
	for {
		pkt, _, err := tr.ReadRTP()
		if err != nil {
			return
		}
		n := t.in[seat].Add(1)
		t.mu.RLock()
		if t.heard.Has(seat) && t.mics[seat] == pt {
			now := time.Now()
			for _, l := range t.parts {
				if o := l.outs[seat]; o != nil {
					o.forward(pkt, now, n)
				}
			}
		}
		t.mu.RUnlock()
	}
}

// leave ends p's audio; the last to leave ends the table.
func (t *table) leave(p *server.VoicePeer) {
	t.mu.Lock()
	pt := t.parts[p]
	delete(t.parts, p)
	if pt != nil && t.mics[pt.seat] == pt {
		t.mics[pt.seat] = nil
		t.endRuns(pt.seat) // its listeners hear it stop, as at a floor's close
	}
	empty := len(t.parts) == 0 && !t.closed
	if empty {
		t.closed = true
	}
	t.mu.Unlock()
	if pt != nil {
		_ = pt.pc.Close()
	}
	if empty {
		t.end()
	}
}

// close ends every connection's audio, telling each why (the table stopped
// or moved: a client joins again, where the table now is).
func (t *table) close(code string) {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return
	}
	t.closed = true
	parts := t.list()
	t.parts = map[*server.VoicePeer]*participant{}
	t.mics = [engine.MaxSeats + 1]*participant{}
	t.mu.Unlock()
	told := t.told.Swap(true)
	frame := wire.VoiceMessage{Action: "closed", Code: code}.Frame()
	for _, p := range parts {
		if !told {
			p.peer.Send(frame)
		}
		_ = p.pc.Close()
	}
	t.end()
}

// tellClosed queues closed to every connection once (on the room's
// goroutine: Send never blocks).
func (t *table) tellClosed(code string) {
	if t.told.Swap(true) {
		return
	}
	t.mu.RLock()
	parts := t.list()
	t.mu.RUnlock()
	frame := wire.VoiceMessage{Action: "closed", Code: code}.Frame()
	for _, p := range parts {
		p.peer.Send(frame)
	}
}

// closedCode is the code of the closed frame at a room's last state:
// table_moved when the table passed to another node, else stopped.
func closedCode(st room.StepState) string {
	if st.Moved {
		return string(room.CodeMoved)
	}
	return "stopped"
}

// end stops watching the room and forgets the table.
func (t *table) end() {
	t.h.drop(t)
	t.stopLoop()
	if t.cancel != nil {
		go t.cancel() // not on the room's goroutine, which may be calling us
	}
}
