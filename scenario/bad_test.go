package scenario_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mafia/scenario"
)

const badDir = "testdata/bad"

// badFiles is every file of testdata/bad: the step the error must name (0:
// a problem outside the steps) and fragments its text must hold.
var badFiles = []struct {
	file string
	step int
	want []string
}{
	{"not-json.json", 0, []string{"not valid JSON"}},
	{"unknown-role.json", 0, []string{"roles", "seat 2", `unknown role "wizard"`}},
	{"unknown-verb.json", 2, []string{`unknown verb "poison"`}},
	{"unknown-option.json", 0, []string{`unknown option "night_length"`}},
	{"bad-option-value.json", 0, []string{"mafia_kill", `"majority"`}},
	{"bad-foul-limit.json", 0, []string{"foul_limit", `"11"`}},
	{"unknown-file-key.json", 0, []string{`unknown key "players"`}},
	{"unknown-step-key.json", 3, []string{`unknown key "targte"`}},
	{"unknown-expect-key.json", 1, []string{"expect", `unknown key "victims"`}},
	{"by-off-the-table.json", 2, []string{"by", "seat 8", "off the table", "1..7"}},
	{"target-off-the-table.json", 1, []string{"target", "seat 0", "off the table"}},
	{"expect-alive-off-the-table.json", 2, []string{"expect.alive", "seat 8", "off the table"}},
	{"expect-speaker-off-the-table.json", 2, []string{"expect.speaker", "seat 12", "off the table"}},
	{"missing-target.json", 2, []string{"heal", `needs "target"`}},
	{"result-on-a-non-check.json", 2, []string{`"result" belongs to check`}},
	{"unknown-result.json", 1, []string{"result", `"guilty"`}},
	{"unknown-phase.json", 1, []string{"expect.phase", `"morning"`}},
	{"foul-not-by-the-host.json", 1, []string{"foul", `"by" must be 0`}},
	{"all-vote-without-yes.json", 1, []string{"all_vote", `"yes"`}},
	{"claim-without-role.json", 2, []string{"claim", `needs "role"`}},
	{"claim-unknown-role.json", 2, []string{"role", `"wizard"`}},
	{"role-on-a-non-claim.json", 2, []string{`"role" belongs to claim`}},
	{"report-without-result.json", 2, []string{"report", `needs "result"`}},
	{"expect-talk-not-a-statement.json", 3, []string{"expect.talk[0]", `"nominate" is no statement`}},
	{"setup-mafia-majority.json", 0, []string{"not a valid setup", "mafia_majority"}},
	{"setup-no-mafia.json", 0, []string{"not a valid setup", "no_mafia"}},
	{"setup-two-dons.json", 0, []string{"not a valid setup", "duplicate_role", "don"}},
	{"setup-too-few-players.json", 0, []string{"not a valid setup", "too_few_seats"}},
	{"setup-too-many-players.json", 0, []string{"not a valid setup", "too_many_seats"}},
}

// loadNoPanic loads a file and turns a panic into a test failure.
func loadNoPanic(t *testing.T, path string) (sc *scenario.Scenario, err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("Load panicked: %v", p)
		}
	}()
	return scenario.Load(path)
}

// checkFileError pins the shape of a file error: a *scenario.Error for this
// path and step, whose text starts with the path, names the step, and holds
// every fragment.
func checkFileError(t *testing.T, err error, path string, step int, want []string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; a bad file must never load")
	}
	var se *scenario.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %T %q is not a *scenario.Error", err, err)
	}
	if se.Path != path {
		t.Errorf("error names the file %q, want %q", se.Path, path)
	}
	if se.Step != step {
		t.Errorf("error names step %d, want %d: %v", se.Step, step, err)
	}
	text := err.Error()
	if !strings.HasPrefix(text, path+": ") {
		t.Errorf("%q does not start with the file name", text)
	}
	stepText := fmt.Sprintf("step %d: ", step)
	if step > 0 && !strings.Contains(text, stepText) {
		t.Errorf("%q does not name %q", text, stepText)
	}
	if step == 0 && strings.Contains(text, ": step ") {
		t.Errorf("%q names a step for a problem outside the steps", text)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%q does not say %q", text, w)
		}
	}
	if strings.Count(text, path) != 1 {
		t.Errorf("%q is not one error: it names the file %d times", text, strings.Count(text, path))
	}
}

func TestBadScenarioFilesGiveOneErrorNamingTheFileAndStep(t *testing.T) {
	for _, c := range badFiles {
		t.Run(subtestName(c.file), func(t *testing.T) {
			path := filepath.Join(badDir, c.file)
			sc, err := loadNoPanic(t, path)
			if err == nil {
				r := scenario.Run(sc, scenario.Options{})
				t.Fatalf("loaded and ran: %s", r)
			}
			checkFileError(t, err, path, c.step, c.want)
		})
	}
}

func TestEveryBadFileIsInTheTable(t *testing.T) {
	known := map[string]bool{}
	for _, c := range badFiles {
		known[c.file] = true
	}
	files := jsonFiles(t, badDir)
	if len(files) != len(badFiles) {
		t.Errorf("%s holds %d files, the table %d", badDir, len(files), len(badFiles))
	}
	for _, f := range files {
		if !known[filepath.Base(f)] {
			t.Errorf("%s is not in the table of bad files", f)
		}
	}
}

// TestOddShapesAreOneErrorNotAPanic feeds Parse malformed shapes of the
// format: each is one *scenario.Error naming the file (and the step when the
// problem is in one).
func TestOddShapesAreOneErrorNotAPanic(t *testing.T) {
	const roles = `"roles": ["don", "detective", "doctor", "citizen", "citizen"]`
	cases := []struct {
		name string
		data string
		step int
		want string
	}{
		{"empty input", ``, 0, "not valid JSON"},
		{"null", `null`, 0, "roles"},
		{"a list", `[]`, 0, "not valid JSON"},
		{"two objects", `{"name": "a"} {"name": "b"}`, 0, "not valid JSON"},
		{"no roles", `{"steps": []}`, 0, "roles"},
		{"roles not a list", `{"roles": "don", "steps": []}`, 0, "roles"},
		{"no steps", `{` + roles + `}`, 0, "steps"},
		{"steps not a list", `{` + roles + `, "steps": {}}`, 0, "steps"},
		{"a step not an object", `{` + roles + `, "steps": [1]}`, 0, "steps"},
		{"options not an object", `{` + roles + `, "options": ["last_words"], "steps": []}`, 0, "options"},
		{"seed negative", `{` + roles + `, "seed": -1, "steps": []}`, 0, "seed"},
		{"name not a string", `{"name": 5, ` + roles + `, "steps": []}`, 0, "name"},
		{"a step with neither act nor expect", `{` + roles + `, "steps": [{"by": 1}]}`, 1, `"act" or "expect"`},
		{"act not a string", `{` + roles + `, "steps": [{"act": 5}]}`, 1, "act"},
		{"act null", `{` + roles + `, "steps": [{"act": null}]}`, 1, "unknown verb"},
		{"no by", `{` + roles + `, "steps": [{"act": "kill", "target": 4}]}`, 1, `needs "by"`},
		{"by a string", `{` + roles + `, "steps": [{"by": "one", "act": "kill", "target": 4}]}`, 1, "by"},
		{"by a fraction", `{` + roles + `, "steps": [{"by": 1.5, "act": "kill", "target": 4}]}`, 1, "by"},
		{"by 0 for a player's act", `{` + roles + `, "steps": [{"by": 0, "act": "kill", "target": 4}]}`, 1, "off the table"},
		{"a target on skip", `{` + roles + `, "steps": [{"by": 1, "act": "skip", "target": 4}]}`, 1, "no target"},
		{"yes on a vote", `{` + roles + `, "steps": [{"by": 1, "act": "vote", "target": 4, "yes": true}]}`, 1, `"yes" belongs to all_vote`},
		{"yes not a boolean", `{` + roles + `, "steps": [{"by": 1, "act": "all_vote", "yes": "maybe"}]}`, 1, "yes"},
		{"reject not a boolean", `{` + roles + `, "steps": [{"by": 1, "act": "skip", "reject": "yes"}]}`, 1, "reject"},
		{"times on an action", `{` + roles + `, "steps": [{"by": 1, "act": "skip", "times": 2}]}`, 1, `"times" belongs to next`},
		{"times zero", `{` + roles + `, "steps": [{"act": "next", "times": 0}]}`, 1, "times"},
		{"next with a target", `{` + roles + `, "steps": [{"act": "next", "target": 1}]}`, 1, "next"},
		{"next as a player's verb", `{` + roles + `, "steps": [{"by": 1, "act": "next"}]}`, 1, "next"},
		{"expect with an act", `{` + roles + `, "steps": [{"act": "next", "expect": {"round": 1}}]}`, 1, "expect"},
		{"expect not an object", `{` + roles + `, "steps": [{"expect": [1]}]}`, 1, "expect"},
		{"round zero", `{` + roles + `, "steps": [{"expect": {"round": 0}}]}`, 1, "expect.round"},
		{"alive not a list", `{` + roles + `, "steps": [{"expect": {"alive": 3}}]}`, 1, "expect.alive"},
		{"candidates off the table", `{` + roles + `, "steps": [{"expect": {"candidates": [6]}}]}`, 1, "expect.candidates"},
		{"unknown winner", `{` + roles + `, "steps": [{"expect": {"winner": "citizens"}}]}`, 1, "expect.winner"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := "odd/" + strings.ReplaceAll(c.name, " ", "-") + ".json"
			var err error
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("Parse panicked: %v", p)
					}
				}()
				_, err = scenario.Parse(path, []byte(c.data))
			}()
			checkFileError(t, err, path, c.step, []string{c.want})
		})
	}
}

// FuzzParseAndRun pins that no input makes Parse or Run panic. Its seed
// corpus is every scenario file of testdata (the examples included) and of
// ../shared/scenarios when it is there.
func FuzzParseAndRun(f *testing.F) {
	for _, dir := range []string{rulesDir, examplesDir, badDir, failingDir, sharedDir} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scenario.Parse("fuzz.json", data)
		if err != nil {
			var se *scenario.Error
			if !errors.As(err, &se) || se.Path != "fuzz.json" {
				t.Fatalf("not a *scenario.Error naming the file: %v", err)
			}
			return
		}
		r := scenario.Run(sc, scenario.Options{})
		if !r.Pass && r.Msg == "" {
			t.Fatalf("a failure without saying what differed: %+v", r)
		}
	})
}
