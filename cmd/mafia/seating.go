package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"mafia/seating"
)

// seatingUsage is the usage line of mafia seating.
const seatingUsage = "usage: mafia seating --players N --tables T --games G [--seed S] [--avoid a-b,...] [--seats 10] [--json] [--lang ka|en|ru]"

// runSeating prints a tournament's seating (package seating): each round's
// tables, each table's players in seat order, as JSON
// ({"rounds":[[[p1,…],…],…]}) or as text with how it meets the bounds.
func runSeating(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("seating", flag.ContinueOnError)
	fs.SetOutput(stderr)
	players := fs.Int("players", 0, "players, numbered 1..N")
	tables := fs.Int("tables", 0, "tables playing each round")
	games := fs.Int("games", 0, "games for each player")
	seats := fs.Int("seats", seating.DefaultSeats, "seats at each table")
	seed := fs.Uint64("seed", 1, "the seed: the same seed gives the same seating")
	avoid := fs.String("avoid", "", "pairs never to share a table: a-b,c-d")
	asJSON := fs.Bool("json", false, `print {"rounds":[[[p1,...],...],...]}`)
	lang := fs.String("lang", "", "language: ka, en or ru (default from the environment)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, seatingUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	p, _ := localePrinter(*lang)
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	refuse := func(err error) int {
		fmt.Fprintln(stderr, p.Refusal(err))
		fmt.Fprintln(stderr, seatingUsage)
		return 2
	}
	pairs, err := seating.ParseAvoid(*avoid)
	if err != nil {
		return refuse(err)
	}
	cfg := seating.Config{Players: *players, Tables: *tables, Seats: *seats, Games: *games, Avoid: pairs, Seed: *seed}
	s, err := seating.Generate(cfg)
	if err != nil {
		return refuse(err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		if err := enc.Encode(s); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	var b strings.Builder
	for r, round := range s.Rounds {
		fmt.Fprintln(&b, p.T("seating.round", map[string]any{"N": r + 1}))
		for t, tab := range round {
			nums := make([]string, len(tab))
			for k, pl := range tab {
				nums[k] = fmt.Sprintf("%3d", pl)
			}
			fmt.Fprintf(&b, "  %s %s\n", p.T("seating.table", map[string]any{"N": t + 1}), strings.Join(nums, " "))
		}
	}
	rep := seating.Measure(cfg, s)
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, p.T("seating.summary", map[string]any{"Games": rep.GamesMin, "SeatMin": rep.SeatMin, "SeatMax": rep.SeatMax,
		"PairMin": rep.PairMin, "PairMax": rep.PairMax, "Mean": strconv.FormatFloat(rep.PairMean, 'f', 2, 64), "SitOut": rep.SitOutMin}))
	io.WriteString(stdout, b.String())
	return 0
}
