package scenario_test

import (
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"mafia/engine"
	"mafia/scenario"
)

// rulesDir holds the project's own scenarios, one rule of docs/rules.md each.
const rulesDir = "testdata/rules"

// minProjectScenarios is the least number of project scenarios the suite keeps.
const minProjectScenarios = 40

// jsonFiles lists the *.json files of dir, sorted; it fails the test if dir
// cannot be read.
func jsonFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// subtestName names a subtest after its file.
func subtestName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".json")
}

func load(t *testing.T, path string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load(path)
	if err != nil {
		t.Fatalf("cannot load: %v", err)
	}
	return sc
}

func runFiles(t *testing.T, files []string) {
	t.Helper()
	for _, f := range files {
		t.Run(subtestName(f), func(t *testing.T) {
			sc := load(t, f)
			if r := scenario.Run(sc, scenario.Options{}); !r.Pass {
				t.Errorf("%s (%s)", r, f)
			}
		})
	}
}

func TestProjectScenariosPass(t *testing.T) {
	files := jsonFiles(t, rulesDir)
	if len(files) == 0 {
		t.Fatalf("no scenarios in %s", rulesDir)
	}
	runFiles(t, files)
}

func TestAtLeast40ProjectScenarios(t *testing.T) {
	if n := len(jsonFiles(t, rulesDir)); n < minProjectScenarios {
		t.Errorf("%s holds %d scenarios; at least %d are required", rulesDir, n, minProjectScenarios)
	}
}

// TestProjectScenarioFilesAreNamedForTheRule pins the naming scheme
// NN-what-it-pins.json, unique numbers, and a name of their own.
func TestProjectScenarioFilesAreNamedForTheRule(t *testing.T) {
	re := regexp.MustCompile(`^([0-9]{2,3})-[a-z0-9]+(-[a-z0-9]+)+\.json$`)
	seenNum := map[string]string{}
	seenName := map[string]string{}
	for _, f := range jsonFiles(t, rulesDir) {
		base := filepath.Base(f)
		m := re.FindStringSubmatch(base)
		if m == nil {
			t.Errorf("%s: not named NN-what-it-pins.json", base)
			continue
		}
		if other, ok := seenNum[m[1]]; ok {
			t.Errorf("%s and %s share the number %s", other, base, m[1])
		}
		seenNum[m[1]] = base
		sc := load(t, f)
		if sc.Name == f || strings.TrimSpace(sc.Name) == "" {
			t.Errorf("%s: has no \"name\"", base)
		}
		if other, ok := seenName[sc.Name]; ok {
			t.Errorf("%s and %s share the name %q", other, base, sc.Name)
		}
		seenName[sc.Name] = base
	}
}

// TestProjectScenariosCoverEveryOptionValue pins that every value of every
// option is played by some project scenario; a number (foul_limit,
// round_limit) as its default, its smallest value and a custom one.
func TestProjectScenariosCoverEveryOptionValue(t *testing.T) {
	seen := map[string]map[string]bool{}
	for _, o := range engine.Options {
		seen[o.Name] = map[string]bool{}
	}
	for _, f := range jsonFiles(t, rulesDir) {
		sc := load(t, f)
		for name, v := range sc.Rules.Map() {
			seen[name][v] = true
		}
	}
	for _, o := range engine.Options {
		want := o.Values
		if o.Values == nil { // a number
			def, _ := engine.DefaultRules().Get(o.Name)
			want = []string{strconv.Itoa(o.Min), def}
			custom := false
			for v := range seen[o.Name] {
				if v != want[0] && v != def {
					custom = true
				}
			}
			if !custom {
				t.Errorf("%s: no scenario plays a custom value", o.Name)
			}
		}
		for _, v := range want {
			if !seen[o.Name][v] {
				t.Errorf("%s=%s: no scenario plays it", o.Name, v)
			}
		}
	}
}

// TestProjectScenariosCoverEveryVerbAnswerPhaseWinnerAndTableSize pins that
// the project scenarios use every verb (and refuse each action verb at least
// once), assert every check answer, reach every phase and every result, and
// play at 3, 5, 7, 9, 11 and 20 seats.
func TestProjectScenariosCoverEveryVerbAnswerPhaseWinnerAndTableSize(t *testing.T) {
	verbs := map[string]bool{}
	refused := map[string]bool{}
	results := map[string]bool{}
	phases := map[string]bool{}
	winners := map[string]bool{}
	sizes := map[int]bool{}
	for _, f := range jsonFiles(t, rulesDir) {
		sc := load(t, f)
		sizes[len(sc.Roles)] = true
		for _, st := range sc.Steps {
			switch st.Kind {
			case scenario.StepNext:
				verbs["next"] = true
			case scenario.StepAction:
				verbs[st.Cmd.Verb.String()] = true
				if st.Reject {
					refused[st.Cmd.Verb.String()] = true
				}
				if st.Result != engine.ResultNone {
					results[st.Result.String()] = true
				}
			case scenario.StepExpect:
				if st.Expect.Phase != nil {
					phases[st.Expect.Phase.String()] = true
				}
				if st.Expect.Winner != nil {
					w := st.Expect.Winner.String()
					if w == "" {
						w = "null"
					}
					winners[w] = true
				}
			}
		}
	}
	need := func(what string, have map[string]bool, want ...string) {
		for _, w := range want {
			if !have[w] {
				t.Errorf("no project scenario covers %s %q", what, w)
			}
		}
	}
	statements := []string{"claim", "report", "suspect", "vouch", "will_nominate"}
	need("the verb", verbs, append([]string{"kill", "check", "shoot", "heal", "skip", "nominate", "vote", "all_vote", "pass", "foul", "next"}, statements...)...)
	need("a refusal of", refused, append([]string{"kill", "check", "shoot", "heal", "skip", "nominate", "vote", "all_vote", "pass", "foul"}, statements...)...)
	need("the answer", results, "mafia", "not_mafia", "maniac", "detective", "not_detective")
	need("the phase", phases, "night", "last_words", "speech", "defence", "vote", "tie_speech", "revote", "all_vote", "ended")
	need("the result", winners, "town", "mafia", "maniac", "draw", "null")
	for _, n := range []int{3, 5, 7, 9, 11, 20} {
		if !sizes[n] {
			t.Errorf("no project scenario plays at %d seats", n)
		}
	}
}

// mutation is one change to one step that the runner must report as a
// failure of that step.
type mutation struct {
	what string // for the test's message
	step scenario.Step
	want string // a fragment of the failure message
}

func otherPhase(p engine.Phase) engine.Phase {
	if p == engine.PhaseNight {
		return engine.PhaseSpeech
	}
	return engine.PhaseNight
}

func otherResult(r engine.Result) engine.Result {
	switch r {
	case engine.ResultMafia:
		return engine.ResultNotMafia
	case engine.ResultDetective:
		return engine.ResultNotDetective
	case engine.ResultNotDetective:
		return engine.ResultDetective
	}
	return engine.ResultMafia
}

// mutations lists every change of st that makes it wrong: each asserted key
// of an expect changed, an action's reject flipped, a check's answer changed.
func mutations(st scenario.Step) []mutation {
	var out []mutation
	add := func(what, want string, change func(*scenario.Step)) {
		m := st
		m.Expect = st.Expect
		change(&m)
		out = append(out, mutation{what: what, step: m, want: want})
	}
	switch st.Kind {
	case scenario.StepAction:
		if st.Reject {
			add("reject true → false", "refused", func(m *scenario.Step) { m.Reject = false })
		} else {
			add("reject false → true", "was accepted", func(m *scenario.Step) { m.Reject = true })
		}
		if st.Result != engine.ResultNone {
			add("another check answer", "check answered", func(m *scenario.Step) { m.Result = otherResult(st.Result) })
		}
	case scenario.StepExpect:
		ex := st.Expect
		if ex.Phase != nil {
			add("another phase", "phase is", func(m *scenario.Step) {
				p := otherPhase(*ex.Phase)
				m.Expect.Phase = &p
			})
		}
		if ex.Round != nil {
			add("another round", "round is", func(m *scenario.Step) {
				r := *ex.Round + 1
				m.Expect.Round = &r
			})
		}
		if ex.HasAlive {
			add("another alive", "alive is", func(m *scenario.Step) {
				if n := len(ex.Alive); n > 0 {
					m.Expect.Alive = append([]engine.Seat(nil), ex.Alive[:n-1]...)
				} else {
					m.Expect.Alive = []engine.Seat{1}
				}
			})
		}
		if ex.Speaker != nil {
			add("another speaker", "speaker is", func(m *scenario.Step) {
				s := engine.Seat(1)
				if *ex.Speaker == 1 {
					s = 2
				}
				m.Expect.Speaker = &s
			})
		}
		if ex.HasCands {
			add("other candidates", "candidates are", func(m *scenario.Step) {
				c := append([]engine.Seat(nil), ex.Candidates...)
				switch len(c) {
				case 0:
					c = []engine.Seat{1}
				case 1:
					c = nil
				default:
					for i, j := 0, len(c)-1; i < j; i, j = i+1, j-1 {
						c[i], c[j] = c[j], c[i]
					}
				}
				m.Expect.Candidates = c
			})
		}
		if ex.HasTalk {
			add("other talk", "talk is", func(m *scenario.Step) {
				if n := len(ex.Talk); n > 0 {
					m.Expect.Talk = append([]engine.Statement(nil), ex.Talk[:n-1]...)
				} else {
					m.Expect.Talk = []engine.Statement{{By: 1, Verb: engine.Claim, Role: engine.Citizen}}
				}
			})
		}
		if ex.Winner != nil {
			add("another winner", "winner is", func(m *scenario.Step) {
				w := engine.WinnerNone
				if *ex.Winner == engine.WinnerNone {
					w = engine.WinnerTown
				}
				m.Expect.Winner = &w
			})
		}
	}
	return out
}

// TestEveryExpectationAndActionOfEveryScenarioCanFail pins that the runner
// cannot pass everything: for every scenario (the project's, the examples
// and any of ../shared/scenarios the examples lack), every
// asserted key of every expect, every reject flag and every check answer,
// changed alone, makes the scenario FAIL at exactly that step with what
// differed. Steps after a failure the engine already causes are not mutated.
func TestEveryExpectationAndActionOfEveryScenarioCanFail(t *testing.T) {
	files := append(jsonFiles(t, rulesDir), jsonFiles(t, examplesDir)...)
	files = append(files, sharedOnly(t)...)
	total := 0
	for _, f := range files {
		t.Run(subtestName(f), func(t *testing.T) {
			sc := load(t, f)
			limit := len(sc.Steps)
			if r := scenario.Run(sc, scenario.Options{}); !r.Pass {
				limit = r.Step - 1 // the engine fails it there (reported by the pass tests)
			}
			for i := 0; i < limit; i++ {
				for _, m := range mutations(sc.Steps[i]) {
					total++
					mut := *sc
					mut.Steps = append([]scenario.Step(nil), sc.Steps...)
					mut.Steps[i] = m.step
					r := scenario.Run(&mut, scenario.Options{})
					switch {
					case r.Pass:
						t.Errorf("step %d with %s still PASSes", i+1, m.what)
					case r.Step != i+1:
						t.Errorf("step %d with %s: failed at step %d instead: %s", i+1, m.what, r.Step, r)
					case !strings.Contains(r.Msg, m.want):
						t.Errorf("step %d with %s: %q does not say %q", i+1, m.what, r.Msg, m.want)
					}
				}
			}
		})
	}
	t.Logf("%d mutations of %d scenarios, each a FAIL at its step", total, len(files))
	if total < 500 {
		t.Errorf("only %d mutations were tried; the scenarios assert too little", total)
	}
}
