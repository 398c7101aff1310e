package record

import (
	"mafia/engine"
	"mafia/wire"
)

// Protocol is the club's record of one game, arranged from the engine's
// event log: the seats with their names, cards and fates, every night's
// actions and answers, every day's nominations and vote rounds (who voted
// for whom), the fouls, and the result. Events is the log itself, as the
// engine emitted it; everything else is derived from it.
type Protocol struct {
	Name    string            `json:"name"`
	Players int               `json:"players"`
	Rules   map[string]string `json:"rules"`
	// RulesCode is Rules as a short code for a club's sheet (engine.RulesCode).
	RulesCode string `json:"rules_code"`
	// Club is the club's part: host, referee, table, number, roster ids
	// (nil: none given).
	Club    *ClubInfo    `json:"club,omitempty"`
	Seed    string       `json:"seed"`
	Timings Timings      `json:"timings"`
	Deal    string       `json:"deal"`
	Seats   []SeatRecord `json:"seats"`
	Rounds  []Round      `json:"rounds"`
	Fouls   []Foul       `json:"fouls"`
	Ended   bool         `json:"ended"`
	Winner  string       `json:"winner,omitempty"` // town, mafia, maniac, draw; "" while the game goes on
	Events  []wire.Event `json:"events"`
	// Corrections are the host's undos, in order: the audit trail of the
	// entries taken back (Events holds the corrected game only). Undone
	// counts the entries taken back in all.
	Corrections []Correction `json:"corrections"`
	Undone      int          `json:"undone"`
}

// SeatRecord is one seat: who sat there, their card, their fouls, and how
// they left the game (nil: still in, or at the end).
type SeatRecord struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Role  string `json:"role"`
	Team  string `json:"team"`
	Fouls int    `json:"fouls"`
	Out   *Exit  `json:"out,omitempty"`
	// Person is the seat's roster id ("": a guest, or no roster).
	Person string `json:"person,omitempty"`
	// Won: the game is over, the seat's card is on the winning side, and
	// the player was not removed by fouls (which is never a win).
	Won bool `json:"won"`
}

// Exit is a player leaving the game.
type Exit struct {
	Seat  int    `json:"seat"`
	Round int    `json:"round"`
	Phase string `json:"phase"` // the step it happened in (night for the night's victims)
	Cause string `json:"cause"` // night, vote, all, fouls
}

// Round is night N and the day after it.
type Round struct {
	N     int    `json:"n"`
	Night *Night `json:"night"`
	Day   *Day   `json:"day,omitempty"`
}

// Pick is one seat naming another (Target 0: nobody).
type Pick struct {
	By     int `json:"by"`
	Target int `json:"target"`
}

// Check is a night check and its answer.
type Check struct {
	By     int    `json:"by"`
	Target int    `json:"target"`
	Result string `json:"result"`
}

// Night is one night's actions, in the order they were entered.
type Night struct {
	Meeting   bool   `json:"meeting,omitempty"` // the acquaintance night: nobody acts
	Mafia     []Pick `json:"mafia"`             // each mafioso's named victim (0: nobody)
	Victim    int    `json:"victim"`            // the mafia's victim as the rules resolve it (0: a miss)
	Don       *Check `json:"don,omitempty"`
	Detective *Check `json:"detective,omitempty"`
	Shot      *Pick  `json:"shot,omitempty"` // the maniac's shot
	Heal      *Pick  `json:"heal,omitempty"` // the doctor's heal
	Skipped   []int  `json:"skipped"`        // seats that did nothing more that night
	Killed    []int  `json:"killed"`         // the night's victims (announced in the morning)
	LastWords []int  `json:"last_words"`     // the night's victims who had last words in the morning
	Ended     bool   `json:"ended"`
}

// Day is one day: speeches, nominations, votes and who left.
type Day struct {
	Opener      int         `json:"opener"`
	Speeches    []int       `json:"speeches"`    // who spoke, in order
	LostSpeech  []int       `json:"lost_speech"` // who lost their speech through fouls
	Nominations []Pick      `json:"nominations"` // in order: By nominated Target
	Votes       []VoteRound `json:"votes"`       // the vote, then the repeat vote if any
	AllVote     *AllVote    `json:"all_vote,omitempty"`
	Out         []Exit      `json:"out"`         // who left during the day (vote, all, fouls)
	NobodyLeft  bool        `json:"nobody_left"` // the day ended with no elimination
	LastWords   []int       `json:"last_words"`  // who had last words after the day's vote
}

// VoteRound is one vote (or repeat vote): the candidates, the hands the host
// counted, and the ballot as the engine closed it (abstentions counted for
// the last candidate).
type VoteRound struct {
	Phase      string   `json:"phase"` // vote or revote
	Candidates []int    `json:"candidates"`
	Cast       []Pick   `json:"cast"`   // the votes entered, in order
	Ballot     []Ballot `json:"ballot"` // every voter and the candidate counted for them
	Tally      []Tally  `json:"tally"`  // per candidate, in nomination order
	Tie        []int    `json:"tie,omitempty"`
	Closed     bool     `json:"closed"`
}

// Ballot is one voter's counted vote.
type Ballot struct {
	Voter     int  `json:"voter"`
	Candidate int  `json:"candidate"`
	Abstained bool `json:"abstained,omitempty"` // no vote was entered: counted for the last candidate
}

// Tally is one candidate's votes.
type Tally struct {
	Candidate int   `json:"candidate"`
	Votes     int   `json:"votes"`
	Voters    []int `json:"voters"`
}

// AllVote is "shall all of them leave?".
type AllVote struct {
	Candidates []int `json:"candidates"`
	Yes        []int `json:"yes"`
	Passed     bool  `json:"passed"`
	Closed     bool  `json:"closed"`
}

// Foul is one foul the host gave.
type Foul struct {
	Round int    `json:"round"`
	Phase string `json:"phase"`
	Seat  int    `json:"seat"`
	Count int    `json:"count"` // the seat's fouls after this one
}

// Build arranges an event log (from GameStarted on) into a protocol.
func Build(s *Settings, log []engine.Event) *Protocol {
	p := &Protocol{Name: s.Name, Players: len(s.Names), Seed: s.Seed, Timings: s.Timings, Deal: s.Deal, Club: s.Club,
		Rounds: []Round{}, Fouls: []Foul{}, Events: make([]wire.Event, 0, len(log)), Corrections: []Correction{}}
	b := builder{p: p, s: s, out: map[int]bool{}}
	for _, e := range log {
		p.Events = append(p.Events, wire.FromEvent(e, p.Players))
		b.add(e)
	}
	if p.Rules == nil {
		p.Rules = engine.DefaultRules().Map()
		p.RulesCode = engine.RulesCode(engine.DefaultRules())
	}
	return p
}

// Correct records the host's undos (Corrections) in the protocol.
func (p *Protocol) Correct(fixes []Correction) {
	p.Corrections = append([]Correction{}, fixes...)
	p.Undone = 0
	for _, f := range fixes {
		p.Undone += len(f.Undone)
	}
}

// builder walks the log, keeping where the game is.
type builder struct {
	p     *Protocol
	s     *Settings
	roles []engine.Role // by seat (index 0 unused)
	where
	rnd   *Round
	cast  map[int]bool // voters who cast a vote in the open round
	out   map[int]bool // seats out of the game
	rules engine.Ruleset
}

func seats(m engine.SeatSet) []int {
	out := []int{}
	for _, s := range m.Seats() {
		out = append(out, int(s))
	}
	return out
}

func (b *builder) day() *Day {
	if b.rnd == nil {
		b.p.Rounds = append(b.p.Rounds, Round{N: b.round, Night: &Night{}})
		b.rnd = &b.p.Rounds[len(b.p.Rounds)-1]
	}
	if b.rnd.Day == nil {
		b.rnd.Day = &Day{Speeches: []int{}, LostSpeech: []int{}, Nominations: []Pick{}, Votes: []VoteRound{},
			Out: []Exit{}, LastWords: []int{}}
	}
	return b.rnd.Day
}

func (b *builder) night() *Night {
	if b.rnd == nil {
		b.p.Rounds = append(b.p.Rounds, Round{N: b.round, Night: &Night{}})
		b.rnd = &b.p.Rounds[len(b.p.Rounds)-1]
	}
	return b.rnd.Night
}

func (b *builder) vote() *VoteRound {
	d := b.day()
	if len(d.Votes) == 0 {
		d.Votes = append(d.Votes, VoteRound{Phase: "vote", Candidates: []int{}, Cast: []Pick{}, Ballot: []Ballot{}, Tally: []Tally{}})
	}
	return &d.Votes[len(d.Votes)-1]
}

func (b *builder) add(e engine.Event) {
	p := b.p
	b.see(e)
	switch e.Kind {
	case engine.EvGameStarted:
		b.rules = e.Rules
		p.Rules, p.RulesCode = e.Rules.Map(), engine.RulesCode(e.Rules)
		p.Players = int(e.Count)
		b.roles = make([]engine.Role, p.Players+1)
		p.Seats = make([]SeatRecord, p.Players)
		for i := range p.Seats {
			r := e.RoleOf(engine.Seat(i + 1))
			b.roles[i+1] = r
			p.Seats[i] = SeatRecord{Seat: i + 1, Name: b.s.NameOf(i + 1), Role: r.String(), Team: r.Team().String(),
				Person: b.s.Club.PersonOf(i + 1)}
		}
	case engine.EvNightBegan:
		p.Rounds = append(p.Rounds, Round{N: b.round, Night: &Night{Mafia: []Pick{}, Skipped: []int{}, Killed: []int{}, LastWords: []int{},
			Meeting: b.round == 1 && b.rules.FirstNight == engine.FirstNightMeeting}})
		b.rnd = &p.Rounds[len(p.Rounds)-1]
	case engine.EvMafiaChose:
		n := b.night()
		n.Mafia = append(n.Mafia, Pick{By: int(e.Actor), Target: int(e.Target)})
	case engine.EvChecked:
		c := &Check{By: int(e.Actor), Target: int(e.Target), Result: e.Result.String()}
		if b.role(e.Actor) == engine.Don {
			b.night().Don = c
		} else {
			b.night().Detective = c
		}
	case engine.EvShot:
		b.night().Shot = &Pick{By: int(e.Actor), Target: int(e.Target)}
	case engine.EvHealed:
		b.night().Heal = &Pick{By: int(e.Actor), Target: int(e.Target)}
	case engine.EvSkipped:
		n := b.night()
		n.Skipped = append(n.Skipped, int(e.Actor))
	case engine.EvNightEnded:
		n := b.night()
		n.Ended, n.Killed = true, seats(e.Set)
		n.Victim = b.mafiaVictim(n)
	case engine.EvPlayerOut:
		x := Exit{Seat: int(e.Target), Round: b.round, Phase: b.phase.String(), Cause: e.Cause.String()}
		if e.Cause != engine.CauseNight && b.phase != engine.PhaseNight && b.rnd != nil && b.rnd.Day != nil {
			d := b.day()
			d.Out = append(d.Out, x)
		}
		if i := int(e.Target) - 1; i >= 0 && i < len(p.Seats) {
			p.Seats[i].Out = &x
		}
		b.out[int(e.Target)] = true
	case engine.EvLastWords:
		// The morning's last words are the night's victims' (before the day
		// begins); the others follow the day's vote or fouls.
		switch {
		case b.rnd != nil && b.rnd.Day != nil:
			d := b.day()
			d.LastWords = append(d.LastWords, int(e.Target))
		case b.rnd != nil:
			n := b.night()
			n.LastWords = append(n.LastWords, int(e.Target))
		}
	case engine.EvDayBegan:
		b.day().Opener = int(e.Actor)
	case engine.EvSpeech:
		d := b.day()
		d.Speeches = append(d.Speeches, int(e.Target))
	case engine.EvSpeechSkipped:
		d := b.day()
		d.LostSpeech = append(d.LostSpeech, int(e.Target))
	case engine.EvNominated:
		d := b.day()
		d.Nominations = append(d.Nominations, Pick{By: int(e.Actor), Target: int(e.Target)})
	case engine.EvVoteBegan:
		d := b.day()
		cands := []int{}
		for _, s := range e.List() {
			cands = append(cands, int(s))
		}
		d.Votes = append(d.Votes, VoteRound{Phase: e.Phase.String(), Candidates: cands, Cast: []Pick{}, Ballot: []Ballot{}, Tally: []Tally{}})
		b.cast = map[int]bool{}
	case engine.EvVoteCast:
		v := b.vote()
		v.Cast = append(v.Cast, Pick{By: int(e.Actor), Target: int(e.Target)})
		if b.cast == nil {
			b.cast = map[int]bool{}
		}
		b.cast[int(e.Actor)] = true
	case engine.EvVoteClosed:
		b.closeVote(e)
	case engine.EvTie:
		v := b.vote()
		v.Tie = []int{}
		for _, s := range e.List() {
			v.Tie = append(v.Tie, int(s))
		}
	case engine.EvAllVoteBegan:
		d := b.day()
		a := &AllVote{Candidates: []int{}, Yes: []int{}}
		if n := len(d.Votes); n > 0 && d.Votes[n-1].Tie != nil {
			a.Candidates = append(a.Candidates, d.Votes[n-1].Tie...)
		}
		d.AllVote = a
	case engine.EvAllVoteClosed:
		d := b.day()
		if d.AllVote == nil {
			d.AllVote = &AllVote{Candidates: []int{}}
		}
		d.AllVote.Yes, d.AllVote.Passed, d.AllVote.Closed = seats(e.Set), e.Yes, true
	case engine.EvNobodyLeaves:
		b.day().NobodyLeft = true
	case engine.EvFouled:
		p.Fouls = append(p.Fouls, Foul{Round: b.round, Phase: b.phase.String(), Seat: int(e.Target), Count: int(e.Count)})
		if i := int(e.Target) - 1; i >= 0 && i < len(p.Seats) {
			p.Seats[i].Fouls = int(e.Count)
		}
	case engine.EvGameEnded:
		p.Ended, p.Winner = true, e.Winner.String()
		for i := range p.Seats {
			st := &p.Seats[i]
			st.Won = Wins(b.role(engine.Seat(st.Seat)), e.Winner) && (st.Out == nil || st.Out.Cause != engine.CauseFouls.String())
		}
	}
}

// Wins reports whether a card is on the winning side: the town's cards for
// the town, the mafia's for the mafia, the maniac alone for the maniac;
// nobody in a draw. (A player removed by fouls is no winner whatever the
// card: SeatRecord.Won.)
func Wins(r engine.Role, w engine.Winner) bool {
	switch w {
	case engine.WinnerTown:
		return r.Team() == engine.TeamTown
	case engine.WinnerMafia:
		return r.Team() == engine.TeamMafia
	case engine.WinnerManiac:
		return r == engine.Maniac
	}
	return false
}

func (b *builder) role(s engine.Seat) engine.Role {
	if int(s) < len(b.roles) {
		return b.roles[s]
	}
	return engine.RoleNone
}

// closeVote records the ballot of a closed vote and counts it.
func (b *builder) closeVote(e engine.Event) {
	v := b.vote()
	v.Closed = true
	for s := 1; s <= b.p.Players && s <= engine.MaxSeats; s++ {
		if c := int(e.CountedFor(engine.Seat(s))); c != 0 {
			v.Ballot = append(v.Ballot, Ballot{Voter: s, Candidate: c, Abstained: !b.cast[s]})
		}
	}
	for _, c := range v.Candidates {
		t := Tally{Candidate: c, Voters: []int{}}
		for _, bl := range v.Ballot {
			if bl.Candidate == c {
				t.Votes++
				t.Voters = append(t.Voters, bl.Voter)
			}
		}
		v.Tally = append(v.Tally, t)
	}
	b.cast = nil
}

// mafiaVictim is whom the mafia's picks resolve to under the rules
// (docs/rules.md, night 1): unanimous, the pick every living mafioso made; senior,
// the senior living mafioso's pick, else the latest pick of a living
// mafioso. It labels the record; who died is the engine's NightEnded.
func (b *builder) mafiaVictim(n *Night) int {
	living := map[int]int{} // living mafioso -> their pick
	var senior int
	for s := 1; s < len(b.roles); s++ {
		if b.roles[s].IsMafia() && !b.out[s] {
			living[s] = 0
			if senior == 0 || b.roles[s] == engine.Don {
				senior = s
			}
		}
	}
	latest := 0
	picked := map[int]bool{}
	for _, m := range n.Mafia {
		if _, ok := living[m.By]; ok {
			living[m.By], picked[m.By] = m.Target, true
			if m.Target != 0 {
				latest = m.Target
			}
		}
	}
	if b.rules.MafiaKill == engine.MafiaKillUnanimous {
		t := 0
		for _, pick := range living {
			if pick == 0 || (t != 0 && pick != t) {
				return 0
			}
			t = pick
		}
		return t
	}
	if picked[senior] {
		return living[senior]
	}
	return latest
}
