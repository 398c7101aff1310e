package cluster

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// clientSession is a relayed session between linked nodes a and b whose
// relaying side (on a) holds a real client's WebSocket, accepted by
// acceptClient on a real HTTP server on loopback, and whose owner's side
// (on b) is a memConn; it returns the client's end (coder/websocket's, as
// a browser's library would be) with a reader that drains it, and b's
// memConn.
func clientSession(ctx context.Context, t *testing.T) (*websocket.Conn, *memConn, *Node) {
	t.Helper()
	a, b := linkedNodes(ctx, t, nil)
	sa, err := a.newSession("s1", "b", "a")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.newSession("s1", "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := acceptClient(w, r)
		if c == nil {
			sa.abort(websocket.StatusNormalClosure, "", true)
			return
		}
		sa.run(*c)
	}))
	mb := newMemConn(false)
	wg.Add(1)
	go func() { defer wg.Done(); sb.run(mb) }()
	t.Cleanup(func() {
		sa.fail(websocket.StatusNormalClosure, "")
		sb.fail(websocket.StatusNormalClosure, "")
		srv.CloseClientConnections()
		srv.Close()
		wg.Wait()
	})
	cc, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.CloseNow() })
	return cc, mb, a
}

// TestRelayedClient_ItsMessagesPingsAndCloseReachTheOwner pins the
// relaying node's reading of a client's WebSocket (clientConn, the
// server's own WebSocket): text and binary messages reach the owner's side
// whole and in order, a ping is answered by the relaying node, and the
// client's close reaches the owner's side with its code and reason, the
// session then ending on the relaying node.
func TestRelayedClient_ItsMessagesPingsAndCloseReachTheOwner(t *testing.T) {
	ctx := within(t, 30*time.Second)
	cc, mb, a := clientSession(ctx, t)
	// coder/websocket's Ping needs a reader to hear the pong; the
	// client's reader ends with the close.
	read := make(chan error, 1)
	go func() {
		for {
			if _, _, err := cc.Read(ctx); err != nil {
				read <- err
				return
			}
		}
	}()
	long := strings.Repeat("ს", 3000) // 9,000 bytes: past the pooled read buffer
	sent := []string{"one", "\x00\x01\x02", long, "four"}
	for i, m := range sent {
		typ := websocket.MessageText
		if i == 1 {
			typ = websocket.MessageBinary
		}
		if err := cc.Write(ctx, typ, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := cc.Ping(pctx); err != nil {
		t.Fatalf("the relaying node did not answer the client's ping: %v", err)
	}
	eventually(ctx, t, "the client's messages reach the owner's side", func() bool { return len(mb.writtenFrames()) == len(sent) })
	for i, got := range mb.writtenFrames() {
		if got != sent[i] {
			t.Fatalf("message %d reached the owner as %.20q (%d bytes), want %.20q (%d bytes)", i, got, len(got), sent[i], len(sent[i]))
		}
	}
	if err := cc.Close(4000, "bye"); err != nil {
		t.Fatalf("the client's close was not answered: %v", err)
	}
	eventually(ctx, t, "the owner's side hears the client's close", func() bool { _, _, ok := mb.closeOf(); return ok })
	if code, reason, _ := mb.closeOf(); code != 4000 || reason != "bye" {
		t.Fatalf("the owner's side closed with %d %q, want the client's 4000 \"bye\"", code, reason)
	}
	eventually(ctx, t, "the session ends on the relaying node", func() bool { return a.sessionCount() == 0 })
}

// TestRelayedClient_AMessagePastTheReadLimitEndsTheSession pins the
// relaying node's read limit: a message past it is refused with 1009 at
// its header, nothing of it reaches the owner's side, and the owner's side
// ends as for a client that dropped.
func TestRelayedClient_AMessagePastTheReadLimitEndsTheSession(t *testing.T) {
	ctx := within(t, 30*time.Second)
	cc, mb, a := clientSession(ctx, t)
	if err := cc.Write(ctx, websocket.MessageText, []byte("before")); err != nil {
		t.Fatal(err)
	}
	eventually(ctx, t, "the first message reaches the owner's side", func() bool { return len(mb.writtenFrames()) == 1 })
	// The client's write may fail once the relay has closed: what matters
	// is the close it reads.
	_ = cc.Write(ctx, websocket.MessageText, make([]byte, clientReadLimit+1))
	_, _, err := cc.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Fatalf("the client read %v, want the relay's 1009", err)
	}
	eventually(ctx, t, "the owner's side ends", func() bool { _, _, ok := mb.closeOf(); return ok })
	if got := mb.writtenFrames(); len(got) != 1 {
		t.Fatalf("the owner's side got %d messages, want only the first", len(got))
	}
	eventually(ctx, t, "the session ends on the relaying node", func() bool { return a.sessionCount() == 0 })
}
