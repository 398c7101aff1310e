package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"mafia/bot"
	"mafia/engine"
	"mafia/sim"
)

// mafia sim --report --adversary: each scripted adversary at each card
// asked, among the bots of a mix, its side's win rate beside the honest
// baseline of the same seat (the mix alone on the same seeds: the same
// games, the seat played by the honest bot); and, for every mix of a
// report, the public-record classifier's top-3 precision against a random
// pick.

// advReport is one adversary's line of a report.
type advReport struct {
	Adversary string  `json:"adversary"` // name@card
	Against   string  `json:"against"`   // the others' mix
	Side      string  `json:"side"`      // the adversary's side: town, mafia or maniac
	WinRate   rate    `json:"win_rate"`
	Baseline  rate    `json:"baseline"`
	Points    float64 `json:"points"` // win rate minus baseline, in percentage points
}

// classReport is the classifier's line of a mix.
type classReport struct {
	Games     int     `json:"games"` // games ranked
	Picks     int     `json:"picks"`
	Precision rate    `json:"precision"`
	Random    float64 `json:"random"` // a random pick's expected precision
}

func classOf(c sim.Classified) *classReport {
	p, lo, hi := c.Precision()
	return &classReport{Games: c.Points, Picks: c.Picks, Precision: rate{Rate: p, Lo95: lo, Hi95: hi}, Random: c.Random()}
}

// sideName is a team's name in the report's JSON.
func sideName(t engine.Team) string {
	switch t {
	case engine.TeamMafia:
		return "mafia"
	case engine.TeamManiac:
		return "maniac"
	}
	return "town"
}

// sideWins is the wins of a team in res.
func sideWins(res sim.Result, t engine.Team) int {
	switch t {
	case engine.TeamMafia:
		return res.Mafia
	case engine.TeamManiac:
		return res.Maniac
	}
	return res.Town
}

// adversaryPlacements reads --adversary and keeps the placements whose card
// the table deals: with an explicit card, a card it does not deal is
// refused (CodeAdversaryCard); a name alone or "all" skips such cards.
func adversaryPlacements(s string, players int) ([]bot.Placement, error) {
	ps, err := bot.ParsePlacements(s)
	if err != nil {
		return nil, err
	}
	setup, err := engine.Preset(players)
	if err != nil {
		return nil, err
	}
	dealt := map[engine.Role]bool{}
	for _, r := range setup.Deal(1, nil) {
		dealt[r] = true
	}
	explicit := map[bot.Placement]bool{}
	for _, part := range strings.Split(s, ",") {
		if name, card, ok := strings.Cut(strings.TrimSpace(part), "@"); ok {
			l, _ := bot.ParseAdversary(name)
			r, _ := engine.ParseRole(strings.TrimSpace(card))
			explicit[bot.Placement{Level: l, Card: r}] = true
		}
	}
	var out []bot.Placement
	seen := map[bot.Placement]bool{}
	for _, p := range ps {
		if !dealt[p.Card] {
			if explicit[p] {
				return nil, &engine.Error{Code: bot.CodeAdversaryCard, Name: p.Level.String(), Value: p.Card.String()}
			}
			continue
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}

// runAdversaries plays each placement among against's bots on cfg's seeds
// and sets it beside base, the same games played by against alone.
func runAdversaries(cfg sim.Config, against bot.Mix, base sim.Result, places []bot.Placement) ([]advReport, error) {
	out := make([]advReport, 0, len(places))
	for _, pl := range places {
		c := cfg
		c.Bots, c.Adversary, c.Metrics, c.Classify = against, pl, false, false
		res, err := sim.Run(c)
		if err != nil {
			return nil, err
		}
		team := pl.Card.Team()
		r, lo, hi := res.Rate(sideWins(res, team))
		b, blo, bhi := base.Rate(sideWins(base, team))
		out = append(out, advReport{Adversary: pl.String(), Against: against.String(), Side: sideName(team),
			WinRate: rate{Rate: r, Lo95: lo, Hi95: hi}, Baseline: rate{Rate: b, Lo95: blo, Hi95: bhi}, Points: 100 * (r - b)})
	}
	return out, nil
}

// printClassifier prints a mix's classifier line.
func printClassifier(w io.Writer, p printer, c *classReport) {
	if c == nil {
		return
	}
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	fmt.Fprintln(w, "  "+p.T("sim.report.classifier", map[string]any{"Share": pct(c.Precision.Rate), "Lo": pct(c.Precision.Lo95),
		"Hi": pct(c.Precision.Hi95), "Random": pct(c.Random), "Games": c.Games}, 0))
}

// printAdversaries prints the adversaries' table.
func printAdversaries(w io.Writer, p printer, against string, rows []advReport) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.T("sim.adversary.header", map[string]any{"Bots": against}, 0))
	teamOf := func(side string) engine.Team {
		switch side {
		case "mafia":
			return engine.TeamMafia
		case "maniac":
			return engine.TeamManiac
		}
		return engine.TeamTown
	}
	width, sideWidth := 0, 0
	for _, r := range rows {
		width = max(width, utf8.RuneCountInString(r.Adversary))
		sideWidth = max(sideWidth, utf8.RuneCountInString(p.Team(teamOf(r.Side)))+1)
	}
	pad := func(s string, n int) string { return s + strings.Repeat(" ", n-utf8.RuneCountInString(s)) }
	pct := func(x float64) string { return fmt.Sprintf("%6.2f%%", 100*x) }
	for _, r := range rows {
		fmt.Fprintln(w, "  "+p.T("sim.adversary.row", map[string]any{"Adversary": pad(r.Adversary, width), "Side": pad(p.Team(teamOf(r.Side))+":", sideWidth),
			"Rate": pct(r.WinRate.Rate), "Lo": pct(r.WinRate.Lo95), "Hi": pct(r.WinRate.Hi95),
			"Base": pct(r.Baseline.Rate), "BaseLo": pct(r.Baseline.Lo95), "BaseHi": pct(r.Baseline.Hi95),
			"Diff": fmt.Sprintf("%+.1f", r.Points)}, 0))
	}
}

// baselineOf returns the result of against alone on cfg's seeds: the
// report's own line for that mix when it has one, else a run of its own.
func baselineOf(cfg sim.Config, rep []mixReport, against bot.Mix) sim.Result {
	for _, mr := range rep {
		if mr.Bots == against.String() {
			return mr.res
		}
	}
	c := cfg
	c.Bots = against
	res, _ := sim.Run(c) // the setup was validated by the report's runs
	return res
}
