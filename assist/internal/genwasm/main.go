// Command genwasm builds the host's page's engine (../../wasm) for
// GOOS=js GOARCH=wasm, stripped, and writes it gzipped to
// ../../static/engine.wasm.gz, with Go's wasm_exec.js beside it. It runs from
// `go generate ./assist`; its output is committed, so serving needs no
// build step. The gzip stream has no name or time in its header, so the same
// sources give the same bytes.
//
// Beside the module it writes static/engine.sum: a hash of the Go sources
// compiled into it, and one of the catalog messages it can show (every
// message but the other programs' own: web., play., sim., word.). With
// -check it builds nothing and exits with status 1 when those sources no
// longer give the committed sums, so a change to the engine, the bridge or
// a sentence the host sees needs `go generate ./assist`, and a change to
// another program's strings does not.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "genwasm:", err)
		os.Exit(1)
	}
}

func run() error {
	check := flag.Bool("check", false, "compare the sources with the committed sums instead of building")
	flag.Parse()
	sum, err := Sums()
	if err != nil {
		return err
	}
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return err
	}
	js, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return err
	}
	if *check {
		return compare(sum, js)
	}
	wasm, err := Build()
	if err != nil {
		return err
	}
	gz, err := Gzip(wasm)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join("static", "engine.wasm.gz"), gz, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join("static", "wasm_exec.js"), js, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join("static", "engine.sum"), []byte(sum), 0o644); err != nil {
		return err
	}
	fmt.Printf("genwasm: engine.wasm %d bytes, gzipped %d\n", len(wasm), len(gz))
	return nil
}

// Build compiles ./wasm (relative to the assist folder) and returns the
// module's bytes.
func Build() ([]byte, error) {
	dir, err := os.MkdirTemp("", "genwasm")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "engine.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, "./wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go build ./wasm: %w", err)
	}
	return os.ReadFile(out)
}

// Gzip compresses b at the best level with an empty header.
func Gzip(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// compare checks the committed sums and loader against the sources.
func compare(sum string, js []byte) error {
	have, err := os.ReadFile(filepath.Join("static", "engine.sum"))
	if err != nil {
		return err
	}
	if string(have) != sum {
		return fmt.Errorf("static/engine.wasm.gz is stale: its sources changed (%q, now %q): run go generate ./assist",
			strings.TrimSpace(string(have)), strings.TrimSpace(sum))
	}
	haveJS, err := os.ReadFile(filepath.Join("static", "wasm_exec.js"))
	if err != nil {
		return err
	}
	if !bytes.Equal(haveJS, js) {
		return fmt.Errorf("static/wasm_exec.js is not this Go's: run go generate ./assist")
	}
	fmt.Println("genwasm: the committed engine is current")
	return nil
}
