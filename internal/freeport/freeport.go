// Package freeport chooses loopback addresses for tests that must name a
// port before the process that listens on it starts (a cluster's NATS
// routes, which every node must know in advance; a server restarted on
// its old address; PostgreSQL stopped and started again on its port).
//
// It chooses below the kernel's ephemeral range, from which every
// listener on port 0 and every outgoing connection of every process on
// the machine takes its port: a port chosen there and released, as
// listening on 127.0.0.1:0 and closing does, can be taken by anyone in
// the moments before its process listens (a test on a busy machine saw
// one of its cluster's nodes fail to start that way). Below that range
// only another chooser of a fixed port can take it. It owns no listener
// and keeps nothing.
package freeport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// floor is the lowest port chosen (above the registered services that a
// developer's machine often runs: 5432, 6222, 8080, ...).
const floor = 20000

// Addr returns "127.0.0.1:PORT" for a port that nothing listened on when
// it was chosen, outside the ephemeral range where the system tells it
// (Linux), else a port the kernel chose.
func Addr() (string, error) {
	return pick(floor, ephemeralLow())
}

// pick chooses a free port from [from, to): the first free one of up to
// 256 in a row from a random start (wrapping at to), else the kernel's.
func pick(from, to int) (string, error) {
	n := to - from
	start := 0
	if n > 0 {
		start = rand.IntN(n)
	}
	for try := 0; try < min(n, 256); try++ {
		port := from + (start+try)%n
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue // taken: choose again
		}
		addr := ln.Addr().String()
		if err := ln.Close(); err != nil {
			return "", err
		}
		return addr, nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("freeport: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// Port is Addr's port.
func Port() (int, error) {
	a, err := Addr()
	if err != nil {
		return 0, err
	}
	_, p, err := net.SplitHostPort(a)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(p)
}

// ephemeralLow is the lowest port of the kernel's ephemeral range, or 0
// where the system does not say.
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0
	}
	lo, err := strconv.Atoi(f[0])
	if err != nil {
		return 0
	}
	return lo
}
