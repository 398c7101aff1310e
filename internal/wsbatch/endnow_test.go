//go:build unix

package wsbatch

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"
)

// tcpPair is a loopback TCP connection's two ends, with small buffers.
func tcpPair(t *testing.T) (w, r *net.TCPConn) {
	t.Helper()
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	r0, err := net.DialTCP("tcp", nil, ln.Addr().(*net.TCPAddr))
	if err != nil {
		t.Fatal(err)
	}
	w0, err := ln.AcceptTCP()
	if err != nil {
		t.Fatal(err)
	}
	_ = w0.SetWriteBuffer(4096)
	_ = r0.SetReadBuffer(4096)
	t.Cleanup(func() { w0.Close(); r0.Close() })
	return w0, r0
}

// TestWriter_EndNowLeavesWhatTheSocketDoesNotTakeFirstInLine pins EndNow:
// it returns without waiting for a socket that takes only part of the
// batch (done false, the Writer not idle), and what it left goes out
// before any later write, whole: the peer reads the batch and then the
// later write, byte for byte.
func TestWriter_EndNowLeavesWhatTheSocketDoesNotTakeFirstInLine(t *testing.T) {
	a, b := tcpPair(t)
	w := NewWriter(a, 10*time.Second)
	if !w.CanEndNow() {
		t.Fatal("a TCP connection's Writer offers no EndNow")
	}
	// The socket filled first, by a write that gives up after a moment.
	_ = a.SetWriteDeadline(time.Now().Add(200 * time.Millisecond))
	fill, _ := a.Write(make([]byte, 64<<20))
	_ = a.SetWriteDeadline(time.Time{})
	batch := bytes.Repeat([]byte("0123456789abcdef"), 3<<10) // 48 KiB, under MaxBatchBytes
	w.Begin()
	if _, err := w.Write(batch); err != nil {
		t.Fatal(err)
	}
	done, err := w.EndNow() // nobody reads b yet
	if err != nil || done {
		t.Fatalf("EndNow on a socket that cannot take 48 KiB: done %v, err %v; want part left", done, err)
	}
	if idle(w) {
		t.Fatal("the Writer is idle with part of a batch left")
	}
	later := []byte("the write after it")
	wrote := make(chan error, 1)
	go func() { _, err := w.Write(later); wrote <- err }() // waits for the rest first
	want := append(make([]byte, fill), batch...)
	want = append(want, later...)
	_ = b.SetReadDeadline(time.Now().Add(30 * time.Second)) // a bound on the wait, not a timing
	got := make([]byte, len(want))
	if _, err := io.ReadFull(b, got); err != nil {
		t.Fatal(err)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the peer did not read the batch whole and then the later write")
	}
	if !idle(w) {
		t.Fatal("the Writer is not idle once everything is written")
	}
}

// TestWriter_TryBeginOpensABatchOnlyWhenIdleAndNeverWaits pins TryBegin:
// on an idle Writer it opens a batch (a write then goes into it, not to
// the socket); with a batch open, or what an EndNow left, or another
// goroutine's write holding the Writer, it returns false at once.
func TestWriter_TryBeginOpensABatchOnlyWhenIdleAndNeverWaits(t *testing.T) {
	a, b := tcpPair(t)
	w := NewWriter(a, 10*time.Second)
	if !w.TryBegin() {
		t.Fatal("an idle Writer refused a batch")
	}
	if w.TryBegin() {
		t.Fatal("a second batch was opened over the first")
	}
	if _, err := w.Write([]byte("held")); err != nil {
		t.Fatal(err)
	}
	if done, err := w.EndNow(); err != nil || !done {
		t.Fatalf("EndNow of 4 bytes: done %v, err %v", done, err)
	}
	got := make([]byte, 4)
	_ = b.SetReadDeadline(time.Now().Add(30 * time.Second)) // a bound on the wait, not a timing
	if _, err := io.ReadFull(b, got); err != nil || string(got) != "held" {
		t.Fatalf("read %q, %v", got, err)
	}
	// Another goroutine's write holds the Writer (its lock), as one
	// waiting for a full socket does: TryBegin does not wait for it.
	w.mu.Lock()
	if w.TryBegin() {
		t.Fatal("TryBegin opened a batch while a write held the Writer")
	}
	w.mu.Unlock()
	// What an EndNow left: not idle until it is written.
	_ = a.SetWriteDeadline(time.Now().Add(200 * time.Millisecond))
	_, _ = a.Write(make([]byte, 64<<20))
	_ = a.SetWriteDeadline(time.Time{})
	if !w.TryBegin() {
		t.Fatal("an idle Writer refused a batch")
	}
	_, _ = w.Write(bytes.Repeat([]byte("x"), 48<<10))
	if done, err := w.EndNow(); err != nil || done {
		t.Fatalf("EndNow on a full socket: done %v, err %v; want part left", done, err)
	}
	if w.TryBegin() {
		t.Fatal("TryBegin opened a batch over what an EndNow left")
	}
	go func() { _, _ = io.Copy(io.Discard, b) }()
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if !w.TryBegin() {
		t.Fatal("the Writer refused a batch once everything was written")
	}
}

// idle reports whether w has nothing being written or waiting to be: no
// batch open, nothing an EndNow left, no write holding it.
func idle(w *Writer) bool {
	if !w.mu.TryLock() {
		return false
	}
	defer w.mu.Unlock()
	return !w.on && w.buf == nil
}

// TestWriter_TryBeginBatchIsNeverSentBeforeItsEnd pins that a batch
// TryBegin opened is not sent at MaxBatchBytes, as a Begin's is: a write
// into it never reaches the connection (which here fails any write at
// once, its deadline a nanosecond away), however large the batch grows.
// EndNow then fails on the expired deadline, as it does for any batch.
func TestWriter_TryBeginBatchIsNeverSentBeforeItsEnd(t *testing.T) {
	a, _ := tcpPair(t)
	w := NewWriter(a, time.Nanosecond)
	if !w.TryBegin() {
		t.Fatal("TryBegin on an idle Writer opened no batch")
	}
	chunk := bytes.Repeat([]byte("x"), 4<<10)
	for i := 0; i < 3*MaxBatchBytes/len(chunk); i++ {
		if _, err := w.Write(chunk); err != nil {
			t.Fatalf("write %d into a TryBegin batch reached the connection: %v", i, err)
		}
	}
	if _, err := w.EndNow(); err == nil {
		t.Fatal("EndNow past the write deadline: no error")
	}
	// A Begin's batch is sent at MaxBatchBytes (and so fails here).
	w2 := NewWriter(a, time.Nanosecond)
	w2.Begin()
	var err error
	for i := 0; i < 2*MaxBatchBytes/len(chunk) && err == nil; i++ {
		_, err = w2.Write(chunk)
	}
	if err == nil {
		t.Fatal("a Begin batch of twice MaxBatchBytes was never sent before its end")
	}
}
