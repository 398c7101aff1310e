package bench

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafia/server"
	"mafia/store/sqlite"
)

// benchServer is a real server on loopback with its own SQLite file, as
// `mafia serve --unlimited 127.0.0.1` runs it for the
// bench; it returns the public URL and the operator's.
func benchServer(t *testing.T) (public, ops string) {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: db,
		Limits: server.Limits{Unlimited: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	os := httptest.NewServer(srv.OpsHandler(""))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		os.Close()
		srv.Close()
		db.Close()
	})
	return hs.URL, os.URL
}

// metricOf reads one unlabelled series from a server's /metrics.
func metricOf(t *testing.T, ops, name string) float64 {
	t.Helper()
	resp, err := http.Get(ops + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	t.Fatalf("%s/metrics has no %s", ops, name)
	return 0
}

// TestRun_TwoServersEachServeTheirTablesAndEveryPlayerPlays spreads 33
// players (three tables) over two servers that share nothing: every table's
// seats go through the table's server, the tables in turn (two on the
// first, one on the second); every player plays a game to its end, each
// server's figures add up to the run's, and each server's own counters
// show the games played there; each server's memory is read from its own
// operator's address.
func TestRun_TwoServersEachServeTheirTablesAndEveryPlayerPlays(t *testing.T) {
	a, aOps := benchServer(t)
	b, bOps := benchServer(t)
	tm := ShortTimings()
	tm["night"], tm["vote"] = 150, 400
	res, err := Run(context.Background(), Config{Servers: []string{a, b + "/"}, OpsAll: []string{aOps, bOps}, Players: 33, EveryPlayer: true,
		Timings: tm, Ramp: 1000, Timeout: 3 * time.Minute, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors != 0 {
		t.Errorf("errors: %d %v", res.Errors, res.ErrorKinds)
	}
	if res.PlayersPlayed != 33 || res.Spread != SpreadTables {
		t.Errorf("%d of 33 players played a game to its end, spread %q", res.PlayersPlayed, res.Spread)
	}
	if len(res.PerServer) != 2 {
		t.Fatalf("per server: %+v", res.PerServer)
	}
	want := []struct {
		url             string
		players, tables int
		ops             string
	}{{a, 22, 2, aOps}, {b, 11, 1, bOps}}
	var commands uint64
	var frames int64
	for i, w := range want {
		f := res.PerServer[i]
		if f.URL != w.url || f.Players != w.players || f.Tables != w.tables || f.Played != int64(w.players) {
			t.Errorf("server %d: %+v, want %s with %d players (all played) at %d tables", i, f, w.url, w.players, w.tables)
		}
		if f.Commands == 0 || f.P50ms <= 0 || f.P99ms < f.P50ms || f.MaxMs < f.P99ms || f.Frames == 0 || f.Errors != 0 {
			t.Errorf("server %d's figures: %+v", i, f)
		}
		if f.GamesFinishedTotal < int64(w.tables) {
			t.Errorf("server %d finished %d games, want at least one a table (%d)", i, f.GamesFinishedTotal, w.tables)
		}
		// The server itself saw them.
		if got := metricOf(t, w.ops, "mafia_games_finished_total"); got < float64(f.GamesFinishedTotal) {
			t.Errorf("server %d counts %v games finished, the bench %d", i, got, f.GamesFinishedTotal)
		}
		if f.Server == nil || f.Server.Peak.Connections == 0 || f.Server.Peak.RSSPerConn <= 0 {
			t.Errorf("server %d's memory was not read from its operator's address: %+v", i, f.Server)
		}
		commands += f.Commands
		frames += f.Frames
	}
	if commands != res.Commands || frames != res.Frames {
		t.Errorf("the servers' commands %d and frames %d, the run's %d and %d", commands, frames, res.Commands, res.Frames)
	}
	if res.Server != res.PerServer[0].Server {
		t.Errorf("the run's server report is not the first server's")
	}
	if s := res.Summary(); !strings.Contains(s, "by server (spread by tables)") || !strings.Contains(s, b+": 11 players (11 played") {
		t.Errorf("summary:\n%s", s)
	}
}

// TestRun_SpreadSeatsPutsATablesSeatsOnEveryServer plays one table whose
// seats alternate between two URLs of the same server (as nodes of a
// cluster that relay to the table's owner would be): the table is made
// through the first, its seats join and play through both.
func TestRun_SpreadSeatsPutsATablesSeatsOnEveryServer(t *testing.T) {
	a, _ := benchServer(t)
	alias := strings.Replace(a, "127.0.0.1", "localhost", 1)
	tm := ShortTimings()
	tm["night"], tm["vote"] = 150, 400
	res, err := Run(context.Background(), Config{Servers: []string{a, alias}, Spread: SpreadSeats, Players: 11,
		EveryPlayer: true, Timings: tm, Ramp: 1000, Timeout: 2 * time.Minute, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors != 0 || res.PlayersPlayed != 11 {
		t.Fatalf("errors %d %v, %d of 11 played", res.Errors, res.ErrorKinds, res.PlayersPlayed)
	}
	if len(res.PerServer) != 2 {
		t.Fatalf("per server: %+v", res.PerServer)
	}
	p, q := res.PerServer[0], res.PerServer[1]
	if p.Players != 6 || q.Players != 5 || p.Tables != 1 || q.Tables != 0 || p.Played != 6 || q.Played != 5 {
		t.Errorf("spread by seats: %+v and %+v, want 6 and 5 players, the table on the first", p, q)
	}
	if p.Commands == 0 || q.Commands == 0 {
		t.Errorf("commands through each: %d and %d", p.Commands, q.Commands)
	}
}

// TestAssign_SpreadsTablesOrSeatsInTurn pins the two spreads' arithmetic.
func TestAssign_SpreadsTablesOrSeatsInTurn(t *testing.T) {
	count := func(spread string, players, servers int) (ps, ts []int) {
		srvs := make([]*serverRun, servers)
		for i := range srvs {
			srvs[i] = &serverRun{}
		}
		assign(srvs, plan(players), spread)
		for _, sv := range srvs {
			ps, ts = append(ps, sv.players), append(ts, sv.tables)
		}
		return ps, ts
	}
	for _, c := range []struct {
		spread           string
		players, servers int
		ps, ts           string
	}{
		{SpreadTables, 25, 2, "[14 11]", "[2 1]"}, // 11+3 and 11
		{SpreadTables, 25, 3, "[11 11 3]", "[1 1 1]"},
		{SpreadTables, 10, 1, "[10]", "[1]"},
		{SpreadSeats, 22, 2, "[11 11]", "[1 1]"},   // 6+5 and 5+6
		{SpreadSeats, 11, 3, "[4 4 3]", "[1 0 0]"}, // one table, its seats in turn
		{SpreadSeats, 25, 2, "[13 12]", "[2 1]"},   // 6+5+2 and 5+6+1
	} {
		ps, ts := count(c.spread, c.players, c.servers)
		if fmt.Sprint(ps) != c.ps || fmt.Sprint(ts) != c.ts {
			t.Errorf("%s, %d players on %d servers: players %v tables %v, want %s %s", c.spread, c.players, c.servers, ps, ts, c.ps, c.ts)
		}
	}
	if _, err := serverURLs(Config{Servers: []string{"http://a/", "http://a"}}); err == nil {
		t.Error("a server given twice was taken")
	}
	if got, err := serverURLs(Config{Server: "http://a/"}); err != nil || len(got) != 1 || got[0] != "http://a" {
		t.Errorf("one Server: %v %v", got, err)
	}
}

// TestRun_AGameRefusedByADrainingServerIsMadeOnTheNext drains the first of
// two servers before the run: its table's games are made on the second
// (counted as moved, not as errors), and every player plays there.
func TestRun_AGameRefusedByADrainingServerIsMadeOnTheNext(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: db, SeatsPerAddress: -1,
		Limits: server.Limits{Unlimited: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})
	srv.Drain()
	b, _ := benchServer(t)
	tm := ShortTimings()
	tm["night"], tm["vote"] = 150, 400
	res, err := Run(context.Background(), Config{Servers: []string{hs.URL, b}, Players: 22, EveryPlayer: true,
		Timings: tm, Ramp: 1000, Timeout: 2 * time.Minute, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors != 0 || res.PlayersPlayed != 22 || res.TablesMoved < 1 {
		t.Fatalf("errors %d %v, %d of 22 played, %d games moved", res.Errors, res.ErrorKinds, res.PlayersPlayed, res.TablesMoved)
	}
	d, o := res.PerServer[0], res.PerServer[1]
	if d.DrainedAway != res.TablesMoved || d.Commands != 0 || d.Played != 0 || o.Played != 22 || o.DrainedAway != 0 {
		t.Errorf("the drained server %+v, the other %+v", d, o)
	}
	if !strings.Contains(res.Summary(), "made on another server because their own drained") {
		t.Errorf("summary:\n%s", res.Summary())
	}
}
