package freeport

import (
	"net"
	"strconv"
	"testing"
)

// A chosen port is free (a test can listen on it) and below the kernel's
// ephemeral range, where no listener on port 0 can take it first.
func TestAddr_AFreePortBelowTheEphemeralRange(t *testing.T) {
	lo := ephemeralLow()
	for range 20 {
		a, err := Addr()
		if err != nil {
			t.Fatal(err)
		}
		_, p, err := net.SplitHostPort(a)
		if err != nil {
			t.Fatal(err)
		}
		port, _ := strconv.Atoi(p)
		if lo > floor && (port < floor || port >= lo) {
			t.Fatalf("port %d outside [%d, %d)", port, floor, lo)
		}
		ln, err := net.Listen("tcp", a)
		if err != nil {
			t.Fatalf("the chosen %s is not free: %v", a, err)
		}
		ln.Close()
	}
}

// A port something listens on is never chosen: with every port of a
// range held but one, the chooser finds that one.
func TestPick_NeverAPortInUse(t *testing.T) {
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	base := 0
	for p := floor; p < floor+400 && base == 0; p += 8 {
		held = held[:0]
		ok := true
		for q := p; q < p+8; q++ {
			l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(q)))
			if err != nil {
				ok = false
				break
			}
			held = append(held, l)
		}
		if ok {
			base = p
		} else {
			for _, l := range held {
				l.Close()
			}
		}
	}
	if base == 0 {
		t.Fatal("no eight free ports in a row")
	}
	free := base + 5
	held[5].Close()
	held = append(held[:5], held[6:]...)
	for range 20 {
		a, err := pick(base, base+8)
		if err != nil {
			t.Fatal(err)
		}
		if want := net.JoinHostPort("127.0.0.1", strconv.Itoa(free)); a != want {
			t.Fatalf("chose %s, want the one free port %s", a, want)
		}
	}
}
