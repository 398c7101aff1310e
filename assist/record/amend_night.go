package record

import (
	"mafia/engine"
)

// A night move's correction: a co-host says what the Detective checked,
// whom the Don checked, or whom the Doctor saved on one night. The
// correction replaces that card's action of the night (or goes before the
// entry that ended the night when none was entered), and the replay works
// out what follows from it: a victim the Doctor now saves lives, a check's
// answer changes.

// CodeNoSuchCard refuses a night move's correction for a card the deal
// does not hold (Name: the card).
const CodeNoSuchCard engine.Code = "fix_no_card"

// NightMove builds the amendment that makes the card's move on night round
// a check (the Detective, the Don) or a save (the Doctor) of target; 0 is
// no move (the card's skip; the Don's check cannot be taken back so, as
// his skip would skip his shot too). reached is false when the game has
// not finished that night. The card's seat is the deal's.
func NightMove(s *Settings, cmds []Command, round int, card engine.Role, target int) (a Amendment, reached bool, err error) {
	verb := engine.Check
	switch card {
	case engine.Detective, engine.Don:
	case engine.Doctor:
		verb = engine.Heal
	default:
		return a, false, &engine.Error{Code: CodeNoSuchCard, Name: card.String()}
	}
	if card == engine.Don && target == 0 {
		return a, false, &engine.Error{Code: engine.CodeNoSuchSeat, N: len(s.Names)}
	}
	g, log, err := Start(s)
	if err != nil {
		return a, false, err
	}
	seat := 0
	for i := 1; i <= len(s.Names); i++ {
		if g.Role(engine.Seat(i)) == card {
			seat = i
		}
	}
	if seat == 0 {
		return a, false, &engine.Error{Code: CodeNoSuchCard, Name: card.String()}
	}
	with := Command{Verb: verb.String(), By: seat, Target: target}
	if target == 0 {
		with = Command{Verb: engine.Skip.String(), By: seat}
	}
	r := &replayed{g: g, log: log}
	for _, i := range inForce(cmds) {
		c := cmds[i]
		night := r.g.Phase() == engine.PhaseNight && r.g.Round() == round
		if night && c.Part == 0 && c.By == seat &&
			(c.Verb == verb.String() || c.Verb == engine.Skip.String() && card != engine.Don) {
			return Amendment{At: i, With: []Command{with}}, true, nil
		}
		if err := r.apply(c); err != nil {
			return a, false, err
		}
		if night && (r.g.Phase() != engine.PhaseNight || r.g.Round() != round) {
			return Amendment{At: i - c.Part, Insert: true, With: []Command{with}}, true, nil
		}
	}
	return a, false, nil
}
