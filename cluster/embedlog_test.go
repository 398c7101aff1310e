package cluster

import (
	"bytes"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a log's buffer written by the embedded server's goroutines
// and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// An embedded NATS server that cannot listen on its route port (another
// process has it) makes Start fail at once with the listen error itself,
// in the error and in the node's log, not after a ten-second wait with a
// message that says nothing of why.
func TestStart_ARouteAddressInUseSaysSoAtOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var logged syncBuffer
	n, err := NewNode(Config{ID: "a", RouteListen: ln.Addr().String(), Secrets: testSecrets,
		Log: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	err = n.Start()
	if err == nil {
		n.Close()
		t.Fatal("a node started on a route port another listener holds")
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for _, want := range []string{"did not start", "router port", port, "address already in use"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Start's error %q does not say %q", err, want)
		}
	}
	if !strings.Contains(logged.String(), "address already in use") {
		t.Errorf("the node's log does not carry the listen error: %q", logged.String())
	}
}
