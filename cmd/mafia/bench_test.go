package main

import (
	"bytes"
	"flag"
	"fmt"
	"strings"
	"testing"
)

// TestBenchServerFlag_CommaSeparatedOrRepeated: --server takes one URL or
// several, comma-separated or with the flag repeated, trailing slashes cut;
// an empty one is refused.
func TestBenchServerFlag_CommaSeparatedOrRepeated(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	var l serverList
	fs.Var(&l, "server", "")
	if err := fs.Parse([]string{"--server", "http://a:1/,http://b:2", "--server", "http://c:3"}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(l); got != "[http://a:1 http://b:2 http://c:3]" {
		t.Errorf("servers %s", got)
	}
	var e serverList
	if err := e.Set("http://a:1,,http://b:2"); err == nil {
		t.Error("an empty URL in the list was taken")
	}
}

// TestBenchOpsFlag_InTheOrderOfTheServers: --ops takes the operator
// addresses comma-separated, one left empty for a server without.
func TestBenchOpsFlag_InTheOrderOfTheServers(t *testing.T) {
	if got := fmt.Sprintf("%q", opsList("http://a:9/, ,http://c:9")); got != `["http://a:9" "" "http://c:9"]` {
		t.Errorf("opsList: %s", got)
	}
	if opsList(" ") != nil {
		t.Error("no --ops made operator addresses")
	}
}

// TestBench_UnknownSpreadIsAUsageError: --spread is "tables" or "seats".
func TestBench_UnknownSpreadIsAUsageError(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runBench([]string{"--spread", "rooms", "--server", "http://127.0.0.1:1"}, nil, &out, &errb); code != 2 {
		t.Fatalf("exit %d, want 2; stderr %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), `--spread "rooms"`) {
		t.Errorf("stderr: %s", errb.String())
	}
}

// TestBench_FailoverFlag: --failover takes a wait (its help says what it
// does), and a negative one is a usage error.
func TestBench_FailoverFlag(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runBench([]string{"--failover", "-1s", "--server", "http://127.0.0.1:1"}, nil, &out, &errb); code != 2 {
		t.Fatalf("exit %d, want 2; stderr %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "--failover WAIT") || !strings.Contains(errb.String(), "take its seat back") {
		t.Errorf("the usage does not explain --failover: %s", errb.String())
	}
}
