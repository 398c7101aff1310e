package sqlite

import (
	"bufio"
	"context"
	"fmt"
	"mafia/store/storetest"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"mafia/rng"
	"mafia/store"
)

// killChildEnv, when set in the environment, makes
// TestKill_EveryAcknowledgedAppendSurvives the writing child: its value is
// the database path.
const killChildEnv = "MAFIA_SQLITE_KILL_CHILD"

const killWorkers = 16

// killTable names the table a kill-test worker plays its k-th game at; the
// game's seed follows from the same pair.
func killTable(w, k int) string { return fmt.Sprintf("w%02d-g%04d", w, k) }
func killSeed(w, k int) uint64  { return rng.Derive(uint64(1000+w), uint64(k)) }
func parseKillTable(id string) (w, k int) {
	fmt.Sscanf(id, "w%02d-g%04d", &w, &k)
	return w, k
}

// TestKill_EveryAcknowledgedAppendSurvives runs a child process that appends
// bot games from many goroutines and prints a line after every append that
// returned nil, kills it with SIGKILL mid-stream, reopens the file, and
// checks that every acknowledged append is there and that every log is a
// prefix of its game, without gaps.
func TestKill_EveryAcknowledgedAppendSurvives(t *testing.T) {
	if path := os.Getenv(killChildEnv); path != "" {
		killChild(path)
		return
	}
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	path := t.TempDir() + "/kill.db"
	cmd := exec.Command(os.Args[0], "-test.run=^TestKill_EveryAcknowledgedAppendSurvives$", "-test.count=1")
	cmd.Env = append(os.Environ(), killChildEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[string]int{} // table → the log length an append returned nil at
	lines := 0
	killed := false
	timeout := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	defer timeout.Stop()
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var id string
		var end int
		if _, err := fmt.Sscanf(sc.Text(), "ok %s %d", &id, &end); err != nil {
			continue
		}
		acked[id] = max(acked[id], end)
		lines++
		if lines == 3000 && !killed {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("the child ended before it was killed (%d acks): %v", lines, err)
	}
	t.Logf("killed the child after %d acknowledged appends (%d read in all) to %d tables: %v", 3000, lines, len(acked), err)

	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	tables, err := db.Tables(ctx, store.KindOnline, store.TableFilter{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	extra := 0
	for _, tb := range tables {
		seen[tb.ID] = true
		got, err := db.Events(ctx, tb.ID) // refuses a log with a gap
		if err != nil {
			t.Fatal(err)
		}
		want, _ := storetest.BotGame(t, killSeed(parseKillTable(tb.ID)))
		if len(got) < acked[tb.ID] {
			t.Errorf("%s: %d events, but an append returned nil at %d", tb.ID, len(got), acked[tb.ID])
		}
		if len(got) > len(want) {
			t.Fatalf("%s: %d events, the game has %d", tb.ID, len(got), len(want))
		}
		if d := storetest.SameEvents(got, want[:len(got)]); d != "" {
			t.Errorf("%s is not a prefix of its game: %s", tb.ID, d)
		}
		extra += len(got) - acked[tb.ID]
	}
	for id := range acked {
		if !seen[id] {
			t.Errorf("table %s, acknowledged, is missing", id)
		}
	}
	t.Logf("%d tables after the kill; %d events committed but not acknowledged in time", len(tables), extra)
}

// killChild is the child's side: workers play games one after another and
// append each in batches of 1-5 events, printing "ok TABLE LENGTH" after
// every append that returned nil, until the process is killed.
func killChild(path string) {
	db, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	go func() { // never outlive a parent that has gone
		time.Sleep(60 * time.Second)
		os.Exit(3)
	}()
	var mu sync.Mutex
	ack := func(id string, end int) {
		mu.Lock()
		fmt.Fprintf(os.Stdout, "ok %s %d\n", id, end)
		mu.Unlock()
	}
	ctx := context.Background()
	for w := range killWorkers {
		go func() {
			for k := 0; ; k++ {
				id := killTable(w, k)
				log, _, err := storetest.PlayBotGame(killSeed(w, k))
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(2)
				}
				if err := db.CreateTable(ctx, store.Table{ID: id, Kind: store.KindOnline, Status: store.StatusPlaying}, nil); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(2)
				}
				src := rng.New(uint64(k))
				for i := 0; i < len(log); {
					n := min(1+src.Intn(5), len(log)-i)
					if err := db.AppendEvents(ctx, id, i, log[i:i+n]); err != nil {
						fmt.Fprintln(os.Stderr, err)
						os.Exit(2)
					}
					i += n
					ack(id, i)
				}
			}
		}()
	}
	select {}
}
