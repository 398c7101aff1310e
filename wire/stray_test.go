package wire

import "testing"

// TestParseClientMessage_AStrayFieldIsMalformed (issue 25, item 12): a
// field that a frame's type, or a command's verb, does not take is refused
// like a key of no field at all, by the plain reader and the strict one
// alike; the fields a frame takes still pass.
func TestParseClientMessage_AStrayFieldIsMalformed(t *testing.T) {
	for _, c := range []struct {
		frame string
		ok    bool
	}{
		{`{"v":1,"type":"command","id":1,"verb":"claim","role":"detective"}`, true},
		{`{"v":1,"type":"command","id":1,"verb":"claim","role":"detective","target":3}`, false},
		{`{"v":1,"type":"command","id":1,"verb":"claim","role":"detective","result":"red"}`, false},
		{`{"v":1,"type":"command","id":1,"verb":"claim","role":"detective","text":"x"}`, false},
		{`{"v":1,"type":"command","id":1,"verb":"claim","role":"detective","channel":"town"}`, false},
		{`{"v":1,"type":"command","id":1,"verb":"claim","role":"detective","action":"kick"}`, false},
		{`{"v":1,"type":"command","id":1,"verb":"report","target":2,"result":"red"}`, true},
		{`{"v":1,"type":"command","id":1,"verb":"vote","target":2,"step":4}`, true},
		{`{"v":1,"type":"command","id":1,"verb":"vote","target":2,"role":"don"}`, false},
		{`{"v":1,"type":"command","id":1,"verb":"pass","target":2}`, false},
		{`{"v":1,"type":"command","id":1,"verb":"dance","target":2}`, true}, // refused by the room as unknown_verb
		{`{"v":1,"type":"chat","id":1,"channel":"town","text":"hi"}`, true},
		{`{"v":1,"type":"chat","id":1,"channel":"town","text":"hi","verb":"vote"}`, false},
		{`{"v":1,"type":"host","id":1,"action":"kick","target":2}`, true},
		{`{"v":1,"type":"host","id":1,"action":"kick","target":2,"text":"bye"}`, false},
		{`{"v":1,"type":"ping","id":1}`, true},
		{`{"v":1,"type":"ping","id":1,"target":1}`, false},
		{`{"v":1,"type":"history","id":1,"before":9}`, true},
		{`{"v":1,"type":"history","id":1,"before":9,"text":"x"}`, false},
	} {
		_, err := ParseClientMessage([]byte(c.frame))
		if (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok %v", c.frame, err, c.ok)
		}
		if _, plain, perr := ParsePlainClientMessage([]byte(c.frame)); plain && (perr == nil) != c.ok {
			t.Errorf("%s (plain): %v, want ok %v", c.frame, perr, c.ok)
		}
	}
}
