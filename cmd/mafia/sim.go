package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"mafia/bot"
	"mafia/engine"
	"mafia/sim"
)

// simJSON is the --json output of mafia sim.
type simJSON struct {
	Games       int               `json:"games"`
	Players     int               `json:"players"`
	Seed        uint64            `json:"seed"`
	Options     map[string]string `json:"options"`
	Wins        simWins           `json:"wins"`
	WinRates    map[string]rate   `json:"win_rates"`
	Unfinished  int               `json:"unfinished"`
	AvgRounds   float64           `json:"avg_rounds"`
	GamesPerSec float64           `json:"games_per_sec"`
	Seconds     float64           `json:"seconds"`
	Workers     int               `json:"workers"`
	Bots        string            `json:"bots"`
}

type simWins struct {
	Town   int `json:"town"`
	Mafia  int `json:"mafia"`
	Maniac int `json:"maniac"`
	Draw   int `json:"draw"`
}

type rate struct {
	Rate float64 `json:"rate"`
	Lo95 float64 `json:"ci95_lo"`
	Hi95 float64 `json:"ci95_hi"`
}

func runSim(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	games := fs.Int("games", 10000, "number of complete games to play")
	players := fs.Int("players", 11, "players per game (a preset, 5 to 11)")
	seed := fs.Uint64("seed", 1, "root seed: the same seed gives the same result on any number of cores")
	options := fs.String("options", "", "house rules as k=v,k=v (names of docs/rules.md)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	workers := fs.Int("workers", 0, "goroutines (0: one per core)")
	lang := fs.String("lang", "", "language: ka, en or ru (default from the environment)")
	bots := fs.String("bots", "random", "the bots' level: random, smart or expert for every seat, or a level per side (town=smart,mafia=random,maniac=random)")
	report := fs.Bool("report", false, "per mix of bots (random and --bots, or the standard mixes): win rates, the per-role metrics (1.0 = random play) and the public-record classifier's top-3 precision")
	adversary := fs.String("adversary", "", "with --report: scripted adversaries to seat one at a time among the --bots mix (default smart), each beside the honest baseline of its seat: name@card,... (fakedet, follower, counterclaim, lateclaim at mafia, don, maniac, citizen, doctor, detective), a name alone for every card it plays, or all")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mafia sim --games N --players P --seed S [--bots LEVEL|town=L,mafia=L,maniac=L] [--report [--adversary NAME@CARD,...|all]] [--options k=v,...] [--json]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	p := printerFor(*lang)
	if fs.NArg() > 0 || *games < 1 || (*adversary != "" && !*report) {
		fs.Usage()
		return 2
	}
	rules, err := parseOptionList(*options)
	if err != nil {
		fmt.Fprintln(stderr, p.Refusal(err))
		return 2
	}
	if _, err := engine.Preset(*players); err != nil {
		fmt.Fprintln(stderr, p.Refusal(err))
		return 2
	}
	mix, err := bot.ParseMix(*bots)
	if err != nil {
		fmt.Fprintln(stderr, p.Refusal(err))
		return 2
	}
	cfg := sim.Config{Games: *games, Players: *players, Seed: *seed, Rules: rules, Workers: *workers, Bots: mix}
	if *report {
		mixes, err := reportMixList(*bots, flagSet(fs, "bots"))
		if err != nil {
			fmt.Fprintln(stderr, p.Refusal(err))
			return 2
		}
		var places []bot.Placement
		against := bot.MixOf(bot.LevelSmart)
		if flagSet(fs, "bots") {
			against = mix
		}
		if *adversary != "" {
			if places, err = adversaryPlacements(*adversary, *players); err != nil {
				fmt.Fprintln(stderr, p.Refusal(err))
				return 2
			}
		}
		rep, err := runReport(cfg, mixes)
		if err != nil {
			fmt.Fprintln(stderr, p.Refusal(err))
			return 2
		}
		var adv []advReport
		if len(places) > 0 {
			if adv, err = runAdversaries(cfg, against, baselineOf(cfg, rep, against), places); err != nil {
				fmt.Fprintln(stderr, p.Refusal(err))
				return 2
			}
		}
		if *asJSON {
			if err := writeReportJSON(stdout, cfg, rules, rep, adv); err != nil {
				return 1
			}
			return 0
		}
		printReport(stdout, p, cfg, rules, rep, adv, against.String())
		return 0
	}
	bar := newProgress(stderr, *games)
	cfg.Progress = bar.update
	start := time.Now()
	res, err := sim.Run(cfg)
	elapsed := time.Since(start)
	bar.finish()
	if err != nil {
		fmt.Fprintln(stderr, p.Refusal(err))
		return 2
	}
	perSec := float64(res.Games) / elapsed.Seconds()
	if *asJSON {
		out := simJSON{
			Games: res.Games, Players: res.Players, Seed: *seed, Options: rules.Map(),
			Wins:       simWins{Town: res.Town, Mafia: res.Mafia, Maniac: res.Maniac, Draw: res.Draw},
			WinRates:   map[string]rate{},
			Unfinished: res.Unfinished, AvgRounds: res.AvgRounds(), GamesPerSec: perSec,
			Seconds: elapsed.Seconds(), Workers: workersUsed(*workers), Bots: mix.String(),
		}
		for name, n := range map[string]int{"town": res.Town, "mafia": res.Mafia, "maniac": res.Maniac, "draw": res.Draw} {
			r, lo, hi := res.Rate(n)
			out.WinRates[name] = rate{Rate: r, Lo95: lo, Hi95: hi}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return 1
		}
		return 0
	}
	printSimTable(stdout, p, res, rules, mix, *seed, perSec, elapsed)
	return 0
}

func printSimTable(w io.Writer, p printer, res sim.Result, rules engine.Ruleset, mix bot.Mix, seed uint64, perSec float64, elapsed time.Duration) {
	fmt.Fprintln(w, p.T("sim.header", map[string]any{"Games": res.Games, "Players": res.Players, "Seed": seed}, res.Games))
	if mix != (bot.Mix{}) {
		fmt.Fprintln(w, p.T("sim.bots", map[string]any{"Bots": mix.String()}, 0))
	}
	if ch := rules.Changed(); len(ch) > 0 {
		parts := make([]string, len(ch))
		for i, k := range ch {
			v, _ := rules.Get(k)
			parts[i] = k + "=" + v
		}
		fmt.Fprintln(w, p.T("sim.options", map[string]any{"Options": strings.Join(parts, ", ")}, 0))
	}
	printWinRates(w, p, res, true)
	if res.Unfinished > 0 {
		fmt.Fprintln(w, p.T("sim.unfinished", map[string]any{"N": res.Unfinished}, res.Unfinished))
	}
	fmt.Fprintln(w, p.T("sim.rounds", map[string]any{"Rounds": fmt.Sprintf("%.2f", res.AvgRounds())}, 0))
	fmt.Fprintln(w, p.T("sim.speed", map[string]any{"PerSec": fmt.Sprintf("%.0f", perSec), "Seconds": fmt.Sprintf("%.2f", elapsed.Seconds())}, 0))
}

// progress draws a bar on stderr once a run has taken more than a second.
type progress struct {
	w     io.Writer
	total int
	start time.Time
	mu    sync.Mutex
	shown bool
	last  time.Time
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, total: total, start: time.Now()}
}

func (p *progress) update(done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	const width = 30
	filled := width * done / p.total
	fmt.Fprintf(p.w, "\r[%s%s] %3d%% %d/%d", strings.Repeat("#", filled), strings.Repeat(".", width-filled), 100*done/p.total, done, p.total)
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprintln(p.w)
	}
}

// printWinRates prints each side's (and the draws') share of res's games
// with its 95% interval, the names aligned, and with counted the number of
// games too.
func printWinRates(w io.Writer, p printer, res sim.Result, counted bool) {
	rows := []struct {
		name string
		n    int
	}{{p.Team(engine.TeamTown), res.Town}, {p.Team(engine.TeamMafia), res.Mafia},
		{p.Team(engine.TeamManiac), res.Maniac}, {p.T("sim.draw", nil, 0), res.Draw}}
	width := 0
	for _, row := range rows {
		width = max(width, utf8.RuneCountInString(row.name))
	}
	for _, row := range rows {
		r, lo, hi := res.Rate(row.n)
		pad := strings.Repeat(" ", width-utf8.RuneCountInString(row.name))
		fmt.Fprintf(w, "  %s%s  %6.2f%%  [%6.2f%% – %6.2f%%]", row.name, pad, 100*r, 100*lo, 100*hi)
		if counted {
			fmt.Fprintf(w, "  %d", row.n)
		}
		fmt.Fprintln(w)
	}
}
