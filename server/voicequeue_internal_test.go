package server

import "testing"

// TestAVoiceQueueIsMadeAtTheFirstVoiceMessage: a connection starts with no
// voice queue (most never speak, and 64 slots were 1.5 KiB a player); a
// Send to it finds it full and drops the frame; the queue the first voice
// message makes takes frames, and the writers' queue is that one.
func TestAVoiceQueueIsMadeAtTheFirstVoiceMessage(t *testing.T) {
	s := &Server{}
	wc := s.newPeer("en", nil)
	if wc.voiceFrames() != nil {
		t.Fatal("a new connection has a voice queue")
	}
	p := &VoicePeer{wc: wc}
	if p.Send([]byte("x")) {
		t.Fatal("a frame was queued for a connection with no voice queue")
	}
	q := make(chan []byte, voiceQueue)
	wc.voiceOut.Store(&q)
	if !p.Send([]byte("y")) || len(wc.voiceFrames()) != 1 || string(<-wc.voiceFrames()) != "y" {
		t.Fatal("the voice queue did not take the frame")
	}
}
