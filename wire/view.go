package wire

import "mafia/engine"

// Seat is one seat as a viewer sees it.
type Seat struct {
	Seat       int    `json:"seat"`
	Alive      bool   `json:"alive"`
	Fouls      int    `json:"fouls"`
	LostSpeech bool   `json:"lost_speech,omitempty"`
	Role       string `json:"role,omitempty"`   // known to this viewer
	Team       string `json:"team,omitempty"`   // known to this viewer
	Check      string `json:"check,omitempty"`  // this viewer's check answer about the seat
	Choice     int    `json:"choice,omitempty"` // mafia: this teammate's victim tonight
	Vote       int    `json:"vote,omitempty"`   // the last closed vote: counted for
}

// Night is the viewer's own night, tonight.
type Night struct {
	Kill   int   `json:"kill,omitempty"`
	Check  int   `json:"check,omitempty"`
	Shot   int   `json:"shot,omitempty"`
	Heal   int   `json:"heal,omitempty"`
	Skip   bool  `json:"skip,omitempty"`
	Shots  *int  `json:"shots_left,omitempty"`  // maniac
	Healed []int `json:"healed,omitempty"`      // doctor: healed so far this game
	Banned int   `json:"heal_banned,omitempty"` // doctor: not the same as last night
}

// Legal lists what the viewer may do now: verbs with their targets.
type Legal struct {
	Kill     []int `json:"kill,omitempty"`
	Check    []int `json:"check,omitempty"`
	Shoot    []int `json:"shoot,omitempty"`
	Heal     []int `json:"heal,omitempty"`
	Nominate []int `json:"nominate,omitempty"`
	Vote     []int `json:"vote,omitempty"`
	Skip     bool  `json:"skip,omitempty"`
	AllVote  bool  `json:"all_vote,omitempty"`
	Pass     bool  `json:"pass,omitempty"`
}

// View is the JSON shape of an engine.View.
type View struct {
	Seat       int    `json:"seat"` // 0: spectator
	Players    int    `json:"players"`
	Phase      string `json:"phase"`
	Round      int    `json:"round"`
	Speaker    int    `json:"speaker,omitempty"`
	Winner     string `json:"winner,omitempty"`
	Role       string `json:"role,omitempty"`
	Candidates []int  `json:"candidates"`
	Nominated  bool   `json:"nominated,omitempty"`
	Victims    []int  `json:"victims"`
	Seats      []Seat `json:"seats"`
	Night      *Night `json:"night,omitempty"`
	Voted      bool   `json:"voted,omitempty"`
	MyVote     int    `json:"my_vote,omitempty"`
	MyYes      bool   `json:"my_yes,omitempty"`
	Legal      Legal  `json:"legal"`
	Rules      Rules  `json:"rules"`
}

func list(m engine.SeatSet) []int {
	out := make([]int, 0, m.Len())
	for m != 0 {
		s := m.First()
		out = append(out, int(s))
		m = m.Without(s)
	}
	return out
}

// FromView converts a view to its JSON shape, with the legal moves of its seat.
func FromView(v *engine.View) View { return FromViewRules(v, NewRules(v.Rules)) }

// FromViewRules is FromView with the view's rules already converted: a room
// converts its game's rules once and passes them to every view.
func FromViewRules(v *engine.View, rules Rules) View {
	w := View{
		Seat: int(v.Seat), Players: int(v.Players), Phase: v.Phase.String(), Round: int(v.Round),
		Speaker: int(v.Speaker), Nominated: v.Nominated, Victims: list(v.Victims),
		Candidates: make([]int, 0, v.NumCandidates), Seats: make([]Seat, 0, v.Players),
		Rules: rules,
	}
	if v.Winner != engine.WinnerNone {
		w.Winner = v.Winner.String()
	}
	if v.Role != engine.RoleNone {
		w.Role = v.Role.String()
	}
	for i := uint8(0); i < v.NumCandidates; i++ {
		w.Candidates = append(w.Candidates, int(v.Candidates[i]))
	}
	for s := engine.Seat(1); s <= engine.Seat(v.Players); s++ {
		st := Seat{Seat: int(s), Alive: v.Alive.Has(s), Fouls: int(v.Fouls[s]), LostSpeech: v.LostSpeech.Has(s),
			Choice: int(v.MafiaChoice[s]), Vote: int(v.Ballot[s])}
		if r := v.Roles[s]; r != engine.RoleNone {
			st.Role = r.String()
		}
		if t := v.Teams[s]; t != engine.TeamNone {
			st.Team = t.String()
		}
		if c := v.Checks[s]; c != engine.ResultNone {
			st.Check = c.String()
		}
		w.Seats = append(w.Seats, st)
	}
	if v.Seat != 0 && v.Phase == engine.PhaseNight || v.Role == engine.Maniac || v.Role == engine.Doctor {
		n := &Night{Kill: int(v.KillTarget), Check: int(v.CheckTarget), Shot: int(v.ShotTarget),
			Heal: int(v.HealTarget), Skip: v.Skipped, Banned: int(v.HealBanned)}
		if v.Role == engine.Maniac {
			left := int(v.ShotsLeft)
			n.Shots = &left
		}
		if v.Role == engine.Doctor {
			n.Healed = list(v.Healed)
		}
		w.Night = n
	}
	if v.Phase == engine.PhaseVote || v.Phase == engine.PhaseRevote || v.Phase == engine.PhaseAllVote {
		w.Voted, w.MyVote, w.MyYes = v.Voted, int(v.MyVote), v.MyYes
	}
	w.Legal = Legal{
		Kill: list(v.Targets(engine.Kill)), Check: list(v.Targets(engine.Check)), Shoot: list(v.Targets(engine.Shoot)),
		Heal: list(v.Targets(engine.Heal)), Nominate: list(v.Targets(engine.Nominate)), Vote: list(v.Targets(engine.Vote)),
		Skip: v.Can(engine.Skip), AllVote: v.Can(engine.AllVote), Pass: v.Can(engine.Pass),
	}
	return w
}
