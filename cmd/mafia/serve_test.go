package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mafia/store/sqlite"
)

// TestServe_AFileDamagedWhereSQLiteKeepsItsSchemaIsRefusedPlainly: when the
// pages SQLite reads before any table (the header's page, which holds the
// schema) are overwritten, no table can be read at all; serve exits 1 at
// once, saying which file, that it is damaged, and what to do.
func TestServe_AFileDamagedWhereSQLiteKeepsItsSchemaIsRefusedPlainly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mafia.db")
	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	junk := bytes.Repeat([]byte{0xA5, 0x17, 0x3C}, 300)
	if _, err := f.WriteAt(junk, 100); err != nil { // past the 100-byte header: the schema's page
		t.Fatal(err)
	}
	f.Close()
	var stdout, stderr bytes.Buffer
	code := runServe([]string{"--addr", "127.0.0.1:0", "--db", path}, nil, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("serve on a damaged file exited %d, want 1\n%s", code, stderr.String())
	}
	for _, want := range []string{path + " is damaged", ".recover"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("serve's message lacks %q:\n%s", want, stderr.String())
		}
	}
	if strings.Contains(stdout.String(), "serving") {
		t.Errorf("serve said it serves: %s", stdout.String())
	}
}
