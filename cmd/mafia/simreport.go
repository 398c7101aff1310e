package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"mafia/bot"
	"mafia/engine"
	"mafia/sim"
)

// mafia sim --report: per mix of bots, each side's win rate with its 95%
// interval and the per-role metrics normalised so that 1.0 is random play
// (the all-random mix, played on the same seeds, is the yardstick).

// reportMixes are the mixes a report shows when --bots names none.
var reportMixes = []string{"random", "smart", "town=smart,mafia=random,maniac=random", "town=random,mafia=smart,maniac=random"}

// mixReport is one mix's line of a report.
type mixReport struct {
	Bots     string            `json:"bots"`
	Wins     simWins           `json:"wins"`
	WinRates map[string]rate   `json:"win_rates"`
	Metrics  map[string]metric `json:"metrics"`
	// Classifier: the public-record classifier's top-3 precision
	// (simadversary.go).
	Classifier *classReport `json:"classifier"`
	res        sim.Result
}

// metric is one measure: its share, and the share over random play's.
type metric struct {
	Share      *float64 `json:"share"`      // null: nothing to measure
	Normalised *float64 `json:"normalised"` // null: random play gives no yardstick
}

// metricNames are the report's measures, in order, by catalog id.
var metricNames = []string{"precision", "detective_day2", "doctor_saves", "detective_killed"}

func metricShares(m sim.Metrics) [4]struct {
	v  float64
	ok bool
} {
	var out [4]struct {
		v  float64
		ok bool
	}
	out[0].v, out[0].ok = m.Precision()
	out[1].v, out[1].ok = m.DetectiveLivesToDay2()
	out[2].v, out[2].ok = m.SaveRate()
	out[3].v, out[3].ok = m.DetectiveKilled()
	return out
}

// runReport plays every mix on the same seeds; mixes[0] must be random.
func runReport(cfg sim.Config, mixes []bot.Mix) ([]mixReport, error) {
	out := make([]mixReport, 0, len(mixes))
	var base [4]struct {
		v  float64
		ok bool
	}
	for i, mix := range mixes {
		c := cfg
		c.Bots, c.Metrics, c.Classify = mix, true, true
		res, err := sim.Run(c)
		if err != nil {
			return nil, err
		}
		shares := metricShares(res.Metrics)
		if i == 0 {
			base = shares
		}
		mr := mixReport{Bots: mix.String(), res: res, WinRates: map[string]rate{}, Metrics: map[string]metric{}, Classifier: classOf(res.Classified),
			Wins: simWins{Town: res.Town, Mafia: res.Mafia, Maniac: res.Maniac, Draw: res.Draw}}
		for name, n := range map[string]int{"town": res.Town, "mafia": res.Mafia, "maniac": res.Maniac, "draw": res.Draw} {
			r, lo, hi := res.Rate(n)
			mr.WinRates[name] = rate{Rate: r, Lo95: lo, Hi95: hi}
		}
		for k, name := range metricNames {
			var m metric
			if shares[k].ok {
				v := shares[k].v
				m.Share = &v
			}
			if n, ok := sim.Normalised(shares[k].v, shares[k].ok, base[k].v, base[k].ok); ok {
				m.Normalised = &n
			}
			mr.Metrics[name] = m
		}
		out = append(out, mr)
	}
	return out, nil
}

// reportMixList is random first, then the mixes asked for (or the standard
// ones), each once.
func reportMixList(asked string, set bool) ([]bot.Mix, error) {
	names := reportMixes
	if set {
		names = []string{"random", asked}
	}
	var out []bot.Mix
	seen := map[bot.Mix]bool{}
	for _, n := range names {
		m, err := bot.ParseMix(n)
		if err != nil {
			return nil, err
		}
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out, nil
}

type reportJSON struct {
	Games   int               `json:"games"`
	Players int               `json:"players"`
	Seed    uint64            `json:"seed"`
	Options map[string]string `json:"options"`
	Report  []mixReport       `json:"report"`
	// Adversaries: with --adversary, each adversary beside its seat's
	// honest baseline (simadversary.go).
	Adversaries []advReport `json:"adversaries,omitempty"`
}

func writeReportJSON(w io.Writer, cfg sim.Config, rules engine.Ruleset, rep []mixReport, adv []advReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(reportJSON{Games: cfg.Games, Players: cfg.Players, Seed: cfg.Seed, Options: rules.Map(), Report: rep, Adversaries: adv})
}

func printReport(w io.Writer, p printer, cfg sim.Config, rules engine.Ruleset, rep []mixReport, adv []advReport, against string) {
	fmt.Fprintln(w, p.T("sim.header", map[string]any{"Games": cfg.Games, "Players": cfg.Players, "Seed": cfg.Seed}, cfg.Games))
	if ch := rules.Changed(); len(ch) > 0 {
		parts := make([]string, len(ch))
		for i, k := range ch {
			v, _ := rules.Get(k)
			parts[i] = k + "=" + v
		}
		fmt.Fprintln(w, p.T("sim.options", map[string]any{"Options": strings.Join(parts, ", ")}, 0))
	}
	fmt.Fprintln(w, p.T("sim.report.normalised", nil, 0))
	for _, mr := range rep {
		res := mr.res
		fmt.Fprintln(w)
		fmt.Fprintln(w, p.T("sim.bots", map[string]any{"Bots": mr.Bots}, 0))
		printWinRates(w, p, res, false)
		for _, name := range metricNames {
			m := mr.Metrics[name]
			share, norm := p.T("sim.report.none", nil, 0), p.T("sim.report.none", nil, 0)
			if m.Share != nil {
				share = fmt.Sprintf("%.1f%%", 100**m.Share)
			}
			if m.Normalised != nil {
				norm = fmt.Sprintf("%.2f", *m.Normalised)
			}
			fmt.Fprintln(w, "  "+p.T("sim.report."+name, map[string]any{"Norm": norm, "Share": share}, 0))
		}
		printClassifier(w, p, mr.Classifier)
	}
	printAdversaries(w, p, against, adv)
}
