package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"testing"
	"time"

	"mafia/server"
	"mafia/store/sqlite"
)

// TestRun_TinyBenchFinishesGamesWithoutErrors plays 22 bots (two tables)
// against an in-process server until two games have finished, and checks
// that nothing went wrong and that the JSON has the fields the issue names.
func TestRun_TinyBenchFinishesGamesWithoutErrors(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	// The bench's 22 players all come from loopback: as docs/performance.md
	// says, the server exempts it from the per-address limits, and from the
	// seats per address.
	srv := server.New(server.Config{Store: db, SeatsPerAddress: -1,
		Limits: server.Limits{Unlimited: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	// The server's memory is read from its operator's address.
	ops := httptest.NewServer(srv.OpsHandler("ops-secret"))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		ops.Close()
		srv.Close()
		db.Close()
	})

	tm := ShortTimings()
	tm["night"], tm["vote"] = 150, 400
	res, err := Run(context.Background(), Config{Server: hs.URL, Ops: ops.URL, OpsToken: "ops-secret", Players: 22, Games: 2, Timings: tm,
		Ramp: 1000, Timeout: 90 * time.Second, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res.GamesFinished < 2 {
		t.Errorf("games finished: %d, want at least 2 (%+v)", res.GamesFinished, res)
	}
	if res.Errors != 0 {
		t.Errorf("errors: %d %v", res.Errors, res.ErrorKinds)
	}
	if res.Commands == 0 || res.P50ms <= 0 || res.P99ms < res.P50ms || res.FramesPerSec <= 0 {
		t.Errorf("figures: %+v", res)
	}
	if res.HeldCommands == 0 || res.HeldCommands >= res.Commands || res.DayP50ms <= 0 || res.DayP99ms < res.DayP50ms || res.Pads == 0 {
		t.Errorf("held commands %d of %d, speeches' p50 %.2f p99 %.2f ms, pads %d", res.HeldCommands, res.Commands, res.DayP50ms, res.DayP99ms, res.Pads)
	}
	if res.ViewDelayP50ms == nil || res.ViewDelayP99ms == nil || *res.ViewDelayP99ms < *res.ViewDelayP50ms {
		t.Errorf("a loopback server's view delay: %v %v", res.ViewDelayP50ms, res.ViewDelayP99ms)
	}
	var inSeconds uint64
	for _, sec := range res.Seconds {
		inSeconds += sec.Commands
		if sec.P99ms > sec.MaxMs || sec.MaxMs > res.MaxMs {
			t.Errorf("second %d: p99 %.2f ms, max %.2f ms, window max %.2f ms", sec.T, sec.P99ms, sec.MaxMs, res.MaxMs)
		}
	}
	// A command recorded as the window closes may miss its second: at most
	// one per seat.
	if inSeconds > res.Commands || inSeconds+22 < res.Commands {
		t.Errorf("the seconds hold %d commands, the window %d", inSeconds, res.Commands)
	}
	if res.ConnectedPeak != 22 || res.Tables != 2 {
		t.Errorf("connected %d at %d tables, want 22 at 2", res.ConnectedPeak, res.Tables)
	}
	if res.Server == nil || res.Server.Peak.Connections == 0 || res.Server.Peak.RSSPerConn <= 0 {
		t.Errorf("a loopback server's memory was not read: %+v", res.Server)
	}

	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"players", "games_finished", "errors", "p50_ms", "p99_ms", "frames_per_sec"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, data)
		}
	}
}

// TestRun_RemainderTableUsesServerBots runs 3 players, fewer than the
// smallest preset: one table of 5 whose empty seats the server's bots take.
func TestRun_RemainderTableUsesServerBots(t *testing.T) {
	if got := plan(25); len(got) != 3 || got[2] != [2]int{3, 5} {
		t.Fatalf("plan(25) = %v", got)
	}
	if got := plan(29); len(got) != 3 || got[2] != [2]int{7, 7} {
		t.Fatalf("plan(29) = %v", got)
	}
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: db, SeatsPerAddress: -1}) // every bot joins from loopback
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})
	tm := ShortTimings()
	tm["night"], tm["vote"] = 150, 400
	res, err := Run(context.Background(), Config{Server: hs.URL, Players: 3, Games: 1, Timings: tm,
		Timeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.GamesFinished < 1 || res.Errors != 0 {
		t.Fatalf("games %d, errors %d %v", res.GamesFinished, res.Errors, res.ErrorKinds)
	}
}

// TestHistogram_QuantilesWithinOnePercent checks the buckets' precision.
func TestHistogram_QuantilesWithinOnePercent(t *testing.T) {
	var h Histogram
	for i := 1; i <= 100000; i++ {
		h.Record(time.Duration(i) * 10 * time.Microsecond) // 10 µs .. 1 s
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 500 * time.Millisecond}, {0.99, 990 * time.Millisecond}, {0.001, time.Millisecond}} {
		got := h.Quantile(c.q)
		if d := got - c.want; d < -c.want/100 || d > c.want/100 {
			t.Errorf("q%.3f = %v, want %v ± 1%%", c.q, got, c.want)
		}
	}
	if h.Max() != time.Second || h.Count() != 100000 {
		t.Errorf("max %v count %d", h.Max(), h.Count())
	}
	for us := uint64(0); us < 1<<24; us = us*9/8 + 1 {
		if b := bucketOf(us); bucketTop(b) < us || (b > 0 && bucketTop(b-1) >= us) {
			t.Fatalf("%d µs in bucket %d [%d, %d]", us, b, bucketTop(b-1)+1, bucketTop(b))
		}
	}
}

// TestStamped_MeasuresFromTheServersStamp: an update stamped 5 ms ago by a
// server on this machine is recorded as 5 ms (whole milliseconds, so up to
// one more); a stamp-like text inside a string is not the stamp; a remote
// server's stamps are not compared with this clock.
func TestStamped_MeasuresFromTheServersStamp(t *testing.T) {
	r := &run{local: true}
	r.measuring.Store(true)
	before := time.Now()
	stamp := before.UnixMilli() - 5
	r.stamped([]byte(fmt.Sprintf(`{"v":1,"type":"update","view":{"phase":"day"},"now":%d,"text":"\"now\":1"}`, stamp)))
	// However long the call took, the delay is 5 ms plus that, within the
	// stamp's millisecond.
	took := time.Since(before)
	if n, d := r.viewDelay.Count(), r.viewDelay.Max(); n != 1 || d < 5*time.Millisecond || d > 6*time.Millisecond+took {
		t.Fatalf("recorded %d delays, the largest %v; want one of 5 ms (the call took %v)", n, d, took)
	}
	r.stamped([]byte(`{"v":1,"type":"update","view":{}}`))
	remote := &run{}
	remote.measuring.Store(true)
	remote.stamped([]byte(fmt.Sprintf(`{"now":%d}`, stamp)))
	if r.viewDelay.Count() != 1 || remote.viewDelay.Count() != 0 {
		t.Fatalf("recorded %d (want 1) and %d from a remote server (want 0)", r.viewDelay.Count(), remote.viewDelay.Count())
	}
}
