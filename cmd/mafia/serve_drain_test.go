package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mafia/client"
)

// TestServeHelperProcess is `mafia serve` in a process of its own for the
// drain's tests (it does nothing in a plain test run): its arguments come
// in MAFIA_SERVE_ARGS, one a line.
func TestServeHelperProcess(t *testing.T) {
	args := os.Getenv("MAFIA_SERVE_ARGS")
	if args == "" {
		return
	}
	os.Exit(runServe(strings.Split(args, "\n"), nil, os.Stdout, os.Stderr))
}

// servedProcess is a `mafia serve` process on loopback.
type servedProcess struct {
	cmd    *exec.Cmd
	api    *client.API
	mu     sync.Mutex
	stderr strings.Builder
	done   chan error
}

// startServe starts `mafia serve` in a process of its own on a fresh
// file, with extra flags, and returns once it serves.
func startServe(ctx context.Context, t *testing.T, extra ...string) *servedProcess {
	t.Helper()
	args := append([]string{"--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "m.db"), "--log", "info",
		"--unlimited", "127.0.0.1", "--seats-per-address", "0"}, extra...)
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeHelperProcess$")
	cmd.Env = append(os.Environ(), "MAFIA_SERVE_ARGS="+strings.Join(args, "\n"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errp, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &servedProcess{cmd: cmd, done: make(chan error, 1)}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	var copied sync.WaitGroup
	copied.Add(1)
	go func() {
		defer copied.Done()
		sc := bufio.NewScanner(errp)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
		}
	}()
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "mafia: serving on "); ok {
				addr <- a
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	go func() {
		copied.Wait()
		p.done <- cmd.Wait()
	}()
	select {
	case a := <-addr:
		p.api = &client.API{Base: a}
	case err := <-p.done:
		p.done <- err
		t.Fatalf("serve exited before serving: %v\n%s", err, p.log())
	case <-ctx.Done():
		t.Fatalf("serve did not start:\n%s", p.log())
	}
	return p
}

func (p *servedProcess) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// readyz is /readyz's status and body.
func (p *servedProcess) readyz(t *testing.T) (int, string) {
	t.Helper()
	resp, err := http.Get(p.api.Base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// awaitDraining polls /readyz until it says draining.
func (p *servedProcess) awaitDraining(ctx context.Context, t *testing.T) {
	t.Helper()
	for {
		if code, body := p.readyz(t); code == http.StatusServiceUnavailable && strings.Contains(body, "draining") {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("/readyz never said draining:\n%s", p.log())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// wait waits for the process to exit and returns its exit code.
func (p *servedProcess) wait(ctx context.Context, t *testing.T) int {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-ctx.Done():
		t.Fatalf("serve did not exit:\n%s", p.log())
		return -1
	}
}

// liveGame makes a table of seven on the server, seats seven players and
// starts the game; it returns their connections.
func liveGame(ctx context.Context, t *testing.T, api *client.API) []*client.Conn {
	t.Helper()
	timings := map[string]int64{"speech": 5000, "defence": 5000, "tie_speech": 5000, "last_words": 5000, "night": 150, "vote": 400}
	_, conns, _ := startGame(ctx, t, api, api, client.CreateRequest{Name: "drained", Players: 7, TimingsMS: timings})
	return conns
}

// playOut plays a seat to the end of its game with random legal moves,
// through its one connection (seatOnCluster, with no node to reconnect
// to).
func playOut(ctx context.Context, c *client.Conn, seed uint64) error {
	p := &seatOnCluster{c: c, closes: map[string]int{}}
	return p.play(ctx, seed)
}

// TestServe_DrainsOnSIGTERMUntilNoGameIsPlaying runs `mafia serve` as a
// process on loopback with a game in play and sends it SIGTERM: /readyz
// turns 503 draining, a new table is refused with draining, the game is
// played to its end by its seven players with no error, and the server then
// exits 0 by itself, saying it drained (well before its minute of
// --drain-timeout). A second one, sent SIGTERM twice, stops at the second
// with its game still playing.
func TestServe_DrainsOnSIGTERMUntilNoGameIsPlaying(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t.Run("the games end", func(t *testing.T) {
		p := startServe(ctx, t, "--drain-timeout", "1m")
		conns := liveGame(ctx, t, p.api)
		if code, body := p.readyz(t); code != http.StatusOK || body != "ready\n" {
			t.Fatalf("/readyz before: %d %q", code, body)
		}
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		p.awaitDraining(ctx, t)
		var ce *client.Error
		if _, err := p.api.Create(ctx, client.CreateRequest{Name: "late", Players: 7}); !errors.As(err, &ce) || ce.Code != "draining" || ce.Status != http.StatusServiceUnavailable {
			t.Errorf("a new table while draining: %v", err)
		}
		if err := playAll(ctx, conns); err != nil {
			t.Errorf("a player during the drain: %v", err)
		}
		if code := p.wait(ctx, t); code != 0 {
			t.Errorf("serve exited %d:\n%s", code, p.log())
		}
		if l := p.log(); !strings.Contains(l, "drained: no game is playing") || !strings.Contains(l, `"msg":"draining: no new tables"`) {
			t.Errorf("the log does not say it drained:\n%s", l)
		}
	})
	t.Run("a second signal", func(t *testing.T) {
		p := startServe(ctx, t, "--drain-timeout", "1m")
		liveGame(ctx, t, p.api)
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		p.awaitDraining(ctx, t)
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if code := p.wait(ctx, t); code != 0 {
			t.Errorf("serve exited %d:\n%s", code, p.log())
		}
		if l := p.log(); !strings.Contains(l, "drain cut short by a second signal") || !strings.Contains(l, "games still playing") {
			t.Errorf("the log does not say the drain was cut short:\n%s", l)
		}
	})
}
