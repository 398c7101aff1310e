package server

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"mafia/client"
	"mafia/store/sqlite"
	"mafia/wire"
)

// BenchmarkResume is a restart's cost: a server started on a SQLite file
// that holds games in play brings each of them back (Server.Resume: the
// table, seats, log and clock read, the game replayed to its last event,
// its clock and bots started again). The file is made once, before the
// timer, by a real server on loopback: MAFIA_BENCH_RESUME_TABLES tables
// (default 910, docs/performance.md's ten thousand players), each of
// eleven seats, ten the server's bots at instant pace and the eleventh a
// person who never connects (no stand-in), so that every game stops in
// play at that person's first move with the log it has by then. Each
// iteration opens the file, resumes every table and closes the server
// again (the close is outside the timer). It reports the wall time and the
// process's CPU time (user + system, getrusage) per resumed table.
func BenchmarkResume(b *testing.B) {
	tables := 910
	if s := os.Getenv("MAFIA_BENCH_RESUME_TABLES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("MAFIA_BENCH_RESUME_TABLES=%q: want a positive number", s)
		}
		tables = n
	}
	path := filepath.Join(b.TempDir(), "mafia.db")
	events := fillGamesInPlay(b, path, tables)
	b.Logf("%d tables in play, %d events in their logs (%.1f a table)", tables, events, float64(events)/float64(tables))

	var wall time.Duration
	var cpu time.Duration
	resumed := 0
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		db, err := sqlite.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		srv := New(Config{Store: db, SeatsPerAddress: -1})
		c0 := processCPU(b)
		t0 := time.Now()
		b.StartTimer()
		n, err := srv.Resume(context.Background())
		b.StopTimer()
		wall += time.Since(t0)
		cpu += processCPU(b) - c0
		if err != nil {
			b.Fatal(err)
		}
		if n < tables {
			b.Fatalf("resumed %d tables, want %d", n, tables)
		}
		resumed += n
		srv.Close()
		db.Close()
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(wall.Microseconds())/float64(resumed), "wall-µs/table")
	b.ReportMetric(float64(cpu.Microseconds())/float64(resumed), "cpu-µs/table")
	b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s/resume")
}

// fillGamesInPlay makes n tables in play on the SQLite file at path (see
// BenchmarkResume) and returns how many events their logs hold.
func fillGamesInPlay(b *testing.B, path string, n int) int {
	b.Helper()
	ts := startServerWith(b, path, func(c *Config) { c.Limits.Unlimited = loopback })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	never := int64(0)
	long := int64(600_000)
	timings := map[string]int64{"speech": long, "defence": long, "tie_speech": long, "last_words": long, "night": 100, "vote": long}
	ids := make([]string, 0, n)
	for i := range n {
		created, err := ts.api.Create(ctx, client.CreateRequest{Name: "resume " + strconv.Itoa(i), Players: 11,
			TimingsMS: timings, Pace: "instant", StandInMS: &never})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ts.api.Join(ctx, created.Table, "Nino", 11, ""); err != nil {
			b.Fatal(err)
		}
		host, err := ts.api.Dial(ctx, created.Table, created.HostToken, 0)
		if err != nil {
			b.Fatal(err)
		}
		for _, a := range []string{"add_bots", "start"} {
			if _, err := host.Send(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
				b.Fatal(err)
			}
		}
		// The host leaves once the game has begun: its table plays on to
		// the person's first move.
		for {
			m, err := host.Read(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if m.View != nil && m.View.Phase != "" && m.View.Phase != "lobby" {
				break
			}
		}
		host.Close()
		ids = append(ids, created.Table)
	}
	// Every game has come to the person's move once its log stops growing.
	var events int
	for prev := -1; ; prev = events {
		events = 0
		for _, id := range ids {
			log, err := ts.db.Events(ctx, id)
			if err != nil {
				b.Fatal(err)
			}
			events += len(log)
		}
		if events == prev {
			break
		}
		time.Sleep(200 * time.Millisecond) // the bots' moves, a poll of a benchmark's set-up
	}
	ts.close()
	return events
}
