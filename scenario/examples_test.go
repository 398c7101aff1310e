package scenario_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// examplesDir holds the conformance examples that come with the rulebook,
// copied into the repository (testdata/examples/README.md): the tests of
// this package, of assist and of assist/record play them, and a clone with
// nothing beside it has them.
const examplesDir = "testdata/examples"

// minExamples is how many examples the copy holds at least.
const minExamples = 6

// sharedDir is ../shared/scenarios seen from the repository root (this test
// runs in <root>/scenario): the examples' source, beside the project's own
// checkout. A clone made elsewhere has nothing there.
var sharedDir = filepath.Join("..", "..", "shared", "scenarios")

// requireShared names the environment variable that makes a missing
// ../shared/scenarios a failure. .ci/run sets it to 1 when it finds the
// folder beside the checkout, so that a test that no longer finds it there
// fails instead of skipping; its second clone, made where nothing is beside
// it, leaves it unset. CI=true alone does not require the folder: the
// examples the tests need are in testdata/examples.
const requireShared = "MAFIA_REQUIRE_SHARED"

// sharedFiles returns the scenarios of ../shared/scenarios, or nil when the
// folder is not beside the repository (a failure if MAFIA_REQUIRE_SHARED=1).
func sharedFiles(t *testing.T) []string {
	t.Helper()
	if fi, err := os.Stat(sharedDir); err != nil || !fi.IsDir() {
		if os.Getenv(requireShared) == "1" {
			t.Fatalf("%s=1 but the shared scenarios are not at %s: %v", requireShared, sharedDir, err)
		}
		return nil
	}
	files := jsonFiles(t, sharedDir)
	if len(files) == 0 {
		t.Fatalf("no scenarios in %s", sharedDir)
	}
	return files
}

// sharedOnly returns the scenarios of ../shared/scenarios that have no copy
// among the examples (none while the copy is complete).
func sharedOnly(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, f := range sharedFiles(t) {
		if _, err := os.Stat(filepath.Join(examplesDir, filepath.Base(f))); err != nil {
			out = append(out, f)
		}
	}
	return out
}

func TestExampleScenariosPass(t *testing.T) {
	files := jsonFiles(t, examplesDir)
	if len(files) < minExamples {
		t.Fatalf("%s holds %d examples, want at least %d", examplesDir, len(files), minExamples)
	}
	runFiles(t, files)
}

// TestSharedScenariosPass runs ../shared/scenarios as they are there, when
// they are (see requireShared).
func TestSharedScenariosPass(t *testing.T) {
	files := sharedFiles(t)
	if files == nil {
		t.Skipf("no %s beside the repository: its copies in %s ran instead (TestExampleScenariosPass)", sharedDir, examplesDir)
	}
	runFiles(t, files)
}

// TestExamplesAreACompleteCopyOfTheShared pins the copy to its source when
// the source is beside the repository: the same files, byte for byte, so
// that a clone plays exactly what the checkout beside ../shared plays.
func TestExamplesAreACompleteCopyOfTheShared(t *testing.T) {
	files := sharedFiles(t)
	if files == nil {
		t.Skipf("no %s beside the repository to compare %s with", sharedDir, examplesDir)
	}
	copies := map[string]bool{}
	for _, f := range jsonFiles(t, examplesDir) {
		copies[filepath.Base(f)] = true
	}
	for _, f := range files {
		name := filepath.Base(f)
		delete(copies, name)
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(examplesDir, name))
		switch {
		case err != nil:
			t.Errorf("%s has no copy: cp %s %s/", name, f, filepath.Join("scenario", examplesDir))
		case !bytes.Equal(got, want):
			t.Errorf("%s differs from %s: cp %s %s/", filepath.Join(examplesDir, name), f, f, filepath.Join("scenario", examplesDir))
		}
	}
	for name := range copies {
		t.Errorf("%s is in %s but not in %s", name, examplesDir, sharedDir)
	}
}
