package wsconn

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/internal/wsbatch"
	"mafia/internal/wstest"
)

// clientFrame is a client's frame of payload, its length the payload's.
func clientFrame(b0 byte, payload []byte, masked bool) []byte {
	return wstest.ClientFrame(b0, uint64(len(payload)), payload, masked)
}

// serverFrame reads one frame the server wrote (unmasked): its first
// byte and its payload.
func serverFrame(t *testing.T, br *bufio.Reader) (byte, []byte) {
	t.Helper()
	b0, p, err := wstest.ReadFrame(br)
	if err != nil {
		t.Fatalf("reading the server's frame: %v", err)
	}
	return b0, p
}

// recorder is a Handler that keeps what it is handed.
type recorder struct {
	mu    sync.Mutex
	msgs  []string
	texts []bool
	pings int
	pongs int
	stop  bool // Message returns false
}

func (r *recorder) Message(text bool, p []byte) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs, r.texts = append(r.msgs, string(p)), append(r.texts, text)
	return !r.stop
}
func (r *recorder) Ping() bool { r.pings++; return true }
func (r *recorder) Pong()      { r.pongs++ }

// errEmpty is chunked's read of nothing more for now, as a poller's
// connection's ErrWouldBlock.
var errEmpty = errors.New("empty for now")

// chunked is a connection whose reads take at most k bytes of what the
// client sent, and say errEmpty between each two: every frame comes in
// pieces over many Reads, as a poller's bursts read it.
type chunked struct {
	net.Conn
	k     int
	empty bool
}

func (c *chunked) Read(p []byte) (int, error) {
	if c.empty = !c.empty; c.empty {
		return 0, errEmpty
	}
	return c.Conn.Read(p[:min(len(p), c.k)])
}

// loopback is a TCP connection on loopback: the server's end and the
// client's, with a reader of what the server writes.
func loopback(t *testing.T) (server net.Conn, client net.Conn, br *bufio.Reader) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err = ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	_ = client.SetDeadline(time.Now().Add(30 * time.Second)) // a deadlock guard
	t.Cleanup(func() { server.Close(); client.Close() })
	return server, client, bufio.NewReader(client)
}

// TestRead_AMessageCutAnywhereArrivesWholeOnce: messages of every length
// encoding, whole or in fragments with a ping between them, read in
// pieces of 1 to 9 bytes with an empty socket between each two reads,
// are each handed on once, whole, in order; the ping is answered between
// them with its payload; nothing of a frame received in part is lost
// between reads, and no buffer is kept once the bytes end at a frame's
// end.
func TestRead_AMessageCutAnywhereArrivesWholeOnce(t *testing.T) {
	long := strings.Repeat("abcdefghij", 700) // 7,000: past the pooled buffer
	var stream []byte
	stream = append(stream, clientFrame(0x81, []byte("a"), true)...)
	stream = append(stream, clientFrame(0x81, []byte(strings.Repeat("m", 126)), true)...)
	stream = append(stream, clientFrame(0x01, []byte("frag-"), true)...)
	stream = append(stream, clientFrame(0x89, []byte("ping!"), true)...)
	stream = append(stream, clientFrame(0x00, []byte("ment-"), true)...)
	stream = append(stream, clientFrame(0x80, []byte("ed"), true)...)
	stream = append(stream, clientFrame(0x82, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, true)...)
	stream = append(stream, clientFrame(0x81, []byte(long), true)...)
	stream = append(stream, clientFrame(0x81, nil, true)...)
	want := []string{"a", strings.Repeat("m", 126), "frag-ment-ed", "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a", long, ""}
	for k := 1; k <= 9; k++ {
		t.Run(fmt.Sprintf("pieces of %d", k), func(t *testing.T) {
			server, client, br := loopback(t)
			if k == 9 {
				k = 4 << 10 // and in reads as large as the buffer
			}
			c := New(&chunked{Conn: server, k: k}, wsbatch.NewWriter(server, time.Minute), 8000, nil)
			go client.Write(stream)
			r := &recorder{}
			for reads := 0; len(r.msgs) < len(want); reads++ {
				if err := c.Read(r); !errors.Is(err, errEmpty) {
					t.Fatalf("read: %v", err)
				}
				if reads > 100000 {
					t.Fatalf("after %d reads, %d messages", reads, len(r.msgs))
				}
			}
			for i := range want {
				if r.msgs[i] != want[i] {
					t.Fatalf("message %d: %q, want %q", i, trim(r.msgs[i]), trim(want[i]))
				}
			}
			if r.texts[3] || !r.texts[2] {
				t.Fatalf("text or binary: %v", r.texts)
			}
			if c.part != nil {
				t.Fatalf("%d bytes kept after the last frame", len(c.part))
			}
			if b0, p := serverFrame(t, br); b0 != 0x8A || string(p) != "ping!" {
				t.Fatalf("the pong: %#x %q", b0, p)
			}
		})
	}
}

func trim(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// TestRead_BadFramesCloseWith1002AndChangeNothing: each kind of frame a
// client may not send ends the connection with a 1002 close and hands
// nothing on.
func TestRead_BadFramesCloseWith1002AndChangeNothing(t *testing.T) {
	for _, tc := range []struct {
		rule  string
		frame []byte
	}{
		{"a client's frame is masked", clientFrame(0x81, []byte("hi"), false)},
		{"reserved bits are clear", clientFrame(0xC1, []byte("hi"), true)},
		{"an unknown data opcode", clientFrame(0x83, []byte("hi"), true)},
		{"an unknown control opcode", clientFrame(0x8B, nil, true)},
		{"a control frame is not fragmented", clientFrame(0x09, nil, true)},
		{"a control frame is at most 125 bytes", clientFrame(0x89, make([]byte, 126), true)},
		{"a continuation follows a start", clientFrame(0x80, []byte("x"), true)},
		{"a new message waits for the last's end", append(clientFrame(0x01, []byte("x"), true), clientFrame(0x81, []byte("y"), true)...)},
		{"a close is not one byte", clientFrame(0x88, []byte{3}, true)},
		{"a close's code is one a client may send", clientFrame(0x88, []byte{0x03, 0xED}, true)}, // 1005
	} {
		t.Run(tc.rule, func(t *testing.T) {
			server, client, br := loopback(t)
			c := New(server, wsbatch.NewWriter(server, time.Minute), 1000, nil)
			go client.Write(tc.frame)
			r := &recorder{}
			err := c.Read(r)
			if err == nil || errors.Is(err, ErrClosed) || errors.Is(err, ErrEnded) {
				t.Fatalf("read: %v, want a protocol error", err)
			}
			if len(r.msgs) != 0 {
				t.Fatalf("handed on: %q", r.msgs)
			}
			b0, p := serverFrame(t, br)
			if b0 != 0x88 || len(p) < 2 || binary.BigEndian.Uint16(p) != StatusProtocolError {
				t.Fatalf("the close: %#x %q", b0, p)
			}
		})
	}
}

// TestRead_AMessageTooBigIsRefusedAtItsHeader: a message past the limit
// (whole, or fragments that add up past it) gets a 1009 close as soon as
// its header is read, is passed by unread and never handed on; the
// client's answer to the close ends the handshake.
func TestRead_AMessageTooBigIsRefusedAtItsHeader(t *testing.T) {
	for _, tc := range []struct {
		rule   string
		frames [][]byte
	}{
		{"one frame past the limit", [][]byte{clientFrame(0x81, make([]byte, 101), true)}},
		{"fragments past it together", [][]byte{clientFrame(0x01, make([]byte, 60), true), clientFrame(0x80, make([]byte, 41), true)}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			server, client, br := loopback(t)
			c := New(server, wsbatch.NewWriter(server, time.Minute), 100, nil)
			r := &recorder{}
			for _, f := range tc.frames {
				client.Write(f)
			}
			client.Write(clientFrame(0x81, []byte("after"), true))
			read := make(chan error, 1)
			go func() { read <- c.Read(r) }()
			b0, p := serverFrame(t, br) // written while Read reads on
			if b0 != 0x88 || binary.BigEndian.Uint16(p) != StatusTooBig || string(p[2:]) != "read limited at 101 bytes" {
				t.Fatalf("the close: %#x %q", b0, p)
			}
			client.Write(clientFrame(0x88, []byte{0x03, 0xF1}, true))
			if err := <-read; !errors.Is(err, ErrClosed) {
				t.Fatalf("read: %v, want ErrClosed", err)
			}
			if len(r.msgs) != 0 {
				t.Fatalf("handed on after the close: %q", r.msgs)
			}
		})
	}
}

// TestClose_TheServersCloseWaitsForTheClientsAnswer: after the server's
// close nothing is handed on or answered, and the client's close ends
// Read; a client's close is answered with its own code, and Read gives
// its code and reason (CloseError).
func TestClose_TheServersCloseWaitsForTheClientsAnswer(t *testing.T) {
	server, client, br := loopback(t)
	c := New(server, wsbatch.NewWriter(server, time.Minute), 100, nil)
	if err := c.Close(1008, "flood"); err != nil {
		t.Fatal(err)
	}
	if b0, p := serverFrame(t, br); b0 != 0x88 || binary.BigEndian.Uint16(p) != 1008 || string(p[2:]) != "flood" {
		t.Fatalf("the close: %#x %q", b0, p)
	}
	if err := c.w.Frame(wsbatch.OpText, []byte("late")); err == nil {
		t.Fatal("a frame written after the close")
	}
	client.Write(clientFrame(0x81, []byte("late"), true))
	client.Write(clientFrame(0x89, nil, true))
	client.Write(clientFrame(0x88, []byte{0x03, 0xF0}, true))
	r := &recorder{}
	if err := c.Read(r); !errors.Is(err, ErrClosed) {
		t.Fatalf("read: %v", err)
	}
	if len(r.msgs) != 0 || r.pings != 0 {
		t.Fatalf("handed on after the close: %q, %d pings", r.msgs, r.pings)
	}
	c.CloseNow()
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("after the close: %v, want EOF (no pong, nothing)", err)
	}

	server, client, br = loopback(t)
	c = New(server, wsbatch.NewWriter(server, time.Minute), 100, nil)
	client.Write(clientFrame(0x88, append([]byte{0x03, 0xE9}, "bye"...), true))
	err := c.Read(r)
	var ce *CloseError
	if !errors.Is(err, ErrClosed) || !errors.As(err, &ce) || ce.Code != 1001 || ce.Reason != "bye" {
		t.Fatalf("read: %v (%+v), want ErrClosed with the client's 1001 \"bye\"", err, ce)
	}
	if b0, p := serverFrame(t, br); b0 != 0x88 || !bytes.Equal(p, []byte{0x03, 0xE9}) {
		t.Fatalf("the answer: %#x %q, want 1001", b0, p)
	}
}

// TestAccept_AClientLibrarySpeaksToIt: coder/websocket's client, through
// a real HTTP server, is accepted; its messages (whole and written in
// pieces) come back as the server echoes them, its ping is answered, and
// the server's close reaches it with its code and reason.
func TestAccept_AClientLibrarySpeaksToIt(t *testing.T) {
	done := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hw := &wsbatch.ResponseWriter{ResponseWriter: w, Timeout: time.Minute}
		c, err := Accept(hw, r, 1<<20)
		if err != nil {
			done <- err
			return
		}
		e := &echo{c: c}
		err = c.Read(e)
		c.CloseNow()
		done <- err
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 20)
	go func() { _ = ws.Ping(ctx) }() // answered by the server while it reads
	for _, m := range []string{"hello", strings.Repeat("x", 70000), ""} {
		if err := ws.Write(ctx, websocket.MessageText, []byte(m)); err != nil {
			t.Fatal(err)
		}
		if _, got, err := ws.Read(ctx); err != nil || string(got) != m {
			t.Fatalf("echo of %d bytes: %d bytes, %v", len(m), len(got), err)
		}
	}
	wr, err := ws.Writer(ctx, websocket.MessageBinary)
	if err != nil {
		t.Fatal(err)
	}
	wr.Write([]byte("in "))
	wr.Write([]byte("pieces"))
	wr.Close()
	if typ, got, err := ws.Read(ctx); err != nil || string(got) != "in pieces" || typ != websocket.MessageBinary {
		t.Fatalf("echo of the pieces: %v %q %v", typ, got, err)
	}
	if err := ws.Write(ctx, websocket.MessageText, []byte("close")); err != nil {
		t.Fatal(err)
	}
	_, _, err = ws.Read(ctx)
	if websocket.CloseStatus(err) != 4000 {
		t.Fatalf("the server's close: %v", err)
	}
	var ce websocket.CloseError
	if errors.As(err, &ce) && ce.Reason != "asked" {
		t.Fatalf("reason %q", ce.Reason)
	}
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Fatalf("the server's read: %v, want ErrClosed (the client answered)", err)
	}
}

// echo writes each message back, and closes with 4000 "asked" at
// "close".
type echo struct{ c *Conn }

func (e *echo) Message(text bool, p []byte) bool {
	if string(p) == "close" {
		_ = e.c.Close(4000, "asked")
		return false
	}
	op := wsbatch.OpBinary
	if text {
		op = wsbatch.OpText
	}
	_ = e.c.Writer().Frame(op, p)
	return true
}
func (e *echo) Ping() bool { return true }
func (e *echo) Pong()      {}

// TestAccept_ARequestThatIsNotAHandshakeIsRefused: each part a handshake
// needs, missing, gets the status that says so, and no upgrade; Handshake
// refuses the same requests, and only those.
func TestAccept_ARequestThatIsNotAHandshakeIsRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := Handshake(http.Header{}, r); err != nil {
			w.Header().Set("X-Handshake", err.Error())
		}
		_, _ = Accept(&wsbatch.ResponseWriter{ResponseWriter: w, Timeout: time.Minute}, r, 100)
	}))
	defer srv.Close()
	good := map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
		"Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
	for _, tc := range []struct {
		rule    string
		method  string
		without string
		set     [2]string
		status  int
	}{
		{"a handshake asks for the upgrade", "GET", "Upgrade", [2]string{}, 426},
		{"a handshake keeps the connection for it", "GET", "Connection", [2]string{}, 426},
		{"a handshake is a GET", "POST", "", [2]string{}, 405},
		{"version 13", "GET", "", [2]string{"Sec-WebSocket-Version", "8"}, 400},
		{"a key", "GET", "Sec-WebSocket-Key", [2]string{}, 400},
		{"a key of 16 bytes", "GET", "", [2]string{"Sec-WebSocket-Key", "c2hvcnQ="}, 400},
		{"the RFC's example is accepted", "GET", "", [2]string{}, 101},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			req, _ := http.NewRequest(tc.method, srv.URL, nil)
			for k, v := range good {
				if k != tc.without {
					req.Header.Set(k, v)
				}
			}
			if tc.set[0] != "" {
				req.Header.Set(tc.set[0], tc.set[1])
			}
			req.Write(conn)
			resp, err := http.ReadResponse(bufio.NewReader(conn), req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if refused := resp.Header.Get("X-Handshake"); (refused != "") != (tc.status != 101) {
				t.Fatalf("Handshake said %q to a request Accept answered %d", refused, tc.status)
			}
			if tc.status == 101 && resp.Header.Get("Sec-WebSocket-Accept") != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" {
				t.Fatalf("Sec-WebSocket-Accept %q (RFC 6455's example answer)", resp.Header.Get("Sec-WebSocket-Accept"))
			}
			if tc.status == 101 && resp.Header.Get("Sec-WebSocket-Extensions") != "" {
				t.Fatal("an extension offered")
			}
		})
	}
}

// TestFrame_PongsNeverSplitAFrame pins the Writer's frames beside the
// pongs wsconn writes to the same connection: a server writes 1,500
// frames of 1 to 3,000 bytes with wsbatch's Frame (in batches TryBegin
// opened and EndNow sent, in Begin/End batches and straight through) while
// the client pings it without pause from four goroutines, each ping
// answered by the reader's pong (each of the server's writes waits for a
// ping heard, so the pongs go out among them). The client
// (coder/websocket, which fails on any malformed frame) reads every frame
// whole and in order, and every ping is answered.
func TestFrame_PongsNeverSplitAFrame(t *testing.T) {
	const frames = 1500
	payload := func(i int) []byte {
		n := 1 + (i*733)%3000
		return []byte(fmt.Sprintf("%06d:%s", i, strings.Repeat("ა", n/3+1)))
	}
	served := make(chan error, 1)
	pinged := make(chan struct{}, 64)
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		hw := &wsbatch.ResponseWriter{ResponseWriter: rw, Timeout: 30 * time.Second}
		c, err := Accept(hw, r, 1<<20)
		if err != nil {
			served <- err
			return
		}
		defer c.CloseNow()
		// The server reads, so that it hears the pings and pongs them,
		// until the client goes.
		read := make(chan struct{})
		defer func() { <-read }()
		go func() {
			defer close(read)
			_ = c.Read(pinger{pinged})
		}()
		w := hw.W
		for i, round := 0, 0; i < frames; round++ {
			// Each write waits for a ping heard, so that the library's
			// pong goes out while the frames are written.
			select {
			case <-pinged:
			case <-r.Context().Done():
				served <- r.Context().Err()
				return
			}
			switch round % 3 {
			case 0:
				if !w.TryBegin() {
					continue // a pong is being written: try again
				}
				for k := 0; k < 3 && i < frames; k++ {
					if err := w.Frame(wsbatch.OpText, payload(i)); err != nil {
						served <- err
						return
					}
					i++
				}
				if done, err := w.EndNow(); err != nil {
					served <- err
					return
				} else if !done {
					if err := w.Flush(); err != nil {
						served <- err
						return
					}
				}
			case 1:
				w.Begin()
				err := w.Frame(wsbatch.OpText, payload(i))
				if err2 := w.End(); err == nil {
					err = err2
				}
				if err != nil {
					served <- err
					return
				}
				i++
			default:
				if err := w.Frame(wsbatch.OpText, payload(i)); err != nil {
					served <- err
					return
				}
				i++
			}
		}
		served <- nil
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a bound on the wait, not a timing
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 20)
	got := make(chan error, 1)
	go func() {
		for i := 0; i < frames; i++ {
			_, b, err := c.Read(ctx)
			if err != nil {
				got <- fmt.Errorf("frame %d: %w", i, err)
				return
			}
			if !bytes.Equal(b, payload(i)) {
				got <- fmt.Errorf("frame %d is not the %dth written", i, i)
				return
			}
		}
		got <- nil
		for { // on, so that the last ping's pong is read
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}()
	// Four pingers, so that a pong is being written most of the time.
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		pings  int
		failed error
		stop   = make(chan struct{})
	)
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				err := c.Ping(ctx)
				mu.Lock()
				if err != nil && failed == nil {
					failed = err
				}
				pings++
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	err = <-got
	close(stop)
	if err != nil {
		cancel() // the pingers waiting for a pong that will not come
	}
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if failed != nil {
		t.Fatalf("a ping was not answered: %v", failed)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if pings == 0 {
		t.Fatal("no ping was answered while the frames were read")
	}
	t.Logf("%d frames read whole and in order beside %d pings answered", frames, pings)
}

// pinger is a Handler that answers every ping and says so on pinged.
type pinger struct{ pinged chan struct{} }

func (p pinger) Message(bool, []byte) bool { return true }
func (p pinger) Ping() bool {
	select {
	case p.pinged <- struct{}{}:
	default:
	}
	return true
}
func (p pinger) Pong() {}
