package server

import (
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mafia/client"
)

// TestLock_ASecondServerOnTheSameFileRefusesToStart runs two real `mafia
// serve` processes on one database file: the second exits at once, non-zero,
// saying which file, that another server holds it and that server's pid,
// and the first serves on untouched. Once the first is killed with SIGKILL
// (it releases nothing itself), a server starts on the file at once.
func TestLock_ASecondServerOnTheSameFileRefusesToStart(t *testing.T) {
	t.Parallel()
	bin := buildMafia(t)
	db := filepath.Join(t.TempDir(), "mafia.db")
	ctx := within(t, time.Minute)
	addr := freeAddr(t)
	first := startMafia(ctx, t, bin, addr, db)
	api := &client.API{Base: "http://" + addr}
	created, err := api.Create(ctx, client.CreateRequest{Name: "first", Players: 5})
	if err != nil {
		t.Fatal(err)
	}

	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	second := exec.CommandContext(cctx, bin, "serve", "--addr", freeAddr(t), "--db", db)
	out, err := second.CombinedOutput()
	if err == nil {
		t.Fatalf("a second server on the same file started (and stopped cleanly):\n%s", out)
	}
	if cctx.Err() != nil {
		t.Fatalf("the second server did not exit: it runs beside the first:\n%s", out)
	}
	if code := second.ProcessState.ExitCode(); code != 1 {
		t.Errorf("the second server exited with %d, want 1", code)
	}
	for _, want := range []string{db, "in use by another server", fmt.Sprintf("pid %d", first.cmd.Process.Pid)} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the second server's message lacks %q:\n%s", want, out)
		}
	}
	t.Logf("the second server said:\n%s", out)

	// The first is untouched: it still answers, with its table.
	if _, err := api.Table(ctx, created.Table); err != nil {
		t.Fatalf("the first server after the second's attempt: %v", err)
	}
	resp, err := http.Get(api.Base + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the first server's health: %v %v", resp, err)
	}
	resp.Body.Close()

	first.kill(t)
	third := startMafia(ctx, t, bin, addr, db)
	if _, err := api.Table(ctx, created.Table); err != nil {
		t.Fatalf("the server started after a kill -9 does not have the table: %v", err)
	}
	third.stop(t)
}
