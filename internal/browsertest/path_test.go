package browsertest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPathPrefersTheHeadlessShellToChromium pins which browser the tests
// start: $MAFIA_CHROMIUM when set (a missing path is no browser), else the
// headless shell before chromium, each found on the PATH or in /usr/bin.
func TestPathPrefersTheHeadlessShellToChromium(t *testing.T) {
	onPath, inUsrBin := t.TempDir(), t.TempDir()
	install := func(dir, name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Setenv("PATH", onPath)
	usrBin = inUsrBin
	t.Cleanup(func() { usrBin = "/usr/bin" })

	for _, c := range []struct {
		rule      string
		env       string   // $MAFIA_CHROMIUM; "" unset
		path, usr []string // installed on the PATH, in /usr/bin
		want      string   // Path's, as path/name or usr/name
	}{
		{rule: "no browser: none"},
		{rule: "both on the PATH: the shell",
			path: []string{"chromium", "chromium-headless-shell"},
			want: "path/chromium-headless-shell"},
		{rule: "only chromium: chromium", path: []string{"chromium"},
			want: "path/chromium"},
		{rule: "only the shell: the shell", usr: []string{"chromium-headless-shell"},
			want: "usr/chromium-headless-shell"},
		{rule: "Google's shell's name counts", path: []string{"chromium-browser", "chrome-headless-shell"},
			want: "path/chrome-headless-shell"},
		{rule: "the shell in /usr/bin before chromium on the PATH",
			path: []string{"chromium"}, usr: []string{"chromium-headless-shell"},
			want: "usr/chromium-headless-shell"},
		{rule: "$MAFIA_CHROMIUM names the browser", env: "usr/other",
			path: []string{"chromium-headless-shell"}, usr: []string{"other"},
			want: "usr/other"},
		{rule: "$MAFIA_CHROMIUM naming nothing: no browser", env: "usr/none",
			path: []string{"chromium-headless-shell", "chromium"}, want: ""},
	} {
		t.Run(c.rule, func(t *testing.T) {
			for _, dir := range []string{onPath, inUsrBin} {
				entries, _ := os.ReadDir(dir)
				for _, e := range entries {
					os.Remove(filepath.Join(dir, e.Name()))
				}
			}
			for _, n := range c.path {
				install(onPath, n)
			}
			for _, n := range c.usr {
				install(inUsrBin, n)
			}
			real := func(s string) string {
				if s == "" {
					return ""
				}
				dir, name := filepath.Split(s)
				if dir == "path/" {
					return filepath.Join(onPath, name)
				}
				return filepath.Join(inUsrBin, name)
			}
			t.Setenv("MAFIA_CHROMIUM", real(c.env))
			if got := Path(); got != real(c.want) {
				t.Errorf("Path() = %q, want %q", got, real(c.want))
			}
		})
	}
}
