package bench

import (
	"strings"
	"testing"
)

// TestPeekKind_KnowsPadsAndPaddedFrames: the frame's type is read from its
// start whatever spaces follow it, and a pad is known as one.
func TestPeekKind_KnowsPadsAndPaddedFrames(t *testing.T) {
	pad := strings.Repeat(" ", 200)
	for _, c := range []struct {
		frame string
		want  frameKind
	}{
		{`{"v":1,"type":"pad"}` + pad, kindPad},
		{`{"v":1,"type":"pad"}`, kindPad},
		{` {"type":"pad","v":1}` + pad, kindPad},
		{`{"v":1,"type":"reply","id":3}` + pad, kindReply},
		{`{"v":1,"type":"error","id":3,"code":"x","message":"y"}` + pad, kindError},
		{`{"v":1,"type":"update","seq":1,"events":[],"view":{}}` + pad, kindUpdate},
		{`{"v":1,"type":"chat","channel":"mafia","text":"hi"}` + pad, kindOther},
	} {
		if got := peekKind([]byte(c.frame)); got != c.want {
			t.Errorf("%.60q: kind %d, want %d", c.frame, got, c.want)
		}
	}
}
