//go:build unix

package main

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"mafia/client"
)

// TestServe_SIGHUPIsLoggedAndIgnored runs `mafia serve` as a process and
// sends it SIGHUP (a closed terminal, an operator expecting a reload): it
// logs a line saying it ignored it and serves on (/readyz 200); SIGTERM
// then stops it as usual, with exit code 0.
func TestServe_SIGHUPIsLoggedAndIgnored(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p := startServe(ctx, t)
	if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	for !strings.Contains(p.log(), "SIGHUP received and ignored") {
		select {
		case err := <-p.done:
			p.done <- err
			t.Fatalf("serve exited on SIGHUP (%v):\n%s", err, p.log())
		case <-ctx.Done():
			t.Fatalf("no log line for SIGHUP:\n%s", p.log())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if code, body := p.readyz(t); code != http.StatusOK {
		t.Fatalf("/readyz after SIGHUP: %d %s", code, body)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(ctx, t); code != 0 {
		t.Fatalf("exit code %d after SIGTERM:\n%s", code, p.log())
	}
}

// TestServe_APausedServersClientsKnowWithin5s runs `mafia serve` as a
// process, seats a player and stops the process (SIGSTOP, as a GC or VM
// stall or an operator would): the player's connection, whose server
// pings it every 2 s, is taken as lost (client.ErrSilent) within 5 s,
// instead of hanging until the process is continued.
func TestServe_APausedServersClientsKnowWithin5s(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p := startServe(ctx, t)
	created, err := p.api.Create(ctx, client.CreateRequest{Name: "paused", Players: 5})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.api.Join(ctx, created.Table, "Nino", 1, created.HostToken); err != nil {
		t.Fatal(err)
	}
	c, err := p.api.Dial(ctx, created.Table, created.HostToken, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := p.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	defer func() { _ = p.cmd.Process.Signal(syscall.SIGCONT) }()
	rctx, rcancel := context.WithTimeout(ctx, 5*time.Second+client.DefaultSilence/10)
	defer rcancel()
	for err == nil { // frames already on their way, then silence
		_, err = c.Read(rctx)
	}
	t.Logf("the client took the connection as lost %v after SIGSTOP: %v", time.Since(stopped).Round(time.Millisecond), err)
	if !errors.Is(err, client.ErrSilent) {
		t.Fatalf("a read from a stopped server: %v, want client.ErrSilent within 5 s", err)
	}
}
