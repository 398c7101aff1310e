package puritytest

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoGoroutine_EveryPackageCILeavesOutOfTheRaceStep: each package of
// .ci/nogoroutine, which CI's race step leaves out, runs its tests on one
// goroutine (NoGoroutine): a goroutine added to one of them, or to a
// project package it imports, fails here until the package goes back to
// the race step (its line taken out of the file).
func TestNoGoroutine_EveryPackageCILeavesOutOfTheRaceStep(t *testing.T) {
	f, err := os.Open("../../.ci/nogoroutine")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		pkg := strings.TrimSpace(sc.Text())
		if pkg == "" || strings.HasPrefix(pkg, "#") {
			continue
		}
		n++
		t.Run(pkg, func(t *testing.T) {
			problems, err := NoGoroutine("../..", pkg)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Error(p)
			}
		})
	}
	if n == 0 {
		t.Fatal(".ci/nogoroutine lists no package")
	}
}

// TestNoGoroutine_FindsEachWayToStartOne: each way a package or its
// tests could run code on a second goroutine is reported, in the package
// itself, in its tests, and in a project package it imports; a package
// without any is not.
func TestNoGoroutine_FindsEachWayToStartOne(t *testing.T) {
	clean := "package x\n\nimport \"strings\"\n\nfunc F(s string) string { return strings.ToUpper(s) }\n"
	for _, tc := range []struct {
		name, file, src, want string
	}{
		{"a go statement", "x.go", "package x\n\nfunc F() { go func() {}() }\n", "starts a goroutine"},
		{"a channel", "x.go", "package x\n\nvar C chan int\n", "channel type"},
		{"a receive", "x.go", "package x\n\nfunc F(c func() int) { _ = c }\nfunc G(c <-chan int) int { return <-c }\n", "receives from a channel"},
		{"a select", "x.go", "package x\n\nfunc F() { select {} }\n", "uses select"},
		{"a parallel test", "x_test.go", "package x\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { t.Parallel() }\n", "t.Parallel"},
		{"a test server", "x_test.go", "package x_test\n\nimport (\n\t\"net/http\"\n\t\"net/http/httptest\"\n)\n\nvar S = httptest.NewServer(http.NotFoundHandler())\n", "httptest.NewServer"},
		{"a server's Serve", "x.go", "package x\n\nimport \"net/http\"\n\nfunc F(s *http.Server) { s.Serve(nil) }\n", "method Serve"},
		{"a timer", "x.go", "package x\n\nimport \"time\"\n\nfunc F() { time.AfterFunc(time.Second, func() {}) }\n", "time.AfterFunc"},
		{"a context's cancel", "x.go", "package x\n\nimport ctx \"context\"\n\nfunc F() { ctx.WithCancel(ctx.Background()) }\n", "context.WithCancel"},
		{"a process", "x.go", "package x\n\nimport \"os/exec\"\n\nvar C = exec.Command\n", `"os/exec"`},
		{"an imported package's goroutine", "x.go", "package x\n\nimport \"mafia/y\"\n\nvar V = y.V\n", "mafia/y starts a goroutine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write := func(dir, name, src string) {
				if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, dir, name), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("y", "y.go", "package y\n\nvar V = 1\n\nfunc init() { go func() {}() }\n")
			if tc.file != "x.go" {
				write("x", "x.go", clean)
			}
			write("x", tc.file, tc.src)
			problems, err := NoGoroutine(root, "mafia/x")
			if err != nil {
				t.Fatal(err)
			}
			if len(problems) == 0 || !strings.Contains(strings.Join(problems, "\n"), tc.want) {
				t.Errorf("want a problem saying %q, got %q", tc.want, problems)
			}
		})
	}
	t.Run("none", func(t *testing.T) {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "x", "x.go"), []byte(clean), 0o644); err != nil {
			t.Fatal(err)
		}
		if problems, err := NoGoroutine(root, "mafia/x"); err != nil || len(problems) != 0 {
			t.Errorf("a package with no goroutine: %q, %v", problems, err)
		}
	})
}
