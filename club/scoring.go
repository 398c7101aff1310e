package club

import (
	"strconv"
	"strings"

	"mafia/engine"
)

// Points are a club's points in hundredths, so that sums are exact: 125 is
// 1.25 points.
type Points int

// String writes points with two decimals, as club sheets do: "1.25",
// "-0.50", "0.00".
func (p Points) String() string {
	sign := ""
	n := int(p)
	if n < 0 {
		sign, n = "-", -n
	}
	return sign + strconv.Itoa(n/100) + "." + twoDigits(n%100)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// ParsePoints reads points as String writes them ("1.25", "-0.5", "2"):
// at most two decimals.
func ParsePoints(s string) (Points, bool) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" || len(frac) > 2 || len(whole) > 6 {
		return 0, false
	}
	if whole == "" {
		whole = "0"
	}
	for len(frac) < 2 {
		frac += "0"
	}
	w, err1 := strconv.Atoi(whole)
	f, err2 := strconv.Atoi(frac)
	if err1 != nil || err2 != nil || w < 0 || f < 0 || strings.ContainsAny(whole+frac, "+-") {
		return 0, false
	}
	p := Points(w*100 + f)
	if neg {
		p = -p
	}
	return p, true
}

// MaxPoints bounds every number of a club's scoring rules, either way.
const MaxPoints Points = 1000 // 10.00

// Scoring is a club's scoring rules, in Points (hundredths). Every club
// may change them; DefaultScoring gives sport-mafia practice.
type Scoring struct {
	// Win is every winner's points (the winning side's players, not one
	// removed by fouls).
	Win Points `json:"win"`
	// BestMove2 and BestMove3 are the first-killed player's points for a
	// best move (their guess of three mafia) with two or three right.
	BestMove2 Points `json:"best_move_2"`
	BestMove3 Points `json:"best_move_3"`
	// ExtraMin and ExtraMax bound the host's extra points for one player
	// in one game.
	ExtraMin Points `json:"extra_min"`
	ExtraMax Points `json:"extra_max"`
	// Fouls is added for a removal by fouls: a penalty, so negative (or 0).
	Fouls Points `json:"fouls"`
	// FirstKilled is the compensation of the first night's victim (each
	// seat of Game.FirstKilled), whatever their best move: 0 or more.
	FirstKilled Points `json:"first_killed,omitempty"`
	// Preset names the preset the numbers come from (PresetNames; "": the
	// club's own numbers). A scoring sent with a preset takes the
	// preset's numbers (WithPreset).
	Preset string `json:"preset,omitempty"`
}

// DefaultScoring returns sport-mafia practice: a win 1.00; the best move
// 0.25 for two mafia right, 0.50 for three; the host's extra points from
// -0.50 to 0.70; a removal by fouls -0.50.
func DefaultScoring() Scoring {
	return Scoring{Win: 100, BestMove2: 25, BestMove3: 50, ExtraMin: -50, ExtraMax: 70, Fouls: -50}
}

// Check refuses rules out of range (Name says which): each number within
// ±MaxPoints, ExtraMin <= 0 <= ExtraMax, a removal by fouls no bonus, the
// first-killed player's compensation no penalty.
func (s Scoring) Check() error {
	for _, f := range []struct {
		name string
		p    Points
	}{{"win", s.Win}, {"best_move_2", s.BestMove2}, {"best_move_3", s.BestMove3},
		{"extra_min", s.ExtraMin}, {"extra_max", s.ExtraMax}, {"fouls", s.Fouls}, {"first_killed", s.FirstKilled}} {
		if f.p < -MaxPoints || f.p > MaxPoints {
			return &engine.Error{Code: CodeBadClub, Name: f.name}
		}
	}
	switch {
	case s.ExtraMin > 0:
		return &engine.Error{Code: CodeBadClub, Name: "extra_min"}
	case s.ExtraMax < 0:
		return &engine.Error{Code: CodeBadClub, Name: "extra_max"}
	case s.Fouls > 0:
		return &engine.Error{Code: CodeBadClub, Name: "fouls"}
	case s.FirstKilled < 0:
		return &engine.Error{Code: CodeBadClub, Name: "first_killed"}
	}
	return nil
}

// MarshalJSON writes points as a JSON number of points: 1.25.
func (p Points) MarshalJSON() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalJSON reads a JSON number of points with at most two decimals
// (1.25, -0.5, 2).
func (p *Points) UnmarshalJSON(b []byte) error {
	v, ok := ParsePoints(string(b))
	if !ok {
		return &engine.Error{Code: CodeBadClub, Name: "points", Value: string(b)}
	}
	*p = v
	return nil
}
