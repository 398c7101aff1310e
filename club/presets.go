package club

import (
	"mafia/engine"
)

// The named scoring presets a club may choose instead of setting every
// number (Scoring.Preset). docs/club.md gives each table and its source.
const (
	// PresetClub is the club's own defaults (DefaultScoring).
	PresetClub = "club"
	// PresetFIIM is the FIIM table as sport-mafia tournaments use it: a
	// win 1.00, the best move 0.40 for three mafia right and 0.25 for two,
	// the host's extra points, -0.50 for a removal by fouls, and the
	// first night's victim's compensation (FIIMScoring).
	PresetFIIM = "fiim"
)

// PresetNames lists the presets in the order a club's screen offers them.
var PresetNames = []string{PresetClub, PresetFIIM}

// FIIMScoring returns the FIIM table: win +1.00; best move 3 of 3 +0.40,
// 2 of 3 +0.25; the host's extra points from -0.50 to +0.70; a removal by
// fouls -0.50; the first-killed player's compensation +0.25 (FirstKilled).
func FIIMScoring() Scoring {
	return Scoring{Preset: PresetFIIM, Win: 100, BestMove2: 25, BestMove3: 40, ExtraMin: -50, ExtraMax: 70,
		Fouls: -50, FirstKilled: 25}
}

// PresetScoring returns the scoring of a named preset; false for a name
// that is none of PresetNames.
func PresetScoring(name string) (Scoring, bool) {
	switch name {
	case PresetClub:
		s := DefaultScoring()
		s.Preset = PresetClub
		return s, true
	case PresetFIIM:
		return FIIMScoring(), true
	}
	return Scoring{}, false
}

// WithPreset applies the preset a scoring names: its numbers replace the
// scoring's own (a club that names a preset counts by it; one that sets
// its own numbers names none). A scoring naming no preset is returned as
// it is; an unknown preset is refused CodeBadClub, Name "preset".
func (s Scoring) WithPreset() (Scoring, error) {
	if s.Preset == "" {
		return s, nil
	}
	p, ok := PresetScoring(s.Preset)
	if !ok {
		return s, &engine.Error{Code: CodeBadClub, Name: "preset", Value: s.Preset}
	}
	return p, nil
}
