package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServe_VoiceFlagsThatCannotWorkAreRefusedPlainly: the STUN/TURN flags
// are checked when serve starts, each mistake said in a sentence that names
// the flag; the good combinations start (and close) their ports.
func TestServe_VoiceFlagsThatCannotWorkAreRefusedPlainly(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "turn-secret")
	if err := os.WriteFile(secret, []byte("a shared secret of the operator's TURN\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string // "" : it starts
	}{
		{"TURN without voice", []string{"--turn-udp", "127.0.0.1:0"}, "need --voice-udp"},
		{"external servers without voice", []string{"--voice-ice-servers", "stun:example.ge:3478"}, "need --voice-udp"},
		{"both TURNs", []string{"--voice-udp", "127.0.0.1:0", "--turn-udp", "127.0.0.1:0", "--voice-ice-servers", "turn:example.ge"}, "name one"},
		{"TURN on every address without its public IP", []string{"--voice-udp", "127.0.0.1:0", "--turn-udp", ":0"}, "--turn-public-ip"},
		{"a public IP that is none", []string{"--voice-udp", "127.0.0.1:0", "--turn-udp", "127.0.0.1:0", "--turn-public-ip", "turn.example.ge"}, "no IP address"},
		{"relay ports backwards", []string{"--voice-udp", "127.0.0.1:0", "--turn-udp", "127.0.0.1:0", "--turn-relay-ports", "50010-50000"}, "--turn-relay-ports"},
		{"an empty secret file", []string{"--voice-udp", "127.0.0.1:0", "--voice-ice-servers", "turn:example.ge:3478", "--voice-turn-secret", empty}, "first line is empty"},
		{"a secret file missing", []string{"--voice-udp", "127.0.0.1:0", "--voice-ice-servers", "turn:example.ge:3478", "--voice-turn-secret", empty + ".none"}, "--voice-turn-secret"},
		{"an external server's URL that is none", []string{"--voice-udp", "127.0.0.1:0", "--voice-ice-servers", "turn.example.ge:3478"}, "no stun:"},
		{"an external TURN without its secret", []string{"--voice-udp", "127.0.0.1:0", "--voice-ice-servers", "turn:turn.example.ge:3478"}, "--voice-turn-secret"},
		{"an external STUN alone", []string{"--voice-udp", "127.0.0.1:0", "--voice-ice-servers", "stun:stun.example.ge:3478"}, ""},
		{"the built-in TURN", []string{"--voice-udp", "127.0.0.1:0", "--turn-udp", "127.0.0.1:0", "--turn-relay-ports", "50000-50010"}, ""},
		{"an external TURN", []string{"--voice-udp", "127.0.0.1:0", "--voice-ice-servers", "turn:example.ge:3478", "--voice-turn-secret", secret}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _, ok := parseServeFlags(tc.args, io.Discard)
			if !ok {
				t.Fatalf("the flags %v did not parse", tc.args)
			}
			sv := &serve{f: f, log: slog.New(slog.DiscardHandler)}
			hub, err := sv.openVoice()
			defer func() {
				for i := len(sv.closers) - 1; i >= 0; i-- {
					sv.closers[i]()
				}
			}()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want == "" && hub == nil:
				t.Fatal("no voice")
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error naming %q", err, tc.want)
			}
		})
	}
}
