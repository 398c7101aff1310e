//go:build unix

package main

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"mafia/internal/pgtest"
)

// TestCluster_AStoppedNodeIsFencedOnceItsTableIsTakenOver stops node 2
// (SIGSTOP) with a game in play on it until node 1 has taken the table
// over (its lease ran out); the players reconnect through node 1 with
// since and play the game to its end there; node 2, continued, finds the
// table lost and never writes it again: every stored event after the
// takeover carries node 1's token, none node 2's.
func TestCluster_AStoppedNodeIsFencedOnceItsTableIsTakenOver(t *testing.T) {
	// Not t.Parallel: a node of another test beside it, late to renew a
	// 2-second lease on a loaded machine, once took the table back from
	// under this one's players (TestMain).
	db := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	nodes := startCluster(ctx, t, db, 2)
	st := sharedStore(ctx, t, db)
	table, conns, tokens := clusterGame(ctx, t, nodes[1].api, nodes[1].api)
	before, err := st.Lease(ctx, table)
	if err != nil || before.Node != "n2" {
		t.Fatalf("the lease before: %+v %v", before, err)
	}
	if err := nodes[1].cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := true
	defer func() {
		if stopped {
			_ = nodes[1].cmd.Process.Signal(syscall.SIGCONT)
		}
	}()
	for holderOfTable(ctx, t, st, table) != "n1" {
		select {
		case <-ctx.Done():
			t.Fatalf("node 1 never took the table over:\n%s", nodes[0].log())
		case <-time.After(100 * time.Millisecond):
		}
	}
	// The players come back through node 1, each from what it saw.
	for i, c := range conns {
		since := c.Seq
		c.CloseNow()
		nc, err := nodes[0].api.Dial(ctx, table, tokens[i], since)
		if err != nil {
			t.Fatalf("seat %d reconnecting through node 1: %v", i+1, err)
		}
		conns[i] = nc
		t.Cleanup(func() { nc.CloseNow() })
	}
	if err := nodes[1].cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	stopped = false
	if err := playAll(ctx, conns); err != nil {
		t.Fatalf("after the takeover: %v\nnode 1:\n%s\nnode 2:\n%s", err, nodes[0].log(), nodes[1].log())
	}
	after, err := st.Lease(ctx, table)
	if err != nil || after.Node != "n1" || after.Token <= before.Token {
		t.Errorf("the lease after: %+v %v, want node 1's with a token above %d", after, err, before.Token)
	}
	checkOneOwnerAtATime(ctx, t, st, table)
	// Node 2 was told, by its renewal or its first write, that it lost it.
	for !strings.Contains(nodes[1].log(), "table lost to another node") {
		select {
		case <-ctx.Done():
			t.Fatalf("node 2 never found the table lost:\n%s", nodes[1].log())
		case <-time.After(100 * time.Millisecond):
		}
	}
	checkOneOwnerAtATime(ctx, t, st, table)
}
