package scenario_test

import (
	"path/filepath"
	"strings"
	"testing"

	"mafia/scenario"
)

const failingDir = "testdata/failing"

// failingFiles is every file of testdata/failing: well-formed scenarios that
// expect the wrong thing. Each must FAIL at the step given, saying what
// differed.
var failingFiles = []struct {
	file string
	step int
	want []string
}{
	{"wrong-phase.json", 3, []string{"phase is last_words, expected night"}},
	{"wrong-alive.json", 3, []string{"alive is [1,2,3,4,6,7], expected [1,2,3,4,5,6,7]"}},
	{"wrong-round-and-speaker.json", 3, []string{"round is 1, expected 2", "speaker is 1, expected 3"}},
	{"wrong-candidates.json", 5, []string{"candidates are [6,5], expected [5,6]"}},
	{"wrong-winner.json", 7, []string{"winner is town, expected null"}},
	{"wrong-check-result.json", 1, []string{"check answered mafia, expected not_mafia"}},
	{"refused-without-reject.json", 1, []string{"kill by 1 on 2 refused"}},
	{"accepted-with-reject.json", 2, []string{"nominate by 1 on 5 was accepted"}},
	{"next-after-the-end.json", 6, []string{"next (2 of 2) refused"}},
}

func TestWrongExpectationsFailWithTheStepAndWhatDiffered(t *testing.T) {
	for _, c := range failingFiles {
		t.Run(subtestName(c.file), func(t *testing.T) {
			sc := load(t, filepath.Join(failingDir, c.file))
			r := scenario.Run(sc, scenario.Options{})
			if r.Pass {
				t.Fatalf("PASSes; it expects the wrong thing")
			}
			if r.Step != c.step {
				t.Errorf("fails at step %d, want %d: %s", r.Step, c.step, r)
			}
			line := r.String()
			prefix := "FAIL " + sc.Name + ": step "
			if !strings.HasPrefix(line, prefix) {
				t.Errorf("%q does not start with %q", line, prefix)
			}
			for _, w := range c.want {
				if !strings.Contains(line, w) {
					t.Errorf("%q does not say %q", line, w)
				}
			}
		})
	}
}

func TestEveryFailingFileIsInTheTable(t *testing.T) {
	known := map[string]bool{}
	for _, c := range failingFiles {
		known[c.file] = true
	}
	files := jsonFiles(t, failingDir)
	if len(files) != len(failingFiles) {
		t.Errorf("%s holds %d files, the table %d", failingDir, len(files), len(failingFiles))
	}
	for _, f := range files {
		if !known[filepath.Base(f)] {
			t.Errorf("%s is not in the table of failing files", f)
		}
	}
}

// TestPassLineNamesTheScenario pins the PASS line of docs/scenarios.md.
func TestPassLineNamesTheScenario(t *testing.T) {
	sc := load(t, filepath.Join(rulesDir, "01-first-night-full-mafia-kills-on-night-1.json"))
	r := scenario.Run(sc, scenario.Options{})
	if want := "PASS " + sc.Name; r.String() != want {
		t.Errorf("line %q, want %q", r.String(), want)
	}
}
