package club

import (
	"errors"
	"testing"

	"mafia/engine"
)

// TestFIIM_EachRuleOfTheTableAgainstAHandComputation pins the FIIM preset
// rule by rule on one 7-seat game (1 don, 2 mafia, 3 maniac, 4 detective,
// 5 doctor, 6 and 7 citizens): the numbers in each want are worked by hand
// from the table in docs/club.md (win 1.00, best move 0.40 / 0.25, extras
// as given, fouls -0.50, the first night's victim +0.25).
func TestFIIM_EachRuleOfTheTableAgainstAHandComputation(t *testing.T) {
	night1 := Seat{Seat: 4, Out: "night", OutOrder: 1, OutRound: 1}
	for _, c := range []struct {
		name   string
		winner string
		outs   []Seat
		bm     *BestMove
		extra  []Extra
		want   map[int]Points // seat → total; seats not named: 0
	}{
		{"a town win: +1.00 to each town card (4 5 6 7)", "town", nil, nil, nil,
			map[int]Points{4: 100, 5: 100, 6: 100, 7: 100}},
		{"a mafia win: +1.00 to the don and the mafioso", "mafia", nil, nil, nil,
			map[int]Points{1: 100, 2: 100}},
		{"the first night's victim: +0.25 compensation besides the town's win", "town", []Seat{night1}, nil, nil,
			map[int]Points{4: 125, 5: 100, 6: 100, 7: 100}},
		{"best move 3 of 3 is impossible with 2 mafia here; 2 of 3: +0.25 +0.25 compensation, lost", "mafia", []Seat{night1},
			&BestMove{Seat: 4, Guess: []int{1, 2, 3}}, nil, map[int]Points{1: 100, 2: 100, 4: 50}},
		{"best move with 1 right: only the compensation", "mafia", []Seat{night1},
			&BestMove{Seat: 4, Guess: []int{1, 3, 5}}, nil, map[int]Points{1: 100, 2: 100, 4: 25}},
		{"removal by fouls: -0.50 and no win", "town", []Seat{{Seat: 6, Out: "fouls", OutOrder: 1, OutRound: 1}}, nil, nil,
			map[int]Points{4: 100, 5: 100, 6: -50, 7: 100}},
		{"extras as given: +0.70 and -0.50", "maniac", nil, nil, []Extra{{Seat: 3, Points: 70}, {Seat: 1, Points: -50}},
			map[int]Points{1: -50, 3: 170}},
	} {
		g := seven("g", "2026-01-01", c.winner, c.outs...)
		g.BestMove, g.Extra = c.bm, c.extra
		for _, l := range FIIMScoring().Score(&g) {
			if l.Total != c.want[l.Seat.Seat] {
				t.Errorf("%s: seat %d has %s; want %s", c.name, l.Seat.Seat, l.Total, c.want[l.Seat.Seat])
			}
		}
	}
}

// TestFIIM_ThreeOfThreeEarnsPointFour: with the three mafia of a 10-seat
// FIIM table named, the first-killed player earns 0.40 and the 0.25
// compensation.
func TestFIIM_ThreeOfThreeEarnsPointFour(t *testing.T) {
	roles := []string{"don", "mafia", "mafia", "detective", "citizen", "citizen", "citizen", "citizen", "citizen", "citizen"}
	g := Game{Date: "2026-01-01", Winner: "mafia"}
	for i, r := range roles {
		g.Seats = append(g.Seats, Seat{Seat: i + 1, Name: "P", Role: r})
	}
	g.Seats[4].Out, g.Seats[4].OutOrder, g.Seats[4].OutRound = "night", 1, 1
	g.BestMove = &BestMove{Seat: 5, Guess: []int{3, 1, 2}}
	for _, l := range FIIMScoring().Score(&g) {
		if l.Seat.Seat == 5 && (l.BestMove != 40 || l.Compensation != 25 || l.Total != 65) {
			t.Errorf("seat 5: best move %s, compensation %s, total %s; want 0.40, 0.25, 0.65", l.BestMove, l.Compensation, l.Total)
		}
	}
}

// TestPresets_ANamedPresetGivesItsNumbers: a scoring naming a preset takes
// the preset's numbers whatever numbers came with it; one naming none
// keeps its own; an unknown name is refused bad_club, Name preset.
func TestPresets_ANamedPresetGivesItsNumbers(t *testing.T) {
	s, err := Scoring{Preset: "fiim", Win: 700}.WithPreset()
	if err != nil || s != FIIMScoring() {
		t.Errorf("fiim: %+v, %v; want %+v", s, err, FIIMScoring())
	}
	s, err = Scoring{Preset: "club"}.WithPreset()
	if want := DefaultScoring(); err != nil || s.Win != want.Win || s.BestMove3 != want.BestMove3 || s.Preset != "club" {
		t.Errorf("club: %+v, %v", s, err)
	}
	own := Scoring{Win: 300, BestMove3: 100, ExtraMax: 10}
	if s, err = own.WithPreset(); err != nil || s != own {
		t.Errorf("own numbers: %+v, %v", s, err)
	}
	_, err = Scoring{Preset: "polemica-2019"}.WithPreset()
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != CodeBadClub || e.Name != "preset" {
		t.Errorf("an unknown preset: %v; want bad_club preset", err)
	}
	for _, n := range PresetNames {
		if p, _ := PresetScoring(n); p.Check() != nil {
			t.Errorf("preset %s fails its own check: %v", n, p.Check())
		}
	}
	if (Scoring{FirstKilled: -10}).Check() == nil {
		t.Error("a negative compensation is accepted")
	}
}
