package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// otherPrograms are the catalog tables the host's page never shows.
var otherPrograms = []string{"web", "play", "sim", "word"}

// Sums returns the text of engine.sum: the Go version, a hash of every Go
// source and embedded file of the project's packages compiled into the
// module (catalogs aside), and a hash of the catalog messages the module
// can show.
func Sums() (string, error) {
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Dir,GoFiles,EmbedFiles", "./wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list ./wasm: %w", err)
	}
	code := sha256.New()
	var catalogs []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Dir     string
			GoFiles, EmbedFiles []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return "", err
		}
		if !strings.HasPrefix(p.ImportPath, "mafia/") {
			continue
		}
		files := append(append([]string{}, p.GoFiles...), p.EmbedFiles...)
		sort.Strings(files)
		for _, f := range files {
			path := filepath.Join(p.Dir, f)
			if strings.HasSuffix(f, ".toml") {
				catalogs = append(catalogs, path)
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(code, "%s/%s %d\n", p.ImportPath, f, len(b))
			code.Write(b)
		}
	}
	cat, err := catalogSum(catalogs)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("go %s\ncode %s\ncatalog %s\n", runtime.Version(), hex.EncodeToString(code.Sum(nil)), cat), nil
}

// catalogSum hashes every message of the catalogs but the other programs'.
func catalogSum(paths []string) (string, error) {
	sort.Strings(paths)
	h := sha256.New()
	for _, path := range paths {
		var m map[string]any
		if _, err := toml.DecodeFile(path, &m); err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
		var lines []string
		flatten("", m, &lines)
		sort.Strings(lines)
		fmt.Fprintf(h, "%s\n%s\n", filepath.Base(path), strings.Join(lines, "\n"))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func flatten(prefix string, m map[string]any, out *[]string) {
	for k, v := range m {
		id := k
		if prefix != "" {
			id = prefix + "." + k
		}
		if prefix == "" && contains(otherPrograms, k) {
			continue
		}
		switch v := v.(type) {
		case map[string]any:
			flatten(id, v, out)
		default:
			*out = append(*out, fmt.Sprintf("%s=%q", id, fmt.Sprint(v)))
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
