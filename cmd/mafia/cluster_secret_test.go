package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clusterSecret writes a cluster secret file for the nodes of one test and
// returns its path.
func clusterSecret(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cluster-secret")
	if err := os.WriteFile(p, []byte("# the test's cluster\n"+strings.Repeat("5ec7e7", 11)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestServeNodeNeedsTheClusterSecret (issue 25): a node with neither
// --cluster-secret nor --cluster-insecure does not start, and says why;
// nor with a secret too short, nor with half of the route TLS flags, nor
// with a --node-url that is no http(s) URL of the node.
func TestServeNodeNeedsTheClusterSecret(t *testing.T) {
	short := filepath.Join(t.TempDir(), "short")
	if err := os.WriteFile(short, []byte("hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pg := "postgres://mafia@127.0.0.1:1/mafia"
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no secret", nil, "--node needs --cluster-secret FILE"},
		{"a short secret", []string{"--cluster-secret", short}, "at least 32 characters"},
		{"a missing file", []string{"--cluster-secret", filepath.Join(t.TempDir(), "none")}, "--cluster-secret"},
		{"half of TLS", []string{"--cluster-secret", clusterSecret(t), "--cluster-tls-cert", short}, "--cluster-tls-key"},
		{"route TLS with an external NATS", []string{"--cluster-secret", clusterSecret(t), "--nats", "nats://127.0.0.1:4222",
			"--cluster-tls-cert", short, "--cluster-tls-key", short, "--cluster-tls-ca", short}, "secure the external server itself"},
		{"a node URL that is no URL", []string{"--cluster-insecure", "--node-url", "n2.mafia.example"}, "--node-url"},
		{"a node URL with a query", []string{"--cluster-insecure", "--node-url", "https://n2.mafia.example/?a=1"}, "--node-url"},
	} {
		var stdout, stderr strings.Builder
		code := runServe(append([]string{"--addr", "127.0.0.1:0", "--log", "warn", "--db", pg, "--node", "n1"}, c.args...), nil, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%s: exit %d, want 2 saying %q:\n%s", c.name, code, c.want, stderr.String())
		}
	}
}
