package bot

import (
	"strings"

	"mafia/engine"
)

// Level is how a bot plays: the names players choose from.
type Level uint8

// The levels.
const (
	LevelRandom Level = iota // legal moves at random (Random)
	LevelSmart               // beliefs and a plan per card (Smart)
	LevelExpert              // a probability over the hidden teams (Expert)
	numLevels
)

var levelNames = [numLevels]string{"random", "smart", "expert"}

// The scripted adversaries (adversary.go): levels that `mafia sim` seats
// one at a time, each an honest inner bot with one trick, to measure what
// the trick wins against the other levels. They are not offered for a
// table: Levels and ParseLevel leave them out, ParseAdversary reads them.
const (
	LevelFakeDet      Level = firstAdversary + iota // claims the Detective and "reports" town seats
	LevelFollower                                   // a town seat that believes every statement
	LevelCounterClaim                               // a mafioso that counter-claims every Detective claim
	LevelLateClaim                                  // a mafioso that claims the Detective once the claimer is gone
	endAdversaries
)

// firstAdversary is the first adversary's level, far from the playing ones.
const firstAdversary Level = 64

var adversaryNames = [endAdversaries - firstAdversary]string{"fakedet", "follower", "counterclaim", "lateclaim"}

// Levels lists the levels' names, in order.
func Levels() []string { return levelNames[:] }

// String returns the level's name.
func (l Level) String() string {
	if l < numLevels {
		return levelNames[l]
	}
	if l.IsAdversary() {
		return adversaryNames[l-firstAdversary]
	}
	return "?"
}

// The refusals of a bad level or mix (catalog ids "error.<code>").
const (
	// CodeUnknownBotLevel: Value is not a level (Values lists them).
	CodeUnknownBotLevel engine.Code = "unknown_bot_level"
	// CodeUnknownBotSide: Name is not a side of a mix (town, mafia, maniac).
	CodeUnknownBotSide engine.Code = "unknown_bot_side"
)

// Kinds are the kinds of the package's codes: a level or a mix as asked
// is invalid.
var Kinds = map[engine.Code]engine.Kind{CodeUnknownBotLevel: engine.KindInvalid, CodeUnknownBotSide: engine.KindInvalid,
	CodeUnknownAdversary: engine.KindInvalid, CodeAdversaryCard: engine.KindInvalid}

// ParseLevel reads a level's name; an unknown one is refused with
// CodeUnknownBotLevel.
func ParseLevel(s string) (Level, error) {
	s = strings.TrimSpace(s)
	for l := Level(0); l < numLevels; l++ {
		if levelNames[l] == s {
			return l, nil
		}
	}
	return 0, &engine.Error{Code: CodeUnknownBotLevel, Value: s}
}

// New returns a bot of the level seeded with seed (an adversary around a
// Smart bot: NewAdversary takes another inner bot).
func (l Level) New(seed uint64) Bot {
	switch l {
	case LevelSmart:
		return NewSmart(seed)
	case LevelExpert:
		return NewExpert(seed)
	}
	if l.IsAdversary() {
		return NewAdversary(l, NewSmart(seed), seed)
	}
	return NewRandom(seed)
}

// Mix is a level per side: every seat of a side gets its side's level.
type Mix struct {
	Town, Mafia, Maniac Level
}

// MixOf gives every side the same level.
func MixOf(l Level) Mix { return Mix{Town: l, Mafia: l, Maniac: l} }

// ParseMix reads a mix: one level for every seat ("smart"), or a level per
// side ("town=smart,mafia=random,maniac=random"; a side left out plays
// random). A bad level or side is refused with a coded error.
func ParseMix(s string) (Mix, error) {
	if !strings.Contains(s, "=") {
		l, err := ParseLevel(s)
		return MixOf(l), err
	}
	var m Mix
	for _, part := range strings.Split(s, ",") {
		side, level, _ := strings.Cut(strings.TrimSpace(part), "=")
		l, err := ParseLevel(level)
		if err != nil {
			return Mix{}, err
		}
		switch strings.TrimSpace(side) {
		case "town":
			m.Town = l
		case "mafia":
			m.Mafia = l
		case "maniac":
			m.Maniac = l
		default:
			return Mix{}, &engine.Error{Code: CodeUnknownBotSide, Name: strings.TrimSpace(side)}
		}
	}
	return m, nil
}

// For returns the level of the side a card plays for.
func (m Mix) For(r engine.Role) Level {
	switch r.Team() {
	case engine.TeamMafia:
		return m.Mafia
	case engine.TeamManiac:
		return m.Maniac
	}
	return m.Town
}

// String spells the mix as ParseMix reads it: one level when every side has
// it, else a level per side.
func (m Mix) String() string {
	if m.Town == m.Mafia && m.Mafia == m.Maniac {
		return m.Town.String()
	}
	return "town=" + m.Town.String() + ",mafia=" + m.Mafia.String() + ",maniac=" + m.Maniac.String()
}
