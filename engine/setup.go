package engine

import "mafia/rng"

// Setup is how many of each role a table deals.
type Setup struct {
	Don, Mafia, Maniac, Detective, Doctor, Citizens int
}

// presets is the table of docs/rules.md, by player count.
var presets = map[int]Setup{
	11: {Don: 1, Mafia: 2, Maniac: 1, Detective: 1, Doctor: 1, Citizens: 5},
	10: {Don: 1, Mafia: 2, Detective: 1, Doctor: 1, Citizens: 5},
	9:  {Don: 1, Mafia: 2, Detective: 1, Doctor: 1, Citizens: 4},
	8:  {Don: 1, Mafia: 1, Detective: 1, Doctor: 1, Citizens: 4},
	7:  {Don: 1, Mafia: 1, Detective: 1, Doctor: 1, Citizens: 3},
	6:  {Don: 1, Mafia: 1, Detective: 1, Doctor: 1, Citizens: 2},
	5:  {Don: 1, Detective: 1, Doctor: 1, Citizens: 2},
}

// PresetMin and PresetMax bound the player counts that have a preset.
const (
	PresetMin = 5
	PresetMax = 11
)

// Preset returns the default setup for a player count (5 to 11).
func Preset(players int) (Setup, error) {
	s, ok := presets[players]
	if !ok {
		if players < PresetMin {
			return Setup{}, &Error{Code: CodeTooFewSeats, N: PresetMin}
		}
		return Setup{}, &Error{Code: CodeTooManySeats, N: PresetMax}
	}
	return s, nil
}

// Players returns the number of seats the setup fills.
func (s Setup) Players() int {
	return s.Don + s.Mafia + s.Maniac + s.Detective + s.Doctor + s.Citizens
}

// SetupOf counts the roles of a fixed deal.
func SetupOf(roles []Role) Setup {
	// Counted by index, not by a switch: a deal is in random order, so a
	// switch's branches were mispredicted at every seat of every game.
	var n [numRoles]int
	for _, r := range roles {
		if r < numRoles {
			n[r]++
		}
	}
	return Setup{Don: n[Don], Mafia: n[Mafioso], Maniac: n[Maniac], Detective: n[Detective], Doctor: n[Doctor], Citizens: n[Citizen]}
}

// Validate checks a custom setup as docs/rules.md states: 3 to 20 players, at
// least one mafioso, fewer mafiosi than everyone else, at most one each of
// Don, detective, doctor and maniac. A maniac below 11 players is allowed
// with a warning (CodeManiacSmallTable), not refused.
func (s Setup) Validate() (warnings []Code, err error) {
	if s.Don < 0 || s.Mafia < 0 || s.Maniac < 0 || s.Detective < 0 || s.Doctor < 0 || s.Citizens < 0 {
		return nil, &Error{Code: CodeTooFewSeats, N: MinSeats}
	}
	// Each count is checked before they are added up: huge counts must not
	// wrap their sum into a table's size.
	for _, c := range []int{s.Don, s.Mafia, s.Maniac, s.Detective, s.Doctor, s.Citizens} {
		if c > MaxSeats {
			return nil, &Error{Code: CodeTooManySeats, N: MaxSeats}
		}
	}
	n := s.Players()
	if n < MinSeats {
		return nil, &Error{Code: CodeTooFewSeats, N: MinSeats}
	}
	if n > MaxSeats {
		return nil, &Error{Code: CodeTooManySeats, N: MaxSeats}
	}
	for _, c := range []struct {
		n int
		r Role
	}{{s.Don, Don}, {s.Detective, Detective}, {s.Doctor, Doctor}, {s.Maniac, Maniac}} {
		if c.n > 1 {
			return nil, &Error{Code: CodeDuplicateRole, Role: c.r}
		}
	}
	mafia := s.Don + s.Mafia
	if mafia < 1 {
		return nil, &Error{Code: CodeNoMafia}
	}
	if mafia >= n-mafia {
		return nil, &Error{Code: CodeMafiaMajority, N: mafia}
	}
	if s.Maniac > 0 && n < 11 {
		warnings = append(warnings, CodeManiacSmallTable)
	}
	return warnings, nil
}

// Roles returns the setup's cards in a fixed order (unshuffled).
func (s Setup) Roles() []Role {
	out := make([]Role, 0, s.Players())
	out = s.appendRoles(out)
	return out
}

func (s Setup) appendRoles(out []Role) []Role {
	for _, c := range []struct {
		n int
		r Role
	}{{s.Don, Don}, {s.Mafia, Mafioso}, {s.Maniac, Maniac}, {s.Detective, Detective}, {s.Doctor, Doctor}, {s.Citizens, Citizen}} {
		for i := 0; i < c.n; i++ {
			out = append(out, c.r)
		}
	}
	return out
}

// Deal shuffles the setup's cards with a seeded Fisher–Yates shuffle; the
// same seed always gives the same deal. It writes seat 1's card first into
// dst (which needs room for Players() cards) and returns the dealt cards.
func (s Setup) Deal(seed uint64, dst []Role) []Role {
	dst = s.appendRoles(dst[:0])
	src := rng.New(seed)
	for i := len(dst) - 1; i > 0; i-- {
		j := src.Intn(i + 1)
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}
