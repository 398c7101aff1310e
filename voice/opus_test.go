package voice_test

import (
	"strings"
	"testing"
)

// TestOpus_TheUnitAsksForInBandFECAndDTX pins the codec the unit offers:
// every audio m-line carries Opus only (payload type 111, 48 kHz, two
// channels), and its fmtp asks for in-band FEC and DTX. On the recvonly
// line, the microphone's, that fmtp is what a browser's encoder obeys (the
// parameters of an m-line are its receiver's wishes): a phone's microphone
// then sends FEC (a lost packet is rebuilt from the next) and sends almost
// nothing while its speaker is silent. The client's answer keeps Opus on
// every line.
func TestOpus_TheUnitAsksForInBandFECAndDTX(t *testing.T) {
	const n = 5
	r := newRig(t, true)
	id, _, tokens := r.create(t, n, "seats")
	p := r.dial(t, id, tokens[1], 1)
	var answer string
	p.onAnswer = func(sdp string) { p.mu.Lock(); answer = sdp; p.mu.Unlock() }
	if a := p.answer(p.joinVoice(true)); a != "" {
		t.Fatalf("the join refused: %s", a)
	}
	p.connected()
	p.mu.Lock()
	offer, ans := p.offers[0].SDP, answer
	p.mu.Unlock()

	lines := mediaSections(offer)
	if len(lines) != n {
		t.Fatalf("the offer has %d m-lines, want %d (4 seats' tracks and the microphone's)", len(lines), n)
	}
	recv := 0
	for i, m := range lines {
		if !strings.HasPrefix(m, "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\n") {
			t.Errorf("m-line %d offers more than Opus: %q", i, m[:strings.Index(m, "\r\n")])
		}
		for _, want := range []string{"a=rtpmap:111 opus/48000/2\r\n", "a=fmtp:111 ", "useinbandfec=1", "usedtx=1"} {
			if !strings.Contains(m, want) {
				t.Errorf("m-line %d lacks %q", i, want)
			}
		}
		if strings.Contains(m, "a=recvonly") {
			recv++
		}
	}
	if recv != 1 {
		t.Errorf("%d recvonly m-lines, want the microphone's one", recv)
	}
	for i, m := range mediaSections(ans) {
		if !strings.Contains(m, "a=rtpmap:111 opus/48000/2\r\n") {
			t.Errorf("the answer's m-line %d dropped Opus", i)
		}
	}
}

// mediaSections splits an SDP into its media sections.
func mediaSections(sdp string) []string {
	parts := strings.Split(sdp, "\r\nm=")
	out := []string{}
	for _, p := range parts[1:] {
		out = append(out, "m="+p+"\r\n")
	}
	return out
}
