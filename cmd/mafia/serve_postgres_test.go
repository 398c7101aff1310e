package main

import (
	"bufio"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"mafia/bench"
	"mafia/engine"
	"mafia/internal/pgtest"
	"mafia/store"
	"mafia/store/postgres"
)

// startServeInProcess runs `mafia serve` with args in the test's process and returns
// its base URL once it serves; the server is stopped (as by a signal) when
// the test ends, and must then exit 0.
func startServeInProcess(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	serveContext = func() context.Context { return ctx }
	pr, pw := io.Pipe()
	stderr := &lockedWriter{b: &strings.Builder{}}
	done := make(chan int, 1)
	go func() {
		code := runServe(append([]string{"--addr", "127.0.0.1:0", "--log", "warn"}, args...), nil, pw, stderr)
		pw.Close()
		done <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	go io.Copy(io.Discard, pr)
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "mafia: serving on ")
	if err != nil || !ok {
		cancel()
		code := <-done
		t.Fatalf("serve did not start (exit %d): %q %v\n%s", code, line, err, stderr.String())
	}
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %d", code)
		}
		serveContext = context.Background
	})
	return base
}

// lockedWriter is a strings.Builder written by the server's goroutines.
type lockedWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestServe_OnPostgreSQLPlaysAWholeGame: `mafia serve --db postgres://...`
// serves from PostgreSQL: a table of eleven bots plays a whole game over
// WebSockets (mafia bench's players), and the database then holds the
// table, ended, with its seats and a log that replays to the same result.
func TestServe_OnPostgreSQLPlaysAWholeGame(t *testing.T) {
	url := pgtest.URL(t)
	base := startServeInProcess(t, "--db", url, "--seats-per-address", "0", "--unlimited", "127.0.0.0/8")
	tm := bench.ShortTimings()
	tm["night"], tm["vote"] = 150, 400
	res, err := bench.Run(context.Background(), bench.Config{Server: base, Players: 11, Games: 1, Timings: tm,
		Ramp: 1000, Timeout: 120 * time.Second, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.GamesFinished < 1 || res.Errors != 0 {
		t.Fatalf("games %d, errors %d %v", res.GamesFinished, res.Errors, res.ErrorKinds)
	}

	ctx := context.Background()
	db, err := postgres.Open(ctx, url, postgres.Shared()) // beside the server, which holds the database
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ended, err := db.TableIDs(ctx, store.KindOnline, store.StatusEnded)
	if err != nil || len(ended) == 0 {
		t.Fatalf("ended tables in PostgreSQL: %v, %v", ended, err)
	}
	tb, seats, err := db.Table(ctx, store.KindOnline, ended[0])
	if err != nil {
		t.Fatal(err)
	}
	evs, err := db.Events(ctx, tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Ended() || g.Winner().String() != tb.Winner || len(seats) != 11 {
		t.Fatalf("table %s: over %v, winner %q (the table says %q), %d seats", tb.ID, g.Ended(), g.Winner(), tb.Winner, len(seats))
	}
	t.Logf("table %s: %d events, %s won", tb.ID, len(evs), tb.Winner)
}

// TestServe_ASecondServerOnOnePostgreSQLDatabaseIsRefusedPlainly: while one
// `mafia serve` holds a PostgreSQL database, a second one on the same
// database exits 1 at once, saying that the database is in use by another
// server and what to do, as a second server on one SQLite file does.
func TestServe_ASecondServerOnOnePostgreSQLDatabaseIsRefusedPlainly(t *testing.T) {
	url := pgtest.URL(t)
	first, err := postgres.Open(context.Background(), url) // the first server's store, as serve opens it
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	var stdout, stderr strings.Builder
	code := runServe([]string{"--addr", "127.0.0.1:0", "--log", "warn", "--db", url}, nil, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("a second server exited %d, want 1\n%s", code, stderr.String())
	}
	for _, want := range []string{"is in use by another server", "stop it first, or give this one another --db", "backend pid"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("serve's message lacks %q:\n%s", want, stderr.String())
		}
	}
	if strings.Contains(stdout.String(), "serving") {
		t.Errorf("serve said it serves: %s", stdout.String())
	}
	t.Logf("%s", stderr.String())
}

// TestServe_ANodeIdInUseAndASingleServerBesideNodesAreRefusedPlainly: a
// second process started as a node id another runs (whose leases and
// tokens would be its own, and fencing could not tell them apart) exits 1
// saying so; so does a single server started on a cluster's database, and
// a node on a single server's.
func TestServe_ANodeIdInUseAndASingleServerBesideNodesAreRefusedPlainly(t *testing.T) {
	url := pgtest.URL(t)
	n1, err := postgres.Open(context.Background(), url, postgres.Node("n1")) // node n1's store, as serve opens it
	if err != nil {
		t.Fatal(err)
	}
	defer n1.Close()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"the same node id", []string{"--node", "n1", "--cluster-secret", clusterSecret(t)}, `another process runs as the cluster's node "n1"`},
		{"a single server", nil, "is in use by the nodes of a cluster; run this server with --node ID"},
	} {
		var stdout, stderr strings.Builder
		code := runServe(append([]string{"--addr", "127.0.0.1:0", "--log", "warn", "--db", url}, c.args...), nil, &stdout, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%s: exit %d, want 1 saying %q:\n%s", c.name, code, c.want, stderr.String())
		}
	}
	single := pgtest.URL(t)
	s, err := postgres.Open(context.Background(), single)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var stdout, stderr strings.Builder
	code := runServe([]string{"--addr", "127.0.0.1:0", "--log", "warn", "--db", single, "--node", "n2", "--cluster-insecure"}, nil, &stdout, &stderr)
	if want := "is in use by a single server (not a cluster's node)"; code != 1 || !strings.Contains(stderr.String(), want) {
		t.Errorf("a node beside a single server: exit %d, want 1 saying %q:\n%s", code, want, stderr.String())
	}
}
