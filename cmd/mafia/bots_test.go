package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"mafia/locale"
)

// --bots: the bots' level in mafia sim (one for every seat, or one per
// side) and mafia play.

func TestSim_BotsFlagChoosesTheLevelPerSideAndJSONKeepsItsFields(t *testing.T) {
	tally := func(bots string) map[string]any {
		code, out, errs := simRun(t, "--games", "1000", "--seed", "4", "--bots", bots, "--json")
		if code != 0 {
			t.Fatalf("--bots %s: exit %d: %s", bots, code, errs)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"games", "players", "seed", "options", "wins", "win_rates", "unfinished", "avg_rounds", "games_per_sec", "seconds", "workers"} {
			if _, ok := m[k]; !ok {
				t.Errorf("--bots %s: the JSON lost today's field %q", bots, k)
			}
		}
		return m
	}
	random, smart := tally("random"), tally("smart")
	perSide := tally("town=smart,mafia=random,maniac=random")
	if random["bots"] != "random" || smart["bots"] != "smart" || perSide["bots"] != "town=smart,mafia=random,maniac=random" {
		t.Errorf("the JSON's bots: %v, %v, %v", random["bots"], smart["bots"], perSide["bots"])
	}
	town := func(m map[string]any) float64 { return m["wins"].(map[string]any)["town"].(float64) }
	if town(perSide) <= 2*town(random) {
		t.Errorf("smart town against random mafia won %v of 1000 games, random town %v", town(perSide), town(random))
	}
	if def := tally("town=random"); town(def) != town(random) {
		t.Errorf("a side left out of the mix should play random: %v town wins, all random %v", town(def), town(random))
	}
}

func TestSim_BadBotsValueIsRefusedInTheUsersLanguage(t *testing.T) {
	for _, tc := range []struct{ lang, bots, want string }{
		{"en", "clever", "There is no bot level “clever”"},
		{"ka", "clever", "ბოტის დონე „clever“ არ არსებობს"},
		{"ru", "clever", "Уровня ботов «clever» нет"},
		{"en", "town=smart,mafia=genius", "“genius”"},
		{"en", "tow=smart", "“tow” is not a side"},
		{"ru", "village=smart", "«village» — не сторона"},
		{"en", "", "There is no bot level “”"},
	} {
		code, out, errs := simRun(t, "--games", "10", "--lang", tc.lang, "--bots", tc.bots)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("--lang %s --bots %q: exit %d, stdout %q, stderr %q (want %q)", tc.lang, tc.bots, code, out, errs, tc.want)
		}
	}
}

func TestPlay_SmartBotsPlayAWholeGame(t *testing.T) {
	differs := false
	for seed := 1; seed <= 4; seed++ {
		args := []string{"--seed", strconv.Itoa(seed), "--lang", "en", "--seat", "1"}
		out, errs, code := play(t, sensible, append(args, "--bots", "smart")...)
		if code != 0 {
			t.Fatalf("seed %d: exit %d, stderr %q", seed, code, errs)
		}
		checkClean(t, out)
		if !strings.Contains(out, locale.New(locale.En).T("event.game_ended", nil)) {
			t.Fatalf("seed %d: the game with smart bots did not end:\n%s", seed, tail(out))
		}
		random, _, _ := play(t, sensible, append(args, "--bots", "random")...)
		differs = differs || random != out
	}
	if !differs {
		t.Error("smart and random bots played every deal the same")
	}
}

func TestPlay_BadBotsValueIsRefused(t *testing.T) {
	_, errs, code := play(t, sensible, "--bots", "clever", "--lang", "en")
	if code != 2 || !strings.Contains(errs, "There is no bot level “clever”") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestSim_ReportShowsEveryMixAndMetricInEveryLanguage(t *testing.T) {
	for _, l := range locale.Langs() {
		p := printerFor(string(l))
		code, out, errs := simRun(t, "--games", "300", "--report", "--lang", string(l))
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", l, code, errs)
		}
		checkClean(t, out)
		for _, mix := range reportMixes {
			if !strings.Contains(out, p.T("sim.bots", map[string]any{"Bots": mix}, 0)+"\n") {
				t.Errorf("%s: the report lacks the mix %s:\n%s", l, mix, out)
			}
		}
		for _, name := range metricNames {
			label, _, _ := strings.Cut(p.T("sim.report."+name, map[string]any{"Norm": "", "Share": ""}, 0), ":")
			if strings.Count(out, label) != len(reportMixes) {
				t.Errorf("%s: %q is not shown once per mix:\n%s", l, label, out)
			}
		}
	}
}

func TestSim_ReportJSONNormalisesToRandomPlay(t *testing.T) {
	code, out, errs := simRun(t, "--games", "500", "--report", "--bots", "town=smart", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep reportJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Report) != 2 || rep.Report[0].Bots != "random" || rep.Report[1].Bots != "town=smart,mafia=random,maniac=random" {
		t.Fatalf("mixes %+v, want random then town=smart", rep.Report)
	}
	for _, name := range metricNames {
		if n := rep.Report[0].Metrics[name].Normalised; n == nil || *n != 1 {
			t.Errorf("random play's %s is normalised to %v, want 1", name, n)
		}
	}
	if n := rep.Report[1].Metrics["precision"].Normalised; n == nil || *n <= 1 {
		t.Errorf("smart town's normalised vote precision %v, want above 1", n)
	}
}
