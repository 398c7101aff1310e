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

// Legal lists what the viewer may do now: verbs with their targets. The
// statements are offered on the viewer's own floor: Claim (any card),
// Report (these seats, with an answer engine.Ruleset.Reportable allows),
// Suspect, Vouch, WillNominate; BestMove (the first night's victim, in
// their last words: engine.GuessSize seats other than their own).
type Legal struct {
	Kill         []int `json:"kill,omitempty"`
	Check        []int `json:"check,omitempty"`
	Shoot        []int `json:"shoot,omitempty"`
	Heal         []int `json:"heal,omitempty"`
	Nominate     []int `json:"nominate,omitempty"`
	Vote         []int `json:"vote,omitempty"`
	Skip         bool  `json:"skip,omitempty"`
	AllVote      bool  `json:"all_vote,omitempty"`
	Pass         bool  `json:"pass,omitempty"`
	Claim        bool  `json:"claim,omitempty"`
	Report       []int `json:"report,omitempty"`
	Suspect      []int `json:"suspect,omitempty"`
	Vouch        []int `json:"vouch,omitempty"`
	WillNominate []int `json:"will_nominate,omitempty"`
	BestMove     bool  `json:"best_move,omitempty"`
}

// Statement is one statement of the public record: By said Verb ("claim",
// "report", "suspect", "vouch", "will_nominate", "best_move") on their
// floor (Phase); Target for all but a claim and a best move, Role for a
// claim, Result for a report, Guess (three seats) for a best move. It is
// what the player said, not a fact.
type Statement struct {
	By     int    `json:"by"`
	Phase  string `json:"phase"`
	Verb   string `json:"verb"`
	Target int    `json:"target,omitempty"`
	Role   string `json:"role,omitempty"`
	Result string `json:"result,omitempty"`
	Guess  []int  `json:"guess,omitempty"`
}

// TalkDay is one round's statements, in the order they were made: the last
// words after its night, its speeches, defences and tie speeches, and the
// last words after its vote.
type TalkDay struct {
	Round      int         `json:"round"`
	Statements []Statement `json:"statements"`
}

// View is the JSON shape of an engine.View.
type View struct {
	Seat       int    `json:"seat"` // 0: spectator
	Players    int    `json:"players"`
	Phase      string `json:"phase"`
	Round      int    `json:"round"`
	Step       int    `json:"step"` // the current step's number, the same for every seat (engine.Game.Step)
	Speaker    int    `json:"speaker,omitempty"`
	Winner     string `json:"winner,omitempty"`
	Role       string `json:"role,omitempty"`
	Candidates []int  `json:"candidates"`
	Nominated  bool   `json:"nominated,omitempty"`
	// Talk is the public record of statements so far, by day (left out
	// before the first): the same in every seat's view.
	Talk    []TalkDay `json:"talk,omitempty"`
	Victims []int     `json:"victims"`
	Seats   []Seat    `json:"seats"`
	Night   *Night    `json:"night,omitempty"`
	Voted   bool      `json:"voted,omitempty"`
	MyVote  int       `json:"my_vote,omitempty"`
	MyYes   bool      `json:"my_yes,omitempty"`
	Legal   Legal     `json:"legal"`
	Rules   Rules     `json:"rules"`
}

func list(m engine.SeatSet) []int { return appendList(make([]int, 0, m.Len()), m) }

// appendList appends a set's seats, lowest first, to out (never nil).
func appendList(out []int, m engine.SeatSet) []int {
	if out == nil {
		out = make([]int, 0, m.Len())
	}
	for m != 0 {
		s := m.First()
		out = append(out, int(s))
		m = m.Without(s)
	}
	return out
}

// FromView converts a view to its JSON shape, with the legal moves of its
// seat. (A room converts many views of one game: it uses a ViewScratch.)
func FromView(v *engine.View) View {
	var w View
	var s ViewScratch
	s.Into(&w, v, NewRules(v.Rules))
	return w
}

// ViewScratch keeps the memory of converted views for the next one: a room
// converts a view for every seat after every command and encodes it at once,
// so it reuses one View's lists instead of allocating them per frame. A View
// it fills is valid until its next Into.
type ViewScratch struct {
	night  Night
	shots  int
	seats  []Seat
	cands  []int
	vict   []int
	healed []int
	legal  [10][]int
	// the last record converted, kept while the next views carry the same
	talkOf engine.Talk
	talk   []TalkDay
	said   []Statement
}

// talkInto converts a record into days, reusing the scratch's memory; the
// views of one moment (every seat's) carry the same record, converted once.
func (sc *ViewScratch) talkInto(t engine.Talk) []TalkDay {
	if t.Len() == 0 {
		return nil
	}
	if t == sc.talkOf && sc.talk != nil {
		return sc.talk
	}
	sc.said, sc.talk = sc.said[:0], sc.talk[:0]
	for i := 0; i < t.Len(); i++ {
		st := t.At(i)
		w := Statement{By: int(st.By), Phase: st.Phase.String(), Verb: st.Verb.String(), Target: int(st.Target)}
		if st.Role != engine.RoleNone {
			w.Role = st.Role.String()
		}
		if st.Result != engine.ResultNone {
			w.Result = st.Result.String()
		}
		if st.Guess != 0 {
			w.Guess = seatList(st.Guess)
		}
		sc.said = append(sc.said, w)
	}
	// the days slice sc.said, once it no longer grows
	start := 0
	for i := 1; i <= t.Len(); i++ {
		if i == t.Len() || t.At(i).Round != t.At(start).Round {
			sc.talk = append(sc.talk, TalkDay{Round: int(t.At(start).Round), Statements: sc.said[start:i:i]})
			start = i
		}
	}
	sc.talkOf = t
	return sc.talk
}

// Into converts v into w (as FromView does), with the game's rules already
// converted, reusing the scratch's memory.
func (sc *ViewScratch) Into(w *View, v *engine.View, rules Rules) {
	*w = View{
		Seat: int(v.Seat), Players: int(v.Players), Phase: v.Phase.String(), Round: int(v.Round),
		Step: int(v.Step), Speaker: int(v.Speaker), Nominated: v.Nominated, Victims: appendList(sc.vict[:0], v.Victims),
		Candidates: sc.cands[:0], Seats: sc.seats[:0], Rules: rules,
	}
	if w.Candidates == nil {
		w.Candidates = make([]int, 0, 8)
	}
	if w.Seats == nil {
		w.Seats = make([]Seat, 0, v.Players)
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
	sc.vict, sc.cands, sc.seats = w.Victims, w.Candidates, w.Seats
	w.Talk = sc.talkInto(v.Talk)
	if v.Seat != 0 && v.Phase == engine.PhaseNight || v.Role == engine.Maniac || v.Role == engine.Doctor {
		sc.night = Night{Kill: int(v.KillTarget), Check: int(v.CheckTarget), Shot: int(v.ShotTarget),
			Heal: int(v.HealTarget), Skip: v.Skipped, Banned: int(v.HealBanned)}
		if v.Role == engine.Maniac {
			sc.shots = int(v.ShotsLeft)
			sc.night.Shots = &sc.shots
		}
		if v.Role == engine.Doctor {
			sc.healed = appendList(sc.healed[:0], v.Healed)
			sc.night.Healed = sc.healed
		}
		w.Night = &sc.night
	}
	if v.Phase == engine.PhaseVote || v.Phase == engine.PhaseRevote || v.Phase == engine.PhaseAllVote {
		w.Voted, w.MyVote, w.MyYes = v.Voted, int(v.MyVote), v.MyYes
	}
	for i, verb := range [10]engine.Verb{engine.Kill, engine.Check, engine.Shoot, engine.Heal, engine.Nominate, engine.Vote,
		engine.Report, engine.Suspect, engine.Vouch, engine.WillNominate} {
		sc.legal[i] = appendList(sc.legal[i][:0], v.Targets(verb))
	}
	w.Legal = Legal{
		Kill: sc.legal[0], Check: sc.legal[1], Shoot: sc.legal[2], Heal: sc.legal[3], Nominate: sc.legal[4], Vote: sc.legal[5],
		Skip: v.Can(engine.Skip), AllVote: v.Can(engine.AllVote), Pass: v.Can(engine.Pass),
		Claim: v.Can(engine.Claim), Report: sc.legal[6], Suspect: sc.legal[7], Vouch: sc.legal[8], WillNominate: sc.legal[9],
		BestMove: v.Can(engine.BestMove),
	}
}
