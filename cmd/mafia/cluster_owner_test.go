package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafia/bench"
	"mafia/internal/pgtest"
)

// relayedSessions is how many relayed sessions a node opened for clients
// it holds (mafia_relay_sessions_total{side="a",result="ok"}), -1 when its
// /metrics does not say.
func relayedSessions(ctx context.Context, t *testing.T, p *servedProcess) int {
	t.Helper()
	for _, l := range strings.Split(metricsOf(ctx, t, p), "\n") {
		if !strings.HasPrefix(l, "mafia_relay_sessions_total{") || !strings.Contains(l, `side="a"`) || !strings.Contains(l, `result="ok"`) {
			continue
		}
		f := strings.Fields(l)
		n, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil {
			t.Fatalf("metric line %q: %v", l, err)
		}
		return int(n)
	}
	return -1
}

// awaitPeers waits until every node hears every other one
// (mafia_cluster_peers), so that a request one passes on finds the table's
// owner alive rather than "table_moving".
func awaitPeers(ctx context.Context, t *testing.T, nodes []*servedProcess) {
	t.Helper()
	want := "\nmafia_cluster_peers " + strconv.Itoa(len(nodes)-1) + "\n"
	for _, p := range nodes {
		for !strings.Contains(metricsOf(ctx, t, p), want) {
			select {
			case <-ctx.Done():
				t.Fatalf("a node never heard its %d peers:\n%s", len(nodes)-1, grepLines(metricsOf(ctx, t, p), "mafia_cluster_peers"))
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
}

// TestCluster_BenchSeatsConnectAtTheOwnerAndFallBackToTheRelay runs two
// nodes as processes on one PostgreSQL: node 1's --node-url is its real
// loopback address, node 2's an address nobody listens at. `mafia bench`
// spreads each table's seats over both nodes; following the owner, every
// seat of node 1's tables dials node 1 directly (node 2 relays no
// session), and every seat of node 2's tables, whose owner URL refuses,
// falls back to the node it was given (node 1 relays those it holds). Every
// player plays a game to its end.
func TestCluster_BenchSeatsConnectAtTheOwnerAndFallBackToTheRelay(t *testing.T) {
	t.Parallel()
	db := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	nowhere := freeAddr(t) // closed again: a dial there is refused
	nodes := startClusterWith(ctx, t, db, 2, func(i int, addr string) string {
		if i == 1 {
			return "http://" + nowhere
		}
		return atItsAddress(i, addr)
	}, "--ops", "127.0.0.1:0")
	awaitPeers(ctx, t, nodes)
	tm := bench.ShortTimings()
	tm["night"], tm["vote"] = 150, 400
	res, err := bench.Run(ctx, bench.Config{Servers: []string{nodes[0].api.Base, nodes[1].api.Base}, Spread: bench.SpreadSeats,
		Players: 2 * bench.TableSize, EveryPlayer: true, Timings: tm, Ramp: 1000, Timeout: 3 * time.Minute, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors != 0 || res.PlayersPlayed != 2*bench.TableSize {
		t.Fatalf("errors %d %v, %d of %d played\n%s", res.Errors, res.ErrorKinds, res.PlayersPlayed, 2*bench.TableSize, res.Summary())
	}
	// Each table's first game seats all of its 11 players; a game the
	// run's end cut short may add fewer.
	if res.AtOwner < bench.TableSize || res.OwnerFallbacks < bench.TableSize {
		t.Errorf("%d seats at the owner and %d fallbacks, want at least %d each\n%s", res.AtOwner, res.OwnerFallbacks, bench.TableSize, res.Summary())
	}
	if n := relayedSessions(ctx, t, nodes[1]); n != 0 {
		t.Errorf("node 2 relayed %d sessions, want none: the seats it was given of node 1's tables connect at node 1", n)
	}
	if n := relayedSessions(ctx, t, nodes[0]); n < bench.TableSize/2 {
		t.Errorf("node 1 relayed %d sessions, want at least %d: the seats it was given of node 2's tables, whose owner URL refuses", n, bench.TableSize/2)
	}
	// Node 1 writes relayed frames to its clients as it reads them off the
	// link (issue 27): its served connections, counted by the server's
	// listener, offer the socket's write that never waits.
	if n := directFrames(ctx, t, nodes[0]); n <= 0 {
		t.Errorf("node 1 wrote %v relayed frames directly to its clients, want some:\n%s", n, grepLines(metricsOf(ctx, t, nodes[0]), "mafia_relay_"))
	}
}

// directFrames is how many relayed frames a node wrote to its clients
// whole from the goroutine that read them off a link or the bus
// (mafia_relay_direct_frames_total{write="whole"}), -1 when its /metrics
// does not say.
func directFrames(ctx context.Context, t *testing.T, p *servedProcess) float64 {
	t.Helper()
	for _, l := range strings.Split(metricsOf(ctx, t, p), "\n") {
		if strings.HasPrefix(l, `mafia_relay_direct_frames_total{write="whole"} `) {
			n, err := strconv.ParseFloat(strings.Fields(l)[1], 64)
			if err != nil {
				t.Fatalf("metric line %q: %v", l, err)
			}
			return n
		}
	}
	return -1
}
