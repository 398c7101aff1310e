package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mafia/scenario"
)

var (
	scenarioTestdata = filepath.Join("..", "..", "scenario", "testdata")
	scenarioRulesDir = filepath.Join(scenarioTestdata, "rules")
	scenarioGood1    = filepath.Join(scenarioRulesDir, "01-first-night-full-mafia-kills-on-night-1.json")
	scenarioGood2    = filepath.Join(scenarioRulesDir, "34-vote-a-single-candidate-gets-all-votes.json")
	scenarioBad      = filepath.Join(scenarioTestdata, "bad", "unknown-verb.json")
	scenarioFailing  = filepath.Join(scenarioTestdata, "failing", "wrong-alive.json")
)

// scenarioCLI runs the binary's entry point with args and returns its exit code and
// output.
func scenarioCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func scenarioName(t *testing.T, path string) string {
	t.Helper()
	sc, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return sc.Name
}

func scenarioLines(s string) []string {
	return strings.Split(strings.TrimRight(s, "\n"), "\n")
}

// scenarioResultLines keeps the PASS, FAIL and ERROR lines.
func scenarioResultLines(s string) []string {
	var out []string
	for _, l := range scenarioLines(s) {
		if strings.HasPrefix(l, "PASS ") || strings.HasPrefix(l, "FAIL ") || strings.HasPrefix(l, "ERROR ") {
			out = append(out, l)
		}
	}
	return out
}

func TestScenarioRunPassesGoodFilesWithExitZero(t *testing.T) {
	code, out, errOut := scenarioCLI(t, "scenario", "run", scenarioGood1, scenarioGood2)
	if code != 0 {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	want := []string{"PASS " + scenarioName(t, scenarioGood1), "PASS " + scenarioName(t, scenarioGood2)}
	if got := scenarioResultLines(out); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("result lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(out, "scenarios: 2 passed, 0 failed") {
		t.Errorf("no summary in:\n%s", out)
	}
	if errOut != "" {
		t.Errorf("stderr not empty: %s", errOut)
	}
}

func scenarioCopyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestScenarioRunExpandsADirectory pins that a directory stands for its
// *.json files, recursively, in name order, other files ignored.
func TestScenarioRunExpandsADirectory(t *testing.T) {
	dir := t.TempDir()
	scenarioCopyFile(t, scenarioGood2, filepath.Join(dir, "a.json"))
	scenarioCopyFile(t, scenarioGood1, filepath.Join(dir, "sub", "b.json"))
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a scenario"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := scenarioCLI(t, "scenario", "run", dir)
	if code != 0 {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	want := []string{"PASS " + scenarioName(t, scenarioGood2), "PASS " + scenarioName(t, scenarioGood1)}
	if got := scenarioResultLines(out); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("result lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestScenarioRunPassesTheProjectDirectory runs scenario/testdata/rules as
// the CLI does: one PASS line per file, exit 0.
func TestScenarioRunPassesTheProjectDirectory(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(scenarioRulesDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no project scenarios in %s: %v", scenarioRulesDir, err)
	}
	code, out, _ := scenarioCLI(t, "scenario", "run", scenarioRulesDir)
	got := scenarioResultLines(out)
	if len(got) != len(files) {
		t.Errorf("%d result lines for %d files", len(got), len(files))
	}
	for _, l := range got {
		if !strings.HasPrefix(l, "PASS ") {
			t.Errorf("%s", l)
		}
	}
	if code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
}

func TestScenarioRunReportsABadFileAsOneErrorWithNonZeroExit(t *testing.T) {
	code, out, _ := scenarioCLI(t, "scenario", "run", scenarioBad, scenarioGood1)
	if code == 0 {
		t.Fatalf("exit 0 for a bad file\n%s", out)
	}
	got := scenarioResultLines(out)
	want := []string{
		"ERROR " + scenarioBad + `: step 2: unknown verb "poison"`,
		"PASS " + scenarioName(t, scenarioGood1),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("result lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(out, "scenarios: 1 passed, 1 failed") {
		t.Errorf("no summary in:\n%s", out)
	}
}

// TestScenarioRunGivesEveryBadFileOneErrorLine pins one ERROR line per bad
// file, naming it, and no PASS.
func TestScenarioRunGivesEveryBadFileOneErrorLine(t *testing.T) {
	dir := filepath.Join(scenarioTestdata, "bad")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) == 0 {
		t.Fatalf("no bad files in %s", dir)
	}
	code, out, _ := scenarioCLI(t, "scenario", "run", dir)
	if code == 0 {
		t.Errorf("exit 0 for bad files")
	}
	got := scenarioResultLines(out)
	if len(got) != len(files) {
		t.Fatalf("%d result lines for %d bad files:\n%s", len(got), len(files), out)
	}
	for i, l := range got {
		if !strings.HasPrefix(l, "ERROR "+files[i]+": ") {
			t.Errorf("line %q is not one ERROR naming %s", l, files[i])
		}
	}
}

func TestScenarioRunReportsAFailingScenarioAsFailWithNonZeroExit(t *testing.T) {
	code, out, _ := scenarioCLI(t, "scenario", "run", scenarioFailing)
	if code == 0 {
		t.Fatalf("exit 0 for a failing scenario\n%s", out)
	}
	want := "FAIL " + scenarioName(t, scenarioFailing) + ": step 3: alive is [1,2,3,4,6,7], expected [1,2,3,4,5,6,7]"
	if got := scenarioResultLines(out); len(got) != 1 || got[0] != want {
		t.Errorf("result lines %q, want %q", got, want)
	}
}

// scenarioEventLines counts the trace's event lines (indented under RUN; refusals apart).
func scenarioEventLines(out string) int {
	n := 0
	for _, l := range scenarioLines(out) {
		if strings.HasPrefix(l, "  ") && strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimSpace(l), "refused:") {
			n++
		}
	}
	return n
}

func TestScenarioRunTracePrintsEvents(t *testing.T) {
	// 02 holds refusals, a night's effects and a day.
	file := filepath.Join(scenarioRulesDir, "02-first-night-meeting-nobody-acts.json")
	code, out, errOut := scenarioCLI(t, "scenario", "run", "--trace", file)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, w := range []string{"RUN ", "refused: ", "PASS " + scenarioName(t, file)} {
		if !strings.Contains(out, w) {
			t.Errorf("the trace does not show %q:\n%s", w, out)
		}
	}
	// 2 nights, 8 speeches, the Don's kill, a check, a heal, a death: at least 20 events.
	if n := scenarioEventLines(out); n < 20 {
		t.Errorf("the trace shows %d events, want at least 20:\n%s", n, out)
	}
	_, plain, _ := scenarioCLI(t, "scenario", "run", file)
	if n := scenarioEventLines(plain); n != 0 || strings.Contains(plain, "refused: ") {
		t.Errorf("events printed without --trace:\n%s", plain)
	}
}

func TestScenarioUsageExitsTwo(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"no subcommand", []string{"scenario"}},
		{"an unknown subcommand", []string{"scenario", "frob"}},
		{"no paths", []string{"scenario", "run"}},
		{"an unknown flag", []string{"scenario", "run", "--bogus", scenarioGood1}},
		{"only a flag", []string{"scenario", "run", "--trace"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := scenarioCLI(t, c.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errOut, "usage: mafia scenario run") {
				t.Errorf("no usage on stderr: %q", errOut)
			}
			if len(scenarioResultLines(out)) != 0 {
				t.Errorf("ran scenarios: %s", out)
			}
		})
	}
}

func TestNoArgumentsPrintsUsageAndExitsTwo(t *testing.T) {
	code, _, errOut := scenarioCLI(t)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.Contains(errOut, "usage: mafia") || !strings.Contains(errOut, "scenario") {
		t.Errorf("no usage listing the scenario command: %q", errOut)
	}
}

func TestScenarioRunMissingPathOrEmptyDirectoryExitsTwo(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere.json")
	code, out, errOut := scenarioCLI(t, "scenario", "run", missing)
	if code != 2 || !strings.Contains(errOut, "nowhere.json") {
		t.Errorf("missing path: exit %d, stderr %q, want 2 naming the path", code, errOut)
	}
	if len(scenarioResultLines(out)) != 0 {
		t.Errorf("ran scenarios: %s", out)
	}
	code, _, errOut = scenarioCLI(t, "scenario", "run", t.TempDir())
	if code != 2 || !strings.Contains(errOut, "no scenario files") {
		t.Errorf("empty directory: exit %d, stderr %q, want 2 saying no scenario files", code, errOut)
	}
}
