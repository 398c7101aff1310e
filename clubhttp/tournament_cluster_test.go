package clubhttp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"mafia/account"
	"mafia/client"
	"mafia/clubhttp"
	"mafia/internal/pgtest"
	"mafia/room"
	"mafia/server"
	"mafia/store/postgres"
	"mafia/tournament"
)

// TestMain stops the test binary's PostgreSQL (pgtest) after the tests.
//
// The four tests that play games online (each on a server and a SQLite
// file or PostgreSQL database of its own) are parallel: they wait on their
// games' clocks (the twenty-player tournament's 22 games about 80 s of
// nights, most of the package's time), so the other three run beside it,
// two at a time (go test's default on a 2-core machine), after the quick
// ones. No more at once: a test that sits ten or twenty seats holds their
// connections unread meanwhile, and the server ends one that leaves its
// ping unanswered for 10 s, which five at once at a load of 33 reached.
func TestMain(m *testing.M) { pgtest.Main(m) }

// clusterNode is one node of an in-process cluster: its server, its
// clubs' handler and its address, on the cluster's one database.
type clusterNode struct {
	srv   *server.Server
	svc   *account.Service
	url   string
	clubs *clubhttp.Handler
	db    *postgres.DB
}

// startClusterNodes starts n nodes on one fresh PostgreSQL database, each
// with its own connections, server and clubs' handler (each club handler
// serving online tournaments on its own node's server); a node that lets
// a table's lease go nudges the others, as the cluster's bus does.
func startClusterNodes(ctx context.Context, t *testing.T, n int) []*clusterNode {
	t.Helper()
	url := pgtest.URL(t)
	nodes := make([]*clusterNode, n)
	var mu sync.Mutex
	for i := range nodes {
		id := "n" + string(rune('1'+i))
		db, err := postgres.Open(ctx, url, postgres.Shared())
		if err != nil {
			t.Fatal(err)
		}
		cl := &server.Cluster{Node: id, URL: "https://" + id + ".mafia.test", TTL: time.Hour, Scan: time.Hour,
			Free: func(string) {
				mu.Lock()
				defer mu.Unlock()
				for j, o := range nodes {
					if j != i && o != nil {
						o.srv.Nudge()
					}
				}
			},
			Elsewhere: func(w http.ResponseWriter, _ *http.Request, _, _ string) {
				w.WriteHeader(http.StatusMisdirectedRequest)
			},
		}
		svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
		srv := server.New(server.Config{Store: db, Accounts: svc, SeatsPerAddress: -1, Pace: room.PaceInstant, Cluster: cl,
			Limits: server.Limits{AddrRate: 10_000, AddrBurst: 10_000}})
		if _, err := srv.Resume(ctx); err != nil {
			t.Fatal(err)
		}
		clubs := clubhttp.New(clubhttp.Config{Store: db, Accounts: svc})
		clubs.ServeOnline(srv)
		mux := http.NewServeMux()
		mux.Handle("/host/", clubs)
		mux.Handle("/", srv.Handler())
		hs := httptest.NewUnstartedServer(nil)
		hs.Config = srv.HTTPServer(mux)
		hs.Listener = srv.Listener(hs.Listener)
		hs.Start()
		t.Cleanup(func() {
			hs.CloseClientConnections()
			hs.Close()
			srv.Close()
			db.Close()
		})
		mu.Lock()
		nodes[i] = &clusterNode{srv: srv, svc: svc, url: hs.URL, clubs: clubs, db: db}
		mu.Unlock()
	}
	return nodes
}

// TestTournaments_ATableHandedToAnotherNodeIsLinkedToItsRound (issue 29's
// leftover: online tournaments in a cluster): a round opened online on
// node 1 (its table on node 1's server), node 1 drained and its table
// handed over to node 2, the organiser starts it on node 2 (the server's
// bots take the free seats) and it plays there to the end, where node 2's
// end-of-game notice finds no table its own clubs' handler opened; the
// next read of the tournament, on either node, links the game to round
// 1's table.
func TestTournaments_ATableHandedToAnotherNodeIsLinkedToItsRound(t *testing.T) {
	t.Parallel() // it waits on its game's clocks and the lease, on a database of its own (TestMain)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	nodes := startClusterNodes(ctx, t, 2)
	n1, n2 := nodes[0], nodes[1]
	s := &onlineSite{URL: n1.url, api: &client.API{Base: n1.url}, svc: n1.svc, srv: n1.srv}
	if code := do(t, "POST", n1.url+"/host/api/clubs", "", map[string]any{"name": "Cluster club"}, &s.club); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	ids, _ := s.players(t, 10)
	timings := map[string]int64{"speech": 200, "defence": 200, "tie_speech": 200, "last_words": 200, "night": 150, "vote": 200}
	var tr tournamentAnswer
	req := map[string]any{"name": "Cluster cup", "from": "2026-12-06", "to": "2026-12-06", "players": ids, "tables": 1,
		"games": 1, "seed": 3, "final": map[string]any{"size": 0},
		"online": map[string]any{"no_show": "stand_in", "wait_s": 3600, "timings_ms": timings}}
	path := "/host/api/clubs/" + s.club.ID + "/tournaments"
	if code := do(t, "POST", n1.url+path, s.club.Token, req, &tr); code != http.StatusCreated {
		t.Fatalf("make the tournament: %d", code)
	}
	path += "/" + tr.ID
	if code := do(t, "POST", n1.url+path+"/rounds", s.club.Token, nil, &tr); code != http.StatusOK {
		t.Fatalf("seat the rounds: %d", code)
	}
	var r1 onlineRoundAnswer
	if code := do(t, "POST", n1.url+path+"/rounds/1/online", s.club.Token, nil, &r1); code != http.StatusOK || len(r1.Tables) != 1 {
		t.Fatalf("open round 1 on node 1: %d %+v", code, r1)
	}
	table := r1.Tables[0].Online
	if owned := n1.srv.Owned(); len(owned) != 1 || owned[0] != table {
		t.Fatalf("node 1 runs %v, want the round's table %s", owned, table)
	}

	// Node 1 drains: the table moves to node 2, still waiting.
	n1.srv.Drain()
	hctx, hcancel := context.WithTimeout(ctx, 30*time.Second)
	err := n1.srv.Handover(hctx)
	hcancel()
	if err != nil {
		t.Fatalf("the hand-over: %v (node 2 runs %v)", err, n2.srv.Owned())
	}
	// The hand-over ends once node 2 holds the table's lease; it runs the
	// room as soon as it has loaded it.
	waitFor(ctx, t, "node 2 to run the table", func() bool {
		owned := n2.srv.Owned()
		return len(owned) == 1 && owned[0] == table
	})
	var before struct {
		Rounds []struct {
			Tables []struct{ Online, Game string }
		}
	}
	if code := do(t, "GET", n2.url+path, "", nil, &before); code != http.StatusOK || before.Rounds[0].Tables[0].Game != "" {
		t.Fatalf("the tournament before the table played: %d %+v, want no game linked", code, before.Rounds)
	}
	var st onlineRoundAnswer
	if code := do(t, "GET", n2.url+path+"/rounds/1/online", "", nil, &st); code != http.StatusOK || st.Tables[0].State != "waiting" {
		t.Fatalf("round 1 on node 2 after the hand-over: %d %+v, want its table waiting", code, st)
	}

	// Started on node 2, it plays there to its end.
	if code := do(t, "POST", n2.url+path+"/rounds/1/tables/1/start", s.club.Token, nil, &st); code != http.StatusOK {
		t.Fatalf("start the table on node 2: %d %+v", code, st)
	}
	waitFor(ctx, t, "the table's end on node 2", func() bool {
		l, err := n2.srv.ReservedTable(ctx, table)
		return err == nil && l.Status == "ended"
	})

	// Its end links it on node 2, whose clubs' handler did not open it
	// (the table's owner names the tournament): the shared store has the
	// link with no read of the tournament on either node.
	waitFor(ctx, t, "the game linked at its end on node 2", func() bool {
		st, err := n2.db.Tournament(ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		var got tournament.Tournament
		if err := json.Unmarshal(st.Data, &got); err != nil {
			t.Fatal(err)
		}
		return got.Rounds[0].Tables[0].Game == table
	})
	// Both nodes read it so.
	for _, n := range []*clusterNode{n2, n1} {
		var got struct {
			Rounds []struct {
				Tables []struct{ Online, Game string }
			}
		}
		if code := do(t, "GET", n.url+path, "", nil, &got); code != http.StatusOK || len(got.Rounds) == 0 ||
			got.Rounds[0].Tables[0].Game != table {
			t.Errorf("the tournament read at %s: %d %+v, want round 1's table linked to game %s", n.url, code, got.Rounds, table)
		}
	}
}

// waitFor polls cond until it holds, failing t (what it waited for) when
// ctx ends first.
func waitFor(ctx context.Context, t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v", what, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
