package record

import "mafia/engine"

// State is what the host's screens need to draw the game now: the host's
// view of the table and, at night, the wake script. It is built from the
// engine's views, so the choices it offers are the engine's legal moves.
type State struct {
	Phase      string   `json:"phase"`
	Round      int      `json:"round"`
	Step       int      `json:"step"` // the step number (StepOf): a control carries the one it was drawn for
	Speaker    int      `json:"speaker"`
	Winner     string   `json:"winner,omitempty"`
	Players    int      `json:"players"`
	Alive      []int    `json:"alive"`
	Candidates []int    `json:"candidates"`
	Nominated  bool     `json:"nominated"`
	Nominate   []int    `json:"nominate"` // whom the speaker may nominate now
	Pending    []int    `json:"pending"`  // in a vote: who has not voted yet
	Fouls      []int    `json:"fouls"`    // by seat, index 0 unused
	LostSpeech []int    `json:"lost_speech"`
	Roles      []string `json:"roles"` // by seat, index 0 unused
	Victims    []int    `json:"victims"`
	FoulLimit  int      `json:"foul_limit"`
	LastWords  bool     `json:"last_words"` // the last_words option is on
	Queue      []int    `json:"queue"`      // who speaks after the current speaker in this step
	Night      *Script  `json:"night,omitempty"`
}

// Script is one night's wakes in the sheet's order: the mafia, the Don, the
// detective, from night 2 the maniac, the doctor. Roles that are not in the
// deal are not woken; roles that are out of the game still are (Alive false),
// so the table cannot tell who is out.
type Script struct {
	Round   int    `json:"round"`
	Meeting bool   `json:"meeting"` // the acquaintance night: nobody acts
	Wakes   []Wake `json:"wakes"`
}

// Wake is one role's turn.
type Wake struct {
	Role      string `json:"role"`    // mafia, don, detective, maniac, doctor
	Seats     []int  `json:"seats"`   // who holds the card(s)
	Alive     bool   `json:"alive"`   // someone with the card is still in the game
	Actor     int    `json:"actor"`   // who acts for the card (the mafia: the senior living mafioso)
	Verb      string `json:"verb"`    // kill, check, shoot, heal
	Targets   []int  `json:"targets"` // the legal targets now (empty once acted)
	Acted     bool   `json:"acted"`   // the card has acted (or skipped) tonight
	Target    int    `json:"target"`  // whom it named tonight
	Result    string `json:"result,omitempty"`
	CanSkip   bool   `json:"can_skip"`
	ShotsLeft int    `json:"shots_left,omitempty"` // the maniac's
}

func list(m engine.SeatSet) []int {
	out := make([]int, 0, m.Len())
	for _, s := range m.Seats() {
		out = append(out, int(s))
	}
	return out
}

// Snapshot builds the host's state of a game.
func Snapshot(g *engine.Game) State {
	v := g.HostView()
	n := g.Players()
	st := State{Phase: v.Phase.String(), Round: int(v.Round), Speaker: int(v.Speaker), Players: n,
		Alive: list(v.Alive), Candidates: []int{}, Nominated: v.Nominated, Nominate: []int{}, Pending: []int{},
		Fouls: make([]int, n+1), LostSpeech: list(v.LostSpeech), Roles: make([]string, n+1), Victims: list(v.Victims),
		FoulLimit: int(v.Rules.FoulLimit), LastWords: v.Rules.LastWords == engine.LastWordsOn}
	if v.Winner != engine.WinnerNone {
		st.Winner = v.Winner.String()
	}
	for _, c := range v.CandidateList() {
		st.Candidates = append(st.Candidates, int(c))
	}
	for s := 1; s <= n; s++ {
		st.Fouls[s] = int(v.Fouls[s])
		st.Roles[s] = g.Role(engine.Seat(s)).String()
	}
	switch g.Phase() {
	case engine.PhaseSpeech:
		sv := g.ViewFor(g.Speaker())
		st.Nominate = list(sv.Targets(engine.Nominate))
	case engine.PhaseVote, engine.PhaseRevote, engine.PhaseAllVote:
		st.Pending = list(g.Pending())
	case engine.PhaseNight:
		st.Night = night(g)
	}
	return st
}

// night builds the wake script of the current night.
func night(g *engine.Game) *Script {
	v := g.HostView()
	sc := &Script{Round: int(v.Round), Meeting: v.Round == 1 && v.Rules.FirstNight == engine.FirstNightMeeting, Wakes: []Wake{}}
	var mafia []int
	holder := map[engine.Role]engine.Seat{}
	for s := engine.Seat(1); s <= engine.Seat(g.Players()); s++ {
		r := g.Role(s)
		if r.IsMafia() {
			mafia = append(mafia, int(s))
		}
		if r != engine.Mafioso && r != engine.Citizen {
			holder[r] = s
		}
	}
	if len(mafia) > 0 {
		w := Wake{Role: "mafia", Seats: mafia, Verb: engine.Kill.String(), Targets: []int{}}
		w.Actor = int(Senior(g))
		w.Alive = w.Actor != 0
		if w.Alive {
			av := g.ViewFor(engine.Seat(w.Actor))
			w.Targets = list(av.Targets(engine.Kill))
			w.Acted = av.MafiaActed.Has(engine.Seat(w.Actor)) || av.Skipped
			w.Target = int(av.KillTarget)
			w.CanSkip = !w.Acted
		}
		sc.Wakes = append(sc.Wakes, w)
	}
	for _, r := range []engine.Role{engine.Don, engine.Detective, engine.Maniac, engine.Doctor} {
		s, ok := holder[r]
		if !ok || (r == engine.Maniac && v.Round < 2) {
			continue
		}
		sc.Wakes = append(sc.Wakes, wake(g, r, s))
	}
	if sc.Meeting {
		for i := range sc.Wakes {
			sc.Wakes[i].Targets, sc.Wakes[i].CanSkip = []int{}, false
		}
	}
	return sc
}

var wakeVerb = map[engine.Role]engine.Verb{
	engine.Don: engine.Check, engine.Detective: engine.Check, engine.Maniac: engine.Shoot, engine.Doctor: engine.Heal,
}

func wake(g *engine.Game, r engine.Role, s engine.Seat) Wake {
	verb := wakeVerb[r]
	w := Wake{Role: r.String(), Seats: []int{int(s)}, Actor: int(s), Verb: verb.String(), Targets: []int{},
		Alive: g.Alive().Has(s)}
	if !w.Alive {
		return w
	}
	v := g.ViewFor(s)
	w.Targets = list(v.Targets(verb))
	switch r {
	case engine.Don, engine.Detective:
		w.Target = int(v.CheckTarget)
		if w.Target != 0 {
			w.Result = v.Checks[w.Target].String()
		}
	case engine.Maniac:
		w.Target = int(v.ShotTarget)
		w.ShotsLeft = int(v.ShotsLeft)
	case engine.Doctor:
		w.Target = int(v.HealTarget)
	}
	w.Acted = w.Target != 0 || v.Skipped
	w.CanSkip = v.Can(engine.Skip) && !w.Acted
	return w
}

// Senior returns the senior living mafioso (the Don; if the Don is out, the
// living mafioso with the lowest seat), or 0 when the mafia is out.
func Senior(g *engine.Game) engine.Seat {
	var first engine.Seat
	for _, s := range g.Alive().Seats() {
		switch g.Role(s) {
		case engine.Don:
			return s
		case engine.Mafioso:
			if first == 0 {
				first = s
			}
		}
	}
	return first
}

// MafiaCommands returns the commands that enter the mafia's choice as the
// host saw it: target (0 for a miss). Under the senior rule the senior
// living mafioso names the victim; under the unanimous rule every living
// mafioso names the same one. A miss is a skip by every living mafioso but
// the Don: the Don's own skip would end his check too, so the host's screen
// enters it after the Don's check.
func MafiaCommands(g *engine.Game, target engine.Seat) []engine.Command {
	var out []engine.Command
	senior := Senior(g)
	if senior == 0 {
		return nil
	}
	for _, s := range g.Alive().Seats() {
		r := g.Role(s)
		if !r.IsMafia() {
			continue
		}
		switch {
		case target == 0 && r != engine.Don:
			out = append(out, engine.Command{Verb: engine.Skip, By: s})
		case target != 0 && (s == senior || g.Rules().MafiaKill == engine.MafiaKillUnanimous):
			out = append(out, engine.Command{Verb: engine.Kill, By: s, Target: target})
		}
	}
	return out
}

// Queue returns who speaks after the current speaker in the current step:
// in the speeches, the living seats after the speaker going round from the
// day's first speaker, without those who lost their speech through fouls;
// in the defences and tie speeches, the candidates after the speaker. log is
// the game's event log (for the day's first speaker).
func Queue(g *engine.Game, log []engine.Event) []int {
	out := []int{}
	sp := g.Speaker()
	switch g.Phase() {
	case engine.PhaseSpeech:
		var opener engine.Seat
		for i := len(log) - 1; i >= 0; i-- {
			if log[i].Kind == engine.EvDayBegan {
				opener = log[i].Actor
				break
			}
		}
		if opener == 0 {
			opener = 1
		}
		v := g.HostView()
		n := g.Players()
		after := false
		for i := 0; i < n; i++ {
			s := engine.Seat((int(opener)-1+i)%n + 1)
			if s == sp {
				after = true
				continue
			}
			if after && v.Alive.Has(s) && !v.LostSpeech.Has(s) {
				out = append(out, int(s))
			}
		}
	case engine.PhaseDefence, engine.PhaseTieSpeech:
		after := false
		for _, c := range g.Candidates() {
			if after {
				out = append(out, int(c))
			}
			after = after || c == sp
		}
	}
	return out
}
