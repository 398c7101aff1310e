package main

import (
	"context"
	"flag"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServe_DrainTimeoutIs30sForANodeUnlessGiven pins --drain-timeout's
// default: 5 s for a single server, 30 s for a cluster's node (--node),
// and what the operator gives in either case.
func TestServe_DrainTimeoutIs30sForANodeUnlessGiven(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		node bool
		want time.Duration
	}{
		{"a single server", nil, false, 5 * time.Second},
		{"a node", nil, true, 30 * time.Second},
		{"a node given 12s", []string{"--drain-timeout", "12s"}, true, 12 * time.Second},
		{"a node given 5s", []string{"--drain-timeout", "5s"}, true, 5 * time.Second},
		{"a single server given 0", []string{"--drain-timeout", "0"}, false, 0},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		d := fs.Duration("drain-timeout", 5*time.Second, "")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if got := drainTimeoutOf(fs, c.node, *d); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestServe_SIGHUPIsLoggedAndIgnored runs `mafia serve` as a process and
// sends it SIGHUP (a closed terminal, an operator expecting a reload): it
// logs a line saying it ignored it and serves on (/readyz 200); SIGTERM
// then stops it as usual, with exit code 0.
func TestServe_SIGHUPIsLoggedAndIgnored(t *testing.T) {
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
