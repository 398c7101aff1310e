package bridge

import (
	"encoding/json"
	"strconv"
	"strings"

	"mafia/assist/record"
	"mafia/engine"
)

// NewGame is what the host fills in before a game: the JSON the page sends
// to POST /host/api/games, and the one it deals from itself when the server
// cannot be reached. The server and the page turn it into settings by the
// same function (Settings), so one seed gives the same deal on both.
type NewGame struct {
	Name    string            `json:"name"`
	Names   []string          `json:"names"`             // seat 1 first
	Setup   *setupJSON        `json:"setup,omitempty"`   // nil: the preset for the number of names
	Roles   []string          `json:"roles,omitempty"`   // record.DealManual: the cards as dealt by hand
	Options map[string]string `json:"options,omitempty"` // house rules
	Timings *record.Timings   `json:"timings,omitempty"` // nil: the defaults
	Deal    string            `json:"deal"`
	Lang    string            `json:"lang,omitempty"`
	// Club is the club's part of the protocol (record.ClubInfo), as given.
	Club *record.ClubInfo `json:"club,omitempty"`
}

// Settings checks the new game and deals its cards with a seed from
// newSeed, drawn only once the setup is valid (a seeded shuffle of the
// setup; a deal by hand keeps the host's cards and the seed "0"). Refusals
// are the engine's codes or record.CodeBadSettings.
func (ng *NewGame) Settings(newSeed func() uint64) (record.Settings, error) {
	s := record.Settings{Name: strings.TrimSpace(ng.Name), Options: ng.Options, Deal: ng.Deal,
		Timings: record.DefaultTimings(), Lang: ng.Lang, Club: ng.Club}
	for _, n := range ng.Names {
		s.Names = append(s.Names, strings.TrimSpace(n))
	}
	if ng.Timings != nil {
		s.Timings = *ng.Timings
	}
	if s.Options == nil {
		s.Options = map[string]string{}
	}
	n := len(s.Names)
	switch {
	case ng.Deal == record.DealManual:
		s.Roles, s.Seed = ng.Roles, "0"
	case len(ng.Roles) > 0:
		return s, &engine.Error{Code: record.CodeBadSettings, Name: "roles"}
	default:
		var setup engine.Setup
		if ng.Setup != nil {
			setup = ng.Setup.engine()
		} else {
			p, err := engine.Preset(n)
			if err != nil {
				return s, err
			}
			setup = p
		}
		if setup.Players() != n {
			return s, &engine.Error{Code: record.CodeBadSettings, Name: "setup", N: n}
		}
		if _, err := setup.Validate(); err != nil {
			return s, err
		}
		seed := newSeed()
		s.Seed = strconv.FormatUint(seed, 10)
		s.Roles = record.RoleNames(setup.Deal(seed, make([]engine.Role, n)))
	}
	_, _, _, err := s.Check()
	return s, err
}

// dealReply is Deal's answer: the settings with the deal, or a refusal.
type dealReply struct {
	Settings *record.Settings `json:"settings,omitempty"`
	Error    *Refusal         `json:"error,omitempty"`
}

// Deal makes a game's settings on the page, without the server: req is the
// JSON of a NewGame, seed the deal's seed in decimal (the page draws it from
// crypto.getRandomValues). A deal needing the server (record.DealLinks: the
// card links are the server's) is refused with record.CodeBadSettings,
// Name "deal_links".
func (b *Bridge) Deal(req, seed string) string {
	var ng NewGame
	if err := json.Unmarshal([]byte(req), &ng); err != nil {
		return encode(dealReply{Error: b.refusal(&engine.Error{Code: record.CodeBadSettings, Name: "json"})})
	}
	if ng.Deal == record.DealLinks {
		return encode(dealReply{Error: b.refusal(&engine.Error{Code: record.CodeBadSettings, Name: "deal_links"})})
	}
	n, err := strconv.ParseUint(seed, 10, 64)
	if err != nil {
		return encode(dealReply{Error: b.refusal(&engine.Error{Code: record.CodeBadSettings, Name: "seed"})})
	}
	s, err := ng.Settings(func() uint64 { return n })
	if err != nil {
		return encode(dealReply{Error: b.refusal(err)})
	}
	return encode(dealReply{Settings: &s})
}
