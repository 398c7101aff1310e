package server

import (
	"bytes"
	"net"
	"testing"
	"time"
)

// TestBatchWriter_GathersABatchAndPassesOtherWritesThrough checks that
// writes between begin and end reach the peer together, in order, when the
// batch ends, and that writes outside a batch go straight through.
func TestBatchWriter_GathersABatchAndPassesOtherWritesThrough(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	w := &batchWriter{conn: a}
	got := make(chan []byte, 16)
	go func() {
		buf := make([]byte, 1<<16)
		for {
			n, err := b.Read(buf)
			if err != nil {
				close(got)
				return
			}
			got <- bytes.Clone(buf[:n])
		}
	}()
	read := func() []byte {
		select {
		case p := <-got:
			return p
		case <-time.After(5 * time.Second):
			t.Fatal("nothing arrived")
			return nil
		}
	}

	if _, err := w.Write([]byte("straight")); err != nil {
		t.Fatal(err)
	}
	if p := read(); string(p) != "straight" {
		t.Fatalf("outside a batch: %q", p)
	}
	w.begin()
	for _, s := range []string{"one ", "two ", "three"} {
		if _, err := w.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case p := <-got:
		t.Fatalf("%q arrived before the batch ended", p)
	case <-time.After(20 * time.Millisecond):
	}
	if err := w.end(); err != nil {
		t.Fatal(err)
	}
	if p := read(); string(p) != "one two three" {
		t.Fatalf("the batch arrived as %q", p)
	}
	if w.buf != nil {
		t.Error("the batch's buffer was kept after the batch")
	}
}
