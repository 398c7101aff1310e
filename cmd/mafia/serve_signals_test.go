package main

import (
	"flag"
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
