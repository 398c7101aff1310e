package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// mafia sim --report --adversary: the table of adversaries beside their
// baseline, the classifier's line, coded refusals of bad values.

func TestSimAdversary_TablePrintsEachAdversaryBesideItsBaseline(t *testing.T) {
	code, out, errs := simRun(t, "--report", "--games", "300", "--bots", "smart", "--adversary", "fakedet@mafia,follower", "--lang", "en")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Scripted adversaries among smart bots", "fakedet@mafia", "follower@citizen", "follower@doctor",
		"follower@detective", "baseline", "Public-record classifier"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "counterclaim") {
		t.Errorf("the report shows an adversary not asked for:\n%s", out)
	}
}

func TestSimAdversary_JSONBaselineIsTheMixsOwnGames(t *testing.T) {
	report := func(workers string) (reportJSON, string) {
		code, out, errs := simRun(t, "--report", "--games", "400", "--bots", "smart", "--adversary", "fakedet@don,counterclaim@mafia", "--json", "--workers", workers)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var r reportJSON
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		return r, out
	}
	r, out := report("1")
	if len(r.Adversaries) != 2 || r.Adversaries[0].Adversary != "fakedet@don" || r.Adversaries[1].Side != "mafia" {
		t.Fatalf("adversaries: %+v", r.Adversaries)
	}
	var smart *mixReport
	for i := range r.Report {
		if r.Report[i].Bots == "smart" {
			smart = &r.Report[i]
		}
		if r.Report[i].Classifier == nil || r.Report[i].Classifier.Picks == 0 {
			t.Errorf("%s: no classifier line", r.Report[i].Bots)
		}
	}
	if smart == nil {
		t.Fatalf("no smart line: %s", out)
	}
	for _, a := range r.Adversaries {
		if a.Baseline != smart.WinRates["mafia"] || a.Against != "smart" {
			t.Errorf("%s: baseline %+v against %s, the smart mix's mafia won %+v", a.Adversary, a.Baseline, a.Against, smart.WinRates["mafia"])
		}
		if d := 100*(a.WinRate.Rate-a.Baseline.Rate) - a.Points; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: points %v is not the difference of %v and %v", a.Adversary, a.Points, a.WinRate.Rate, a.Baseline.Rate)
		}
	}
	if _, out3 := report("3"); out3 != out {
		t.Fatalf("1 worker and 3 workers differ:\n%s\n%s", out, out3)
	}
}

func TestSimAdversary_BadValuesExitTwoWithAReason(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--report", "--adversary", "liar", "--lang", "en"}, "There is no adversary “liar”"},
		{[]string{"--report", "--adversary", "fakedet@citizen", "--lang", "en"}, "fakedet plays no trick as “citizen”"},
		{[]string{"--report", "--adversary", "follower@joker", "--lang", "en"}, "follower plays no trick as “joker”"},
		{[]string{"--report", "--players", "5", "--adversary", "fakedet@maniac", "--lang", "en"}, "the deal must have the card"},
		{[]string{"--report", "--adversary", "fakedet@mafia", "--lang", "ru"}, ""},
		{[]string{"--adversary", "fakedet@mafia"}, "usage"},
	} {
		code, out, errs := simRun(t, append(tc.args, "--games", "50")...)
		if tc.want == "" {
			if code != 0 || !strings.Contains(out, "Скриптовые противники") {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, code, out, errs)
			}
			continue
		}
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q (want %q)", tc.args, code, out, errs, tc.want)
		}
	}
}
