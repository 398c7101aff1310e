package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func simRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"sim"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestSim_JSONHasTheFieldsTheIssueNames(t *testing.T) {
	code, out, errs := simRun(t, "--games", "500", "--players", "11", "--seed", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"games", "players", "wins", "avg_rounds", "games_per_sec", "win_rates"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %s", k, out)
		}
	}
	wins := m["wins"].(map[string]any)
	sum := 0.0
	for _, k := range []string{"town", "mafia", "maniac", "draw"} {
		v, ok := wins[k].(float64)
		if !ok {
			t.Fatalf("wins has no %q: %v", k, wins)
		}
		sum += v
	}
	if sum != 500 || m["games"].(float64) != 500 || m["players"].(float64) != 11 {
		t.Fatalf("wins add up to %v of %v games (players %v)", sum, m["games"], m["players"])
	}
}

func TestSim_SameSeedSameTallyOnAnyNumberOfWorkers(t *testing.T) {
	tally := func(workers string) any {
		code, out, errs := simRun(t, "--games", "2000", "--seed", "9", "--workers", workers, "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var m map[string]any
		_ = json.Unmarshal([]byte(out), &m)
		b, _ := json.Marshal([]any{m["wins"], m["avg_rounds"]})
		return string(b)
	}
	if a, b := tally("1"), tally("3"); a != b {
		t.Fatalf("1 worker: %v, 3 workers: %v", a, b)
	}
}

func TestSim_TableIsInTheChosenLanguage(t *testing.T) {
	for lang, want := range map[string]string{"en": "games of 11 players", "ka": "მოთამაშე", "ru": "игроков"} {
		code, out, _ := simRun(t, "--games", "100", "--lang", lang)
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--lang %s: exit %d, output lacks %q:\n%s", lang, code, want, out)
		}
	}
}

func TestSim_BadInputExitsTwoWithAReason(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--games", "x"}, "usage"},
		{[]string{"--nope"}, "usage"},
		{[]string{"--games", "0"}, "usage"},
		{[]string{"--players", "4", "--lang", "en"}, "at least"},
		{[]string{"--players", "12", "--lang", "en"}, "At most"},
		{[]string{"--options", "no_such=1", "--lang", "en"}, "no_such"},
		{[]string{"--options", "last_words=maybe", "--lang", "en"}, "maybe"},
		{[]string{"extra"}, "usage"},
	} {
		code, out, errs := simRun(t, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q (want %q)", tc.args, code, out, errs, tc.want)
		}
	}
}
