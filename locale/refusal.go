package locale

import (
	"errors"

	"mafia/engine"
)

// pluralCodes are the refusals whose sentence counts something (their N).
var pluralCodes = map[engine.Code]bool{
	engine.CodeNoShotsLeft:       true,
	engine.CodeTooManySeats:      true,
	engine.CodeTooFewSeats:       true,
	engine.CodeMafiaMajority:     true,
	engine.CodeTooManyStatements: true,
	"name_too_long":              true, // the room's: a name over N characters
	"seat_limit":                 true, // the room's: N seats taken from one address
	"own_seat_limit":             true, // the room's: N seats of a player and their bots at a rated table
	"sandbox_deal_size":          true, // the room's: a deal for a table of N seats
}

// Refusal renders an engine refusal (an *engine.Error, possibly wrapped) as
// one plain sentence addressed to the player whose command it refused:
// "Seat 4 has already been healed this game.", "It is not your speech.".
// Warnings such as maniac_small_table render the same way. Any other error
// gets a generic sentence: internal details are not for players.
func (p *Printer) Refusal(err error) string {
	var e *engine.Error
	if !errors.As(err, &e) || e == nil {
		return p.T("error.generic", nil)
	}
	id, data := p.refusalMessage(e)
	if !p.Has(id) {
		return p.T("error.generic", nil)
	}
	if pluralCodes[e.Code] {
		return p.Plural(id, e.N, data)
	}
	return p.T(id, data)
}

// refusalMessage picks the catalog message for e and fills its data: the
// error's parameters plus the localized names a sentence needs.
func (p *Printer) refusalMessage(e *engine.Error) (string, map[string]any) {
	data := e.Params()
	data["PhaseName"] = p.Phase(e.Phase)
	data["RoleName"] = p.Role(e.Role)
	id := "error." + string(e.Code)
	switch e.Code {
	case engine.CodeWrongPhase:
		if e.Phase == engine.PhaseNone {
			id = "error.wrong_phase_none"
		}
	case engine.CodeNoSuchSeat:
		if e.Value != "" {
			data["Seat"] = e.Value // the number as the client sent it (it may not fit a Seat)
		}
	case "bad_club": // club.CodeBadClub
		switch e.Name {
		case "preset":
			id = "error.bad_club_preset" // a scoring system the server does not know
		case "format":
			id = "error.bad_club_format" // an export format the server does not know
		}
	case "bad_extra": // club.CodeBadExtra (the club's code; club is not imported here)
		if e.Seat != 0 {
			id = "error.bad_extra_seat" // which seat's points are refused
		}
	case engine.CodeUnknownRole:
		if e.Name == "" {
			id = "error.unknown_role_deal"
		}
	case engine.CodeBadClaim:
		var cards []string
		for r := engine.Citizen; engine.Claimable(r); r++ {
			cards = append(cards, p.Role(r))
		}
		data["Values"] = p.Or(cards)
	case engine.CodeBadResult:
		// the answers every table's Detective may hear (maniac_check=maniac
		// adds the maniac: the sentence names the common ones)
		data["Values"] = p.Or([]string{p.Result(engine.ResultMafia), p.Result(engine.ResultNotMafia)})
	case engine.CodeBadOptionValue:
		switch o := findOption(e.Name); {
		case e.Name == "" || o == nil:
			id = "error.bad_option_value_rules"
		case o.Values == nil:
			id = "error.bad_option_value_number"
			data["Min"], data["N"] = o.Min, o.Max
		default:
			data["Values"] = p.Or(o.Values)
		}
	}
	return id, data
}

func findOption(name string) *engine.Option {
	for i := range engine.Options {
		if engine.Options[i].Name == name {
			return &engine.Options[i]
		}
	}
	return nil
}
