package server

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mafia/client"
	"mafia/internal/freeport"
	"mafia/store/sqlite"
	"mafia/wire"
)

// TestCrash_KillNineMidGameThenResume plays an 11-seat game against the real
// binary, kills it with SIGKILL in the middle of a speech on day 1 or later,
// starts it again on the same file and port, reconnects every seat with its
// token and ?since=, and plays on to the end. Nothing accepted is lost, every
// seat's events run on exactly, and the speech in progress at the crash ends
// on its resumed clock: neither at once nor after a fresh full length.
func TestCrash_KillNineMidGameThenResume(t *testing.T) {
	t.Parallel()
	bin := buildMafia(t)
	db := filepath.Join(t.TempDir(), "mafia.db")
	addr := freeAddr(t)
	ctx := within(t, 3*time.Minute)
	srv := startMafia(ctx, t, bin, addr, db)
	api := &client.API{Base: "http://" + addr}

	// The crash comes halfway through a 24 s speech: the restart and the
	// reconnects have the 12 s left to find the speech still running, and
	// a fresh speech (24 s from the restart) stays told apart from the time
	// left however long the restart takes up to 12 s (an 8 s speech with
	// 4.5 s gone ran out of both under a loaded CI box: the test is of what
	// is resumed, not of how fast).
	const speech, crashAt = 24000, 12000 // ms
	timings := map[string]int64{"speech": speech, "defence": 3000, "tie_speech": 3000, "last_words": 3000, "night": 300, "vote": 3000}
	// No stand-ins: every seat is the test's own, and a seat whose
	// reconnect after the restart came past the default 20 s grace (on a
	// machine at a load of 30) was played by a bot, whose commands
	// nobody saw accepted.
	never := int64(0)
	tb := newTable(ctx, t, api, client.CreateRequest{Name: "crash", Players: 11, TimingsMS: timings, StandInMS: &never}, seatsUpTo(11), 7)
	spectator := newPlayer(api.Base, tb.id, "", 0, 0)
	everyone := append([]*player{spectator}, tb.players...)
	for _, p := range everyone {
		if _, err := p.connect(ctx); err != nil {
			t.Fatalf("seat %d: %v", p.seat, err)
		}
	}
	if err := tb.players[0].call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}

	// One speaker, once dozens of commands have been accepted, keeps the
	// floor (sends nothing) until its speech ends on the clock.
	type stall struct {
		seat, round int
		deadline    int64 // Unix ms, from the frame that gave it the floor
	}
	var accepted atomic.Int64
	var claimed atomic.Bool
	stalled := make(chan stall, 1)
	released := make(chan time.Time, 1)
	for _, p := range tb.players {
		holding, round := false, 0
		p.onFrame = func(p *player, m wire.ServerMessage) {
			if m.Type == "reply" {
				accepted.Add(1)
			}
		}
		p.hold = func(p *player) bool {
			v := p.view
			mine := v.Phase == "speech" && v.Speaker == p.seat
			if holding {
				if mine && v.Round == round {
					return true
				}
				holding = false
				released <- time.Now()
				return false
			}
			if mine && accepted.Load() >= 24 && claimed.CompareAndSwap(false, true) {
				holding, round = true, v.Round
				stalled <- stall{seat: p.seat, round: v.Round, deadline: p.deadline}
				return true
			}
			return false
		}
	}

	errs := playAll(ctx, everyone)
	var st stall
	select {
	case st = <-stalled:
	case err := <-errs.done:
		t.Fatalf("the game ended before the crash (%v); accepted %d", err, accepted.Load())
	}
	t.Logf("seat %d holds its speech of day %d after %d accepted commands", st.seat, st.round, accepted.Load())
	if st.deadline == 0 {
		t.Fatal("the speech came without a deadline")
	}
	// A wait on the real server clock: halfway through the speech.
	time.Sleep(time.Until(time.UnixMilli(st.deadline - speech + crashAt)))
	srv.kill(t)
	killed := time.Now()
	<-errs.done // every connection broke
	acceptedBefore := 0
	for _, p := range everyone {
		if p.ended() {
			t.Fatalf("seat %d saw the end before the crash", p.seat)
		}
		acceptedBefore += len(p.accepted)
	}

	spawned := time.Now()
	srv = startMafia(ctx, t, bin, addr, db)
	var holder *player
	// The holder first: its welcome must come while the speech's time left
	// (12 s or so) still runs, whatever the other reconnects cost.
	var order []*player
	for _, p := range everyone {
		if p.seat == st.seat {
			order = append([]*player{p}, order...)
		} else {
			order = append(order, p)
		}
	}
	for _, p := range order {
		since := len(p.events)
		w, err := p.connect(ctx)
		if err != nil {
			t.Fatalf("seat %d: reconnect with since=%d: %v", p.seat, since, err)
		}
		if p.seqErr != nil {
			t.Fatal(p.seqErr)
		}
		if w.View == nil || w.View.Seat != p.seat {
			t.Fatalf("seat %d: the welcome after the restart has no view of its seat: %+v", p.seat, w.View)
		}
		if p.seat == st.seat {
			holder = p
		}
	}
	left := holder.deadline - spawned.UnixMilli()
	floor := st.deadline - killed.UnixMilli() // the least time that was left
	t.Logf("speech deadline before the crash %d, after %d; %d ms left at the kill, %d ms after the restart began",
		st.deadline, holder.deadline, floor, left)
	if holder.view.Phase != "speech" || holder.view.Speaker != st.seat {
		t.Fatalf("after the restart the held speech is over already: phase %s speaker %d", holder.view.Phase, holder.view.Speaker)
	}
	if left < floor-5 || left >= speech {
		t.Errorf("the resumed speech ends %d ms after the restart began; want at least %d (what was left at the kill) and under %d (a fresh speech)", left, floor, speech)
	}

	errs = playAll(ctx, everyone)
	if err := <-errs.done; err != nil {
		t.Fatal(err)
	}
	select {
	case end := <-released:
		// Not before the time that was left. How soon after is the
		// machine's business (a loaded CI box once took 10 s): that the
		// step resumed with the time left, not a fresh one, is the
		// deadline's check above.
		took := end.Sub(spawned).Milliseconds()
		t.Logf("the held speech ended %d ms after the restart began", took)
		if took < floor-5 {
			t.Errorf("the held speech ended %d ms after the restart began, before the %d ms that were left", took, floor)
		}
	default:
		t.Fatal("the held speech never ended")
	}

	winner := tb.players[0].view.Winner
	total := 0
	for _, p := range everyone {
		if p.seqErr != nil {
			t.Error(p.seqErr)
		}
		if !p.ended() || p.view.Winner == "" || p.view.Winner != winner {
			t.Fatalf("seat %d: phase %s winner %q, seat 1 saw %q", p.seat, p.view.Phase, p.view.Winner, winner)
		}
		total += len(p.accepted)
		// A fresh connection gets the whole list: the same as this seat's
		// own, which was pieced together across the crash.
		fresh := newPlayer(api.Base, tb.id, p.token, p.seat, 0)
		if _, err := fresh.connect(ctx); err != nil {
			t.Fatalf("seat %d: fresh welcome: %v", p.seat, err)
		}
		fresh.c.close()
		if err := sameEvents(p.events, fresh.events); err != nil {
			t.Errorf("seat %d: events across the crash vs a fresh welcome: %v", p.seat, err)
		}
	}
	t.Logf("winner %s; %d commands accepted (%d before the crash)", winner, total, acceptedBefore)

	srv.stop(t)
	st2, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	log, err := st2.Events(ctx, tb.id)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) == 0 || log[len(log)-1].Kind.String() != "game_ended" {
		t.Fatalf("the stored log (%d events) does not end with the result", len(log))
	}
	// Every accepted command is in the log as its event; the log may hold a
	// few more, whose answers a broken connection lost.
	inLog := map[string]int{}
	for _, e := range log {
		w := wire.FromEvent(e, 11)
		if w.Kind == "mafia_chose" && w.Target == 0 {
			continue // a mafioso's skip tells the team too; "skipped" stands for it
		}
		yes := w.Yes != nil && *w.Yes
		inLog[cmdKey(w.Kind, w.Actor, w.Target, yes)]++
	}
	want := map[string]int{}
	inFlight := 0
	for _, p := range tb.players {
		for _, m := range p.accepted {
			if k := eventOf(m); k != "" {
				want[cmdKey(k, p.seat, m.Target, m.Yes)]++
			}
		}
		inFlight += len(p.inFlight)
	}
	extra := 0
	var extras []string
	for k, n := range want {
		if inLog[k] < n {
			t.Errorf("accepted %d× %q, the log has %d", n, k, inLog[k])
		}
	}
	for k, n := range inLog {
		if strings.HasPrefix(k, "mafia_chose") || strings.HasPrefix(k, "checked") || strings.HasPrefix(k, "shot") ||
			strings.HasPrefix(k, "healed") || strings.HasPrefix(k, "skipped") || strings.HasPrefix(k, "nominated") ||
			strings.HasPrefix(k, "vote_cast") || strings.HasPrefix(k, "all_vote_cast") {
			if n > want[k] {
				extra += n - want[k]
				extras = append(extras, k)
			}
		}
	}
	if extra > inFlight {
		t.Errorf("the log has %d command events nobody saw accepted (%v), but only %d requests were in flight at the crash", extra, extras, inFlight)
	}
	// What each seat was sent is exactly its share of the stored log.
	for _, p := range everyone {
		if err := sameEvents(p.events, seatEvents(t, log, p.seat)); err != nil {
			t.Errorf("seat %d: events received vs the stored log: %v", p.seat, err)
		}
	}
}

// playRun collects the players' errors: done gets the first error (or nil)
// once every player has returned.
type playRun struct{ done chan error }

// playAll plays every player in its own goroutine until the end of the game
// or until its connection breaks.
func playAll(ctx context.Context, ps []*player) playRun {
	r := playRun{done: make(chan error, 1)}
	var wg sync.WaitGroup
	errs := make([]error, len(ps))
	for i, p := range ps {
		wg.Add(1)
		p.stopped = make(chan struct{})
		go func() {
			defer wg.Done()
			defer close(p.stopped)
			if err := p.play(ctx); err != nil {
				errs[i] = fmt.Errorf("seat %d: %w", p.seat, err)
			}
			p.c.close()
		}()
	}
	go func() {
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				r.done <- err
				return
			}
		}
		r.done <- nil
	}()
	return r
}

func seatsUpTo(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// buildMafia returns the binary, built into a temporary folder at the
// first call (or by prebuild). Under the race detector it skips the test:
// the server there is the built binary, a child process the detector is
// not in, and the test's own side (its players) is what every other test
// of the package drives in process, where it is; the README's go test
// ./... runs these tests (as CI's race step leaves out cmd/mafia's, whose
// tests drive the binary too).
func buildMafia(t *testing.T) string {
	t.Helper()
	if raceOn {
		t.Skip("the server is the built binary, a child process without the race detector: runs in go test ./... (no -race)")
	}
	built.once.Do(build)
	if built.skip != "" {
		t.Skip(built.skip)
	}
	if built.err != "" {
		t.Fatal(built.err)
	}
	return built.bin
}

// build builds the binary into a temporary folder (under built.once).
func build() {
	goBin, err := exec.LookPath("go")
	if err != nil {
		built.skip = "no go command to build the binary with"
		return
	}
	dir, err := os.MkdirTemp("", "mafia-server-test-")
	if err != nil {
		built.err = err.Error()
		return
	}
	built.dir = dir
	built.bin = filepath.Join(dir, "mafia")
	cmd := exec.Command(goBin, "build", "-o", built.bin, "./cmd/mafia")
	if built.early != nil {
		// Beside the package's serial tests: below them.
		if nice, err := exec.LookPath("nice"); err == nil {
			cmd = exec.Command(nice, "-n", "10", goBin, "build", "-o", built.bin, "./cmd/mafia")
		}
	}
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		built.err = fmt.Sprintf("go build: %v\n%s", err, out)
	}
}

// prebuild starts building the binary at once when the whole package runs
// (no -test.run): the two tests that use it are parallel, so they start
// only after every serial test, and waited there for the build, a link of
// the whole program (TestLock_ASecondServerOnTheSameFileRefusesToStart
// took 25 s, most of it waiting for the build, at load 26; 4 s with it
// built beside the serial tests). TestMain waits for it (afterBuild).
// Not under the race detector, where those tests skip (buildMafia).
func prebuild() {
	if f := flag.Lookup("test.run"); raceOn || f == nil || f.Value.String() != "" {
		return
	}
	built.early = make(chan struct{})
	go func() {
		defer close(built.early)
		built.once.Do(build)
	}()
}

// afterBuild waits for prebuild's build, if one was started, and removes
// the binary's folder.
func afterBuild() {
	if built.early != nil {
		<-built.early
	}
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// built is the binary build built, once for the package's tests (a build
// and a link of the whole program each time cost the tests that use it
// tens of seconds on a 2-core machine); TestMain removes its folder.
var built struct {
	once      sync.Once
	early     chan struct{} // closed when prebuild's build is done; nil without one
	dir, bin  string
	skip, err string
}

// freeAddr returns a loopback address with a port nobody listens on now,
// outside the range from which other listeners take theirs
// (internal/freeport): the server is restarted on it.
func freeAddr(t *testing.T) string {
	t.Helper()
	addr, err := freeport.Addr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// mafiaProc is a running `mafia serve`.
type mafiaProc struct {
	cmd    *exec.Cmd
	out    *syncBuffer
	exited chan struct{}
}

// syncBuffer is a bytes.Buffer safe for the process's writers and the test.
type syncBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	ready chan struct{} // closed once "serving on" was written
	seen  bool
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.b.Write(p)
	if !s.seen && strings.Contains(s.b.String(), "serving on") {
		s.seen = true
		close(s.ready)
	}
	return n, err
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startMafia starts `mafia serve` and waits until it listens.
func startMafia(ctx context.Context, t *testing.T, bin, addr, db string) *mafiaProc {
	t.Helper()
	out := &syncBuffer{ready: make(chan struct{})}
	// Every seat is played from loopback: no limit of seats per address.
	cmd := exec.Command(bin, "serve", "--addr", addr, "--db", db, "--log", "warn", "--seats-per-address", "0")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &mafiaProc{cmd: cmd, out: out, exited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = cmd.Process.Kill()
			<-p.exited
		}
		if t.Failed() {
			t.Logf("mafia serve (pid %d) said:\n%s", cmd.Process.Pid, out.String())
		}
	})
	select {
	case <-out.ready:
	case <-p.exited:
		t.Fatalf("mafia serve exited at start:\n%s", out.String())
	case <-ctx.Done():
		t.Fatalf("mafia serve did not start:\n%s", out.String())
	}
	return p
}

// kill sends SIGKILL and waits for the process to be gone.
func (p *mafiaProc) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-p.exited
}

// stop asks the process to shut down (SIGINT) and waits for it.
func (p *mafiaProc) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		t.Fatal("mafia serve did not stop on SIGINT")
	}
	if !p.cmd.ProcessState.Success() {
		t.Errorf("mafia serve stopped with %v:\n%s", p.cmd.ProcessState, p.out.String())
	}
}
