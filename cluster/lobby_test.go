package cluster

import (
	"context"
	"slices"
	"testing"
	"time"

	"mafia/wire"
)

// rows is a LobbySource of fixed rows; with hang it waits until the
// asker gives up instead.
type rows struct {
	tables []string
	hang   bool
}

func (r rows) Tables(ctx context.Context) ([]wire.Lobby, error) {
	if r.hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	var out []wire.Lobby
	for _, t := range r.tables {
		out = append(out, wire.Lobby{Table: t, Public: true})
	}
	return out, nil
}

// TestLobbyGathersEveryLiveNodeAndLeavesOutTheSilent pins the cluster's
// lobby: a lister on any node gets its own rows and every live node's,
// each naming its node; a live node that does not answer within the bound
// is left out and counted, and the lister is not blocked by it.
func TestLobbyGathersEveryLiveNodeAndLeavesOutTheSilent(t *testing.T) {
	ctx := within(t, 30*time.Second)
	ca, cb, cc := newFakeClock(), newFakeClock(), newFakeClock()
	wait := 200 * time.Millisecond
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick, Lobby: rows{tables: []string{"a1", "a2"}}, LobbyWait: wait})
	b := startNode(t, Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Lobby: rows{tables: []string{"b1"}}, LobbyWait: wait, Peers: []string{a.RouteURL()}})
	c := startNode(t, Config{ID: "c", Now: cc.Now, Tick: cc.Tick, Lobby: rows{hang: true}, LobbyWait: wait, Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b, c)

	for _, n := range []*Node{a, b} {
		g, err := n.Lobby(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range g.Rows {
			got = append(got, r.Node+"/"+r.Table.Table)
		}
		if want := []string{"a/a1", "a/a2", "b/b1"}; !slices.Equal(got, want) {
			t.Fatalf("node %s lists %v, want %v", n.ID(), got, want)
		}
		if !slices.Equal(g.Missing, []string{"c"}) {
			t.Fatalf("node %s: missing %v, want c", n.ID(), g.Missing)
		}
		if n.LobbyMissed() != 1 {
			t.Fatalf("node %s counted %d missing, want 1", n.ID(), n.LobbyMissed())
		}
	}

	// A node gone from presence is not waited for at all.
	ca.Advance(3 * testInterval)
	a.Announce()
	g, err := a.Lobby(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Rows) != 2 || len(g.Missing) != 0 {
		t.Fatalf("with b and c gone a lists %+v", g)
	}
}
