package voice

// This file is one listener's track of one seat: the packets of that
// seat's microphone as the listener receives them, rewritten so that each
// run of packets (a floor) continues the track's numbering and clock.

import (
	"sync"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// opusSilence is one 20 ms Opus frame of silence (CELT, full band, TOC
// 0xF8): a run ends with a few of them so that the browser's decoder
// settles on silence instead of fading the last sound out.
var opusSilence = []byte{0xf8, 0xff, 0xfe}

// opusRate is Opus's RTP clock (Hz); frame20ms one 20 ms frame of it.
const (
	opusRate  = 48000
	frame20ms = opusRate / 50
)

// A new run's clock after a long pause. A browser's jitter buffer (NetEq)
// plays a packet that comes after a silence only once its own clock has
// reached the packet's timestamp: the time it has concealed since its
// buffer ran dry must cover the packet's leap. Its buffer ran dry later
// than the last packet went, by what it still held (the silence frames
// and its own delay), so a run stamped by the wall time alone is early by
// that much, and the listener waited that long (its whole buffer, some
// hundreds of ms on a loaded machine) before it heard the new floor. So a
// run after a long pause is stamped back by the silence frames' length
// and playoutAllowance: late, by the buffer's clock, which it plays at
// once. Only after a pause longer than the buffer's arrival history
// (arrivalWindow of RTP time, after which it forgets the run before): a
// run stamped late within it would look like a late stream and raise the
// listener's delay.
const (
	playoutAllowance = 250 * time.Millisecond
	arrivalWindow    = 2 * time.Second
)

// runStart is the timestamp of a new run's first packet on a track whose
// last packet had timestamp last, gap ago, carrying ahead of media beyond
// its sending (the silence frames): by the wall time that passed, at
// least a frame on; after a pause longer than the listener's arrival
// history, set back by ahead and playoutAllowance (see there).
func runStart(last uint32, gap, ahead time.Duration) uint32 {
	if late := gap - ahead - playoutAllowance; late > arrivalWindow {
		return last + frame20ms + uint32(late*opusRate/time.Second)
	}
	return last + max(uint32(gap*opusRate/time.Second), frame20ms)
}

// outTrack is one seat's track in one listener's connection.
type outTrack struct {
	track *webrtc.TrackLocalStaticRTP

	mu   sync.Mutex
	sent bool // a packet has gone out on it
	live bool // a run is under way: packets follow the source's numbering
	// src is the run's source stream (its SSRC): a seat that reconnects
	// sends a new stream, which starts a new run.
	src uint32
	// seqOff and tsOff turn the source's numbers into the track's for the
	// run; last* are the track's last packet's and when it went.
	seqOff  uint16
	tsOff   uint32
	lastSeq uint16
	lastTS  uint32
	lastAt  time.Time
	// ahead is how much media the track's last packets carried beyond
	// lastAt (the silence frames, sent at once).
	ahead time.Duration
	// opened and closed are when the newest run's first packet went and
	// when its silence did, openedIn which of the seat's packets read its
	// first was (the hops a latency is made of: Stats).
	opened, closed time.Time
	openedIn       int64
	// counts: packets and bytes (payload) forwarded, silence frames sent.
	packets, bytes, silence int64
}

// forward sends one packet of the seat's microphone to the listener:
// renumbered for the run, its header extensions stripped. n is its number
// among the seat's packets read.
func (o *outTrack) forward(p *rtp.Packet, now time.Time, n int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	marker := false
	if !o.live || p.SSRC != o.src {
		// A new run: it continues the track's numbering, and its clock by
		// the time that passed, as if the stream had never stopped.
		seq, ts := p.SequenceNumber, p.Timestamp
		if o.sent {
			seq, ts = o.lastSeq+1, runStart(o.lastTS, now.Sub(o.lastAt), o.ahead)
		}
		o.seqOff, o.tsOff = seq-p.SequenceNumber, ts-p.Timestamp
		o.live, marker, o.src, o.opened, o.openedIn = true, true, p.SSRC, now, n
	}
	h := rtp.Header{Version: 2, Marker: marker || p.Marker, PayloadType: p.PayloadType,
		SequenceNumber: p.SequenceNumber + o.seqOff, Timestamp: p.Timestamp + o.tsOff, SSRC: p.SSRC}
	o.write(&rtp.Packet{Header: h, Payload: p.Payload}, now)
	o.ahead = 0
	o.packets++
	o.bytes += int64(len(p.Payload))
}

// end closes the run, if one is under way, with n silence frames.
func (o *outTrack) end(n int, now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.live {
		return
	}
	o.live, o.closed = false, now
	for range n {
		h := rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: o.lastSeq + 1, Timestamp: o.lastTS + frame20ms}
		o.write(&rtp.Packet{Header: h, Payload: opusSilence}, now)
		o.silence++
	}
	o.ahead = time.Duration(n) * 20 * time.Millisecond
}

// write sends a packet and keeps the track's last numbers (a packet late
// within the run does not move them back).
func (o *outTrack) write(p *rtp.Packet, now time.Time) {
	if !o.sent || int16(p.SequenceNumber-o.lastSeq) > 0 {
		o.lastSeq, o.lastTS = p.SequenceNumber, p.Timestamp
	}
	o.sent, o.lastAt = true, now
	_ = o.track.WriteRTP(p) // a listener gone or not yet connected loses it
}

// counts returns the track's counts and its newest run's times.
func (o *outTrack) counts() (packets, bytes, silence int64, opened, closed time.Time, openedIn int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.packets, o.bytes, o.silence, o.opened, o.closed, o.openedIn
}
