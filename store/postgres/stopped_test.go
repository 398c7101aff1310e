//go:build unix

package postgres

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"mafia/store"
	"mafia/store/internal/fence"
)

// The child process of TestAStoppedNodeCannotAppendAfterATakeover: a node
// that holds table x, renews its lease, and appends to it as fast as it
// can, reloading the log's end after a conflict as a node that believes it
// owns the table would; it says what each append did on stdout.
const stoppedNodeEnv = "MAFIA_TEST_STOPPED_NODE_URL"

// TestAStoppedNodeCannotAppendAfterATakeover: a real process (node A,
// this test binary run again) holds a table's lease, renews it and appends
// to the table; it is stopped with SIGSTOP until its lease runs out, node
// B (this process) takes the table over and appends, and then A is
// continued: its first append after that, from the log's real end once it
// has reloaded it, is refused as fenced (ErrFenced), and the log holds
// B's events after the takeover, none of A's. The stop lands wherever A
// is: between two writes, or (about one run in 100 under -race, four at
// once) inside a transaction holding the lease's row (a renewal's UPDATE,
// an append's FOR SHARE), which makes B's Acquire end in a lock timeout
// until PostgreSQL ends A's session (takeOver tries again, as a node
// does); A's write in it then fails (a "lease" or "failed" line) before
// its next append is fenced.
func TestAStoppedNodeCannotAppendAfterATakeover(t *testing.T) {
	if url := os.Getenv(stoppedNodeEnv); url != "" {
		stoppedNode(url)
		return
	}
	ctx := context.Background()
	url := migratedURL(t)
	b, err := Open(ctx, url, Shared())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	create(t, b, "x")
	log := botLog(t, 21)
	if err := b.AppendEvents(ctx, "x", 0, log[:1]); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run", "^TestAStoppedNodeCannotAppendAfterATakeover$")
	cmd.Env = append(os.Environ(), stoppedNodeEnv+"="+url)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	more, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGCONT)
		cmd.Process.Kill()
		cmd.Wait()
	}()
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() string {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("node A ended without a word")
			}
			return l
		case <-time.After(60 * time.Second):
			t.Fatal("node A said nothing for a minute")
		}
		return ""
	}
	// A appends a few times, then is stopped wherever it is.
	for oks := 0; oks < 10; {
		l := next()
		if strings.HasPrefix(l, "ok ") {
			oks++
		} else if !strings.HasPrefix(l, "lease ") {
			t.Fatalf("node A before the stop: %s", l)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	waitRunOut(t, b, "x")
	lb := takeOver(t, b, "x", "node-b")
	bctx := fence.With(ctx, "x", lb.Token)
	evs, err := b.Events(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	took := len(evs)
	if err := b.AppendEvents(bctx, "x", took, log[took:took+3]); err != nil {
		t.Fatalf("node B's append after the takeover: %v", err)
	}
	// What A said before it was stopped is in the pipe; from here on
	// every "ok" is an append after the takeover.
	for _, l := range drain(lines) {
		t.Logf("node A, before the stop: %s", l)
	}
	if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	// A stopped at the end of its own appends waits to be told to go on
	// (more lines than it can use: it ends at its first fenced append).
	if _, err := io.WriteString(more, strings.Repeat("more\n", 64)); err != nil {
		t.Fatal(err)
	}
	for {
		l := next()
		switch {
		case strings.HasPrefix(l, "ok "):
			// An append A made before the takeover may be said only now: A
			// was stopped between its append's commit and its line (B read
			// that event back: it is before took). Any later one is a
			// write past the fence.
			var n int
			if _, err := fmt.Sscanf(l, "ok %d", &n); err != nil {
				t.Fatalf("node A, continued: %s", l)
			}
			if n < took {
				t.Logf("node A, continued, says an append made before the takeover: %s", l)
				continue
			}
			t.Fatalf("node A appended after node B took the table over (the log had %d events at the takeover): %s", took, l)
		case strings.HasPrefix(l, "fenced "):
			t.Logf("node A, continued: %s", l)
		case strings.HasPrefix(l, "lease ") || strings.HasPrefix(l, "conflict ") || strings.HasPrefix(l, "failed "):
			// failed: A was stopped inside its append's transaction, and
			// PostgreSQL ended that session meanwhile (idleTxTimeout).
			t.Logf("node A, continued: %s", l)
			continue
		default:
			t.Fatalf("node A, continued: %s", l)
		}
		break
	}
	if err := b.AppendEvents(bctx, "x", took+3, log[took+3:took+4]); err != nil {
		t.Fatalf("node B's next append: %v", err)
	}
	if got, err := b.Events(ctx, "x"); err != nil || len(got) != took+4 {
		t.Fatalf("the log: %d events, %v; want %d (A's up to the takeover, then B's 4)", len(got), err, took+4)
	}
}

// takeOver acquires table's lease for node as a node's takeover does: a
// stop that lands inside the holder's transaction (an append's, holding
// the lease's row FOR SHARE; a renewal's) leaves that row held until
// PostgreSQL ends the stopped session (idleTxTimeout), and Acquire's wait
// for it ends first, with a lock timeout (leaseLockTimeout), for the
// caller to try again: then it tries again, until the guard. Any other
// error fails the test.
func takeOver(t *testing.T, db *DB, table, node string) store.Lease {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; {
		l, err := db.Acquire(context.Background(), table, node, time.Hour)
		if err == nil {
			return l
		}
		if sqlState(err) != codeLockTimeout || time.Now().After(deadline) {
			t.Fatalf("node B takes over: %v", err)
		}
		t.Logf("node B takes over: %v (node A was stopped inside a transaction on the lease's row): again", err)
	}
}

// drain takes what is waiting in lines, without waiting, and returns it.
func drain(lines chan string) (got []string) {
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return append(got, "(its output ended)")
			}
			got = append(got, l)
		default:
			return got
		}
	}
}

// waitRunOut waits until the database's clock says table's lease ran out.
func waitRunOut(t *testing.T, db *DB, table string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		ex, err := db.Expired(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range ex {
			if l.Table == table {
				return
			}
		}
	}
	t.Fatalf("the lease of %s never ran out", table)
}

// stoppedSpare is how many of the log's events node A leaves to node B
// before it waits to be told to go on (stoppedNode).
const stoppedSpare = 8

// stoppedNode is node A: it takes table x's lease (ttl 1 s, renewed every
// 100 ms), then appends one event after another under its fence, and
// exits at its first refusal as fenced. With stoppedSpare events of the
// log left it waits, before each append, for a line on its stdin, which
// the test writes once A is continued: a test starved of the CPU between
// A's tenth append and the stop found A gone, its log run out ("node A
// ended without a word", B's appends past the log's end). An append that
// fails otherwise (a stop inside its transaction outlasted the session,
// which PostgreSQL ended: idleTxTimeout) is said and tried again, as a
// node's next command would be, a few times at most.
func stoppedNode(url string) {
	ctx := context.Background()
	say := func(format string, a ...any) { fmt.Printf(format+"\n", a...) }
	db, err := Open(ctx, url, Shared())
	if err != nil {
		say("error %v", err)
		os.Exit(1)
	}
	defer db.Close()
	l, err := db.Acquire(ctx, "x", "node-a", time.Second)
	if err != nil {
		say("error %v", err)
		os.Exit(1)
	}
	go func() {
		for range time.Tick(100 * time.Millisecond) {
			if _, err := db.Renew(ctx, l, time.Second); err != nil {
				say("lease %v", err)
				return
			}
		}
	}()
	log := botLogFor(&testing.T{}, 21)
	more := bufio.NewScanner(os.Stdin)
	fctx := fence.With(ctx, "x", l.Token)
	evs, err := db.Events(ctx, "x")
	if err != nil {
		say("error %v", err)
		os.Exit(1)
	}
	n, failed := len(evs), 0
	for n < len(log) {
		if n >= len(log)-stoppedSpare && !more.Scan() {
			say("error no more: %v", more.Err())
			os.Exit(1)
		}
		err := db.AppendEvents(fctx, "x", n, log[n:n+1])
		switch {
		case err == nil:
			say("ok %d", n)
			n++
			failed = 0
		case errors.Is(err, store.ErrFenced):
			say("fenced %d: %v", n, err)
			return
		case errors.Is(err, store.ErrConflict):
			// Someone else wrote: a node sure of its lease reloads the end.
			evs, rerr := db.Events(ctx, "x")
			if rerr != nil {
				say("error %v", rerr)
				os.Exit(1)
			}
			say("conflict at %d, the log has %d", n, len(evs))
			n = len(evs)
		case failed < 5:
			failed++
			say("failed %d: %v", n, err)
		default:
			say("error %v", err)
			os.Exit(1)
		}
		time.Sleep(2 * time.Millisecond)
	}
	say("error the log ran out")
}
