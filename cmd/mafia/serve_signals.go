package main

import (
	"flag"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// nodeDrainTimeout is --drain-timeout's default for a cluster's node
// (--node): handing every live table to the other nodes takes longer than
// a single server's wait for its games to go quiet (docs/cluster.md).
const nodeDrainTimeout = 30 * time.Second

// drainTimeoutOf is the drain's timeout: --drain-timeout as given, else
// nodeDrainTimeout for a cluster's node, else the flag's default (d).
func drainTimeoutOf(fs *flag.FlagSet, node bool, d time.Duration) time.Duration {
	if node && !flagSet(fs, "drain-timeout") {
		return nodeDrainTimeout
	}
	return d
}

// ignoreHangup keeps SIGHUP from killing the server without a word (its
// default action): `mafia serve` reloads nothing, so each SIGHUP is logged
// and ignored; SIGTERM (or SIGINT) drains and stops it. The function it
// returns stops listening.
func ignoreHangup(log *slog.Logger) func() {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-hup:
				log.Warn("SIGHUP received and ignored: mafia serve reloads nothing (restart it to change its flags); SIGTERM drains and stops it")
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(hup)
		close(done)
	}
}
