package wire

import (
	"fmt"
	"strconv"

	"mafia/engine"
)

// Event is the JSON shape of an engine.Event. Which fields are present
// depends on Kind (docs/protocol.md lists them).
type Event struct {
	Kind       string            `json:"kind"`
	Round      int               `json:"round"`
	Phase      string            `json:"phase,omitempty"`
	Actor      int               `json:"actor,omitempty"`
	Target     int               `json:"target,omitempty"`
	Verb       string            `json:"verb,omitempty"` // a statement's
	Result     string            `json:"result,omitempty"`
	Cause      string            `json:"cause,omitempty"`
	Winner     string            `json:"winner,omitempty"`
	Role       string            `json:"role,omitempty"`
	Team       string            `json:"team,omitempty"`
	Yes        *bool             `json:"yes,omitempty"`
	Fouls      int               `json:"fouls,omitempty"`
	Players    int               `json:"players,omitempty"`
	Seats      []int             `json:"seats,omitempty"`
	Roles      []string          `json:"roles,omitempty"`
	Ballot     []int             `json:"ballot,omitempty"`
	Candidates []int             `json:"candidates,omitempty"`
	Seed       string            `json:"seed,omitempty"`
	Rules      map[string]string `json:"rules,omitempty"`
}

func seatList(m engine.SeatSet) []int {
	out := []int{}
	for _, s := range m.Seats() {
		out = append(out, int(s))
	}
	return out
}

// FromEvent converts an engine event to its JSON shape. players is the
// table's size (it bounds per-seat tables).
func FromEvent(e engine.Event, players int) Event {
	w := Event{Kind: e.Kind.String(), Round: int(e.Round), Actor: int(e.Actor), Target: int(e.Target)}
	if e.Result != engine.ResultNone {
		w.Result = e.Result.String()
	}
	if e.Cause != engine.CauseNone {
		w.Cause = e.Cause.String()
	}
	if e.Winner != engine.WinnerNone {
		w.Winner = e.Winner.String()
	}
	if e.Role != engine.RoleNone {
		w.Role = e.Role.String()
	}
	if e.Team != engine.TeamNone {
		w.Team = e.Team.String()
	}
	switch e.Kind {
	case engine.EvGameStarted:
		players = int(e.Count)
		w.Players = players
		w.Rules = e.Rules.Map()
		if e.Seed != 0 {
			w.Seed = strconv.FormatUint(e.Seed, 10)
		}
		w.Roles = roleList(e, players)
	case engine.EvGameEnded:
		w.Roles = roleList(e, players)
	case engine.EvNightEnded, engine.EvAllVoteClosed:
		w.Seats = seatList(e.Set)
	case engine.EvFouled:
		w.Fouls = int(e.Count)
	case engine.EvVoteBegan, engine.EvTie:
		w.Candidates = []int{}
		for _, s := range e.List() {
			w.Candidates = append(w.Candidates, int(s))
		}
	case engine.EvVoteClosed:
		w.Ballot = make([]int, players)
		for s := 1; s <= players && s <= engine.MaxSeats; s++ {
			w.Ballot[s-1] = int(e.CountedFor(engine.Seat(s)))
		}
	case engine.EvStatement:
		w.Verb = e.Verb.String()
		if e.Verb == engine.BestMove {
			w.Seats = seatList(e.Set) // the guess
		}
	}
	if e.Kind == engine.EvVoteBegan || e.Kind == engine.EvVoteClosed || e.Kind == engine.EvTie || e.Kind == engine.EvStatement || e.Kind == engine.EvVoteMade {
		if e.Phase != engine.PhaseNone {
			w.Phase = e.Phase.String()
		}
	}
	if e.Kind == engine.EvAllVoteCast || e.Kind == engine.EvAllVoteClosed {
		yes := e.Yes
		w.Yes = &yes
	}
	return w
}

func roleList(e engine.Event, players int) []string {
	out := make([]string, players)
	for s := 1; s <= players && s <= engine.MaxSeats; s++ {
		out[s-1] = e.RoleOf(engine.Seat(s)).String()
	}
	return out
}

// ToEvent converts the JSON shape back to an engine event. Unknown names and
// seats off a 20-seat table are refused.
func ToEvent(w Event) (engine.Event, error) {
	var e engine.Event
	k, ok := engine.ParseEventKind(w.Kind)
	if !ok {
		return e, fmt.Errorf("wire: unknown event kind %q", w.Kind)
	}
	e.Kind = k
	if w.Round < 0 || w.Round > 65535 {
		return e, fmt.Errorf("wire: round %d out of range", w.Round)
	}
	e.Round = uint16(w.Round)
	var err error
	if e.Actor, err = seat(w.Actor); err != nil {
		return e, err
	}
	if e.Target, err = seat(w.Target); err != nil {
		return e, err
	}
	if w.Result != "" {
		if e.Result, ok = engine.ParseResult(w.Result); !ok {
			return e, fmt.Errorf("wire: unknown result %q", w.Result)
		}
	}
	if w.Cause != "" {
		if e.Cause, ok = parseCause(w.Cause); !ok {
			return e, fmt.Errorf("wire: unknown cause %q", w.Cause)
		}
	}
	if w.Winner != "" {
		if e.Winner, ok = engine.ParseWinner(w.Winner); !ok {
			return e, fmt.Errorf("wire: unknown winner %q", w.Winner)
		}
	}
	if w.Role != "" {
		if e.Role, ok = engine.ParseRole(w.Role); !ok {
			return e, fmt.Errorf("wire: unknown role %q", w.Role)
		}
	}
	if w.Team != "" {
		if e.Team, ok = parseTeam(w.Team); !ok {
			return e, fmt.Errorf("wire: unknown team %q", w.Team)
		}
	}
	if w.Yes != nil {
		e.Yes = *w.Yes
	}
	if w.Phase != "" {
		if e.Phase, ok = engine.ParsePhase(w.Phase); !ok {
			return e, fmt.Errorf("wire: unknown phase %q", w.Phase)
		}
	}
	if w.Verb != "" {
		if e.Verb, ok = engine.ParseVerb(w.Verb); !ok || !e.Verb.IsStatement() {
			return e, fmt.Errorf("wire: %q is no statement", w.Verb)
		}
	}
	for _, s := range w.Seats {
		t, err := seat(s)
		if err != nil || t == 0 {
			return e, fmt.Errorf("wire: seat %d out of range", s)
		}
		e.Set = e.Set.With(t)
	}
	if len(w.Roles) > engine.MaxSeats || len(w.Ballot) > engine.MaxSeats || len(w.Candidates) > engine.MaxSeats {
		return e, fmt.Errorf("wire: list longer than %d seats", engine.MaxSeats)
	}
	for i, name := range w.Roles {
		if name == "" {
			continue
		}
		r, ok := engine.ParseRole(name)
		if !ok {
			return e, fmt.Errorf("wire: unknown role %q", name)
		}
		e.SetRoleOf(engine.Seat(i+1), r)
	}
	for i, c := range w.Ballot {
		t, err := seat(c)
		if err != nil {
			return e, err
		}
		e.SetCountedFor(engine.Seat(i+1), t)
	}
	for i, c := range w.Candidates {
		t, err := seat(c)
		if err != nil || t == 0 {
			return e, fmt.Errorf("wire: candidate %d out of range", c)
		}
		e.SetListAt(i, t)
	}
	switch k {
	case engine.EvGameStarted:
		if w.Players < engine.MinSeats || w.Players > engine.MaxSeats {
			return e, fmt.Errorf("wire: %d players out of range", w.Players)
		}
		e.Count = uint8(w.Players)
		if e.Rules, err = engine.ParseRules(w.Rules); err != nil {
			return e, fmt.Errorf("wire: rules: %v", err)
		}
		if w.Seed != "" {
			if e.Seed, err = strconv.ParseUint(w.Seed, 10, 64); err != nil {
				return e, fmt.Errorf("wire: seed %q", w.Seed)
			}
		}
	case engine.EvFouled:
		if w.Fouls < 0 || w.Fouls > 255 {
			return e, fmt.Errorf("wire: fouls %d out of range", w.Fouls)
		}
		e.Count = uint8(w.Fouls)
	case engine.EvVoteBegan, engine.EvTie:
		e.Count = uint8(len(w.Candidates))
	}
	return e, nil
}

func seat(x int) (engine.Seat, error) {
	if x < 0 || x > engine.MaxSeats {
		return 0, fmt.Errorf("wire: seat %d out of range", x)
	}
	return engine.Seat(x), nil
}

func parseCause(s string) (engine.Cause, bool) {
	for c := engine.CauseNight; c.String() != "?"; c++ {
		if c.String() == s {
			return c, true
		}
	}
	return engine.CauseNone, false
}

func parseTeam(s string) (engine.Team, bool) {
	for t := engine.TeamTown; t <= engine.TeamManiac; t++ {
		if t.String() == s {
			return t, true
		}
	}
	return engine.TeamNone, false
}

// MarshalEvent encodes an event as JSON, as frames carry it (Event's
// AppendJSON: the wire has one encoder; encoding/json is its reference in
// the tests).
func MarshalEvent(e engine.Event, players int) ([]byte, error) {
	w := FromEvent(e, players)
	return w.AppendJSON(nil), nil
}
