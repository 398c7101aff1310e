package puritytest_test

import (
	"os"
	"path/filepath"
	"testing"

	"mafia/internal/puritytest"
)

// TestPurity_CheckerCatchesImpureSource proves the checker above can fail:
// each snippet breaks purity once and must be reported.
func TestPurity_CheckerCatchesImpureSource(t *testing.T) {
	for name, src := range map[string]string{
		"time":        `import "time"; func f() { _ = time.Now() }`,
		"os":          `import "os"; var _ = os.Args`,
		"global rand": `import "math/rand/v2"; var _ = rand.IntN(3)`,
		"sync":        `import "sync"; var _ sync.Mutex`,
		"unlisted":    `import "encoding/json"; var _ = json.Valid`,
		"goroutine":   `func f() { go f() }`,
		"channel":     `func f() { c := make(chan int); _ = c }`,
		"select":      `func f() { select {} }`,
		"print":       `import "fmt"; func f() { fmt.Println() }`,
		"renamed":     `import p "fmt"; func f() { p.Printf("") }`,
		"builtin":     `func f() { println() }`,
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n"+src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		problems, err := puritytest.CheckDir("x", dir)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(problems) == 0 {
			t.Errorf("%s: the checker found nothing in %s", name, src)
		}
	}
	dir := t.TempDir()
	pure := `import ("fmt"; "math/bits"); func f() string { return fmt.Sprint(bits.Len(3)) }`
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n"+pure+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if problems, err := puritytest.CheckDir("x", dir); err != nil || len(problems) != 0 {
		t.Errorf("pure source reported: %v %v", problems, err)
	}
}
