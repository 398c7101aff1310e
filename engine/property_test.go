package engine_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// Property tests over thousands of random seeded games: random bots (from
// their views alone) on random tables of 3 to 20 players under random
// rulesets, with random commands, legal and not, thrown in between.
//
// What a seat may know is computed here from the game's true cards
// (Game.Role) and the rulebook, never from the view code.

const propertyRoot = 0x6d61666961 // "mafia": the root of the games' seeds

// propertyGames is how many games each property run plays.
func propertyGames() int {
	if testing.Short() {
		return 300
	}
	return 2000
}

// randomSetup returns a valid custom setup of n players.
func randomSetup(src *rng.Source, n int) engine.Setup {
	if n >= engine.PresetMin && n <= engine.PresetMax && src.Intn(3) == 0 {
		s, _ := engine.Preset(n)
		return s
	}
	for {
		var s engine.Setup
		mafia := 1 + src.Intn((n-1)/2) // mafiosi fewer than the rest
		if src.Intn(4) != 0 {
			s.Don = 1
		}
		s.Mafia = mafia - s.Don
		if src.Intn(4) != 0 {
			s.Detective = 1
		}
		if src.Intn(4) != 0 {
			s.Doctor = 1
		}
		if src.Intn(3) == 0 {
			s.Maniac = 1
		}
		s.Citizens = n - mafia - s.Detective - s.Doctor - s.Maniac
		if s.Citizens < 0 {
			continue
		}
		if _, err := s.Validate(); err == nil {
			return s
		}
	}
}

// propGame watches one game: every accepted command's events, every seat's
// view after it, and random commands thrown at the live game.
type propGame struct {
	t     testing.TB
	name  string
	g     *engine.Game
	n     int
	rules engine.Ruleset
	cards [engine.MaxSeats + 2]engine.Role
	src   rng.Source // the property's own choices: what to throw, when to replay

	log    []engine.Event
	ended  int // game_ended events seen
	failed bool

	// what the rules have made known, from the log
	revealRole [engine.MaxSeats + 2]bool
	revealTeam [engine.MaxSeats + 2]bool
	checks     [engine.MaxSeats + 2]engine.SeatSet // seats each checker has checked
	healed     engine.SeatSet
	ballot     [engine.MaxSeats + 1]uint8 // the last closed vote
	said       []engine.Statement         // the statements of the log
	views      [engine.MaxSeats + 2]engine.View
	view       engine.View
	steps      int // events that began a step so far

	stats *propStats
}

type propStats struct {
	games, commands, thrown, thrownAccepted, replays, legalChecks, statements int
	byPlayers                                                                 [engine.MaxSeats + 1]int
	winners                                                                   [5]int
}

func (p *propGame) fail(format string, a ...any) {
	p.t.Helper()
	if !p.failed {
		p.failed = true
		p.t.Errorf("%s: after %d events (phase %s, round %d): %s", p.name, len(p.log), p.g.Phase(), p.g.Round(), fmt.Sprintf(format, a...))
	}
}

// newPropGame deals game i of a run.
func newPropGame(t testing.TB, root uint64, i int, stats *propStats) (*propGame, *bot.Table) {
	seed := rng.Derive(root, uint64(i))
	src := rng.New(seed)
	n := engine.MinSeats + src.Intn(engine.MaxSeats-engine.MinSeats+1)
	setup := randomSetup(&src, n)
	rules := engine.RandomRules(&src)
	deal := setup.Deal(seed, nil)
	g, evs, err := engine.New(rules, deal, seed)
	if err != nil {
		t.Fatalf("game %d: New(%v): %v", i, deal, err)
	}
	p := &propGame{
		t: t, g: g, n: n, rules: rules, src: rng.New(rng.Derive(seed, 1000)), stats: stats,
		name: fmt.Sprintf("game %d (seed %#x, %d players, %v, options %v)", i, seed, n, deal, rules.Map()),
	}
	for s := 1; s <= n; s++ {
		p.cards[s] = g.Role(engine.Seat(s))
		if p.cards[s] != deal[s-1] {
			t.Fatalf("%s: Role(%d) = %s, dealt %s", p.name, s, p.cards[s], deal[s-1])
		}
	}
	for s := 0; s <= n+1; s++ {
		g.ViewInto(&p.views[s], engine.Seat(s))
	}
	p.accepted(engine.Command{}, evs)
	tb := &bot.Table{Game: g, Bots: make([]bot.Bot, n+1)}
	for s := 1; s <= n; s++ {
		tb.Bots[s] = &legalBot{p: p, inner: bot.NewRandom(rng.Derive(seed, uint64(s)))}
	}
	tb.OnEvents = func(c engine.Command, evs []engine.Event) {
		p.accepted(c, evs)
		p.throw()
	}
	stats.games++
	stats.byPlayers[n]++
	return p, tb
}

// legalBot asserts that a random bot, deciding from its view alone, only
// ever asks for what the engine accepts.
type legalBot struct {
	p     *propGame
	inner bot.Bot
}

func (b *legalBot) Act(v *engine.View) (engine.Command, bool) {
	c, ok := b.inner.Act(v)
	if ok {
		if err := b.p.g.Check(c); err != nil {
			b.p.fail("the bot of seat %d chose %s from its view, which the engine refuses: %v", v.Seat, cmdString(c), err)
		}
	}
	return c, ok
}

// throw tries a few random commands, legal or not, on the live game.
func (p *propGame) throw() {
	for k := p.src.Intn(3); k > 0; k-- {
		c := p.randomCommand()
		before := p.g.Clone()
		wasEnded := p.g.Ended()
		floor, round := p.g.Phase(), p.g.Round()
		evs, err := p.g.Handle(c)
		p.stats.thrown++
		if err != nil {
			var e *engine.Error
			if !errors.As(err, &e) {
				p.fail("%s refused with %T, not *engine.Error", cmdString(c), err)
			}
			if !p.g.Equal(before) {
				p.fail("%s was refused (%v) but changed the game", cmdString(c), err)
			}
			if evs != nil {
				p.fail("%s was refused but returned events", cmdString(c))
			}
			if wasEnded && e != nil && e.Code != engine.CodeGameOver && e.Code != engine.CodeUnknownVerb {
				p.fail("%s after the end refused with %s, want game_over", cmdString(c), e.Code)
			}
			continue
		}
		if wasEnded {
			p.fail("%s accepted after the game ended", cmdString(c))
		}
		p.stats.thrownAccepted++
		if c.Verb.IsStatement() {
			p.stats.statements++
			p.checkStatement(c, evs, floor, round)
		}
		p.accepted(c, evs)
	}
}

func (p *propGame) randomCommand() engine.Command {
	n := p.n
	c := engine.Command{
		Verb:   engine.Verb(p.src.Intn(numVerbs + 1)),
		By:     engine.Seat(p.src.Intn(n + 2)),
		Target: engine.Seat(p.src.Intn(n + 2)),
		Yes:    p.src.Intn(2) == 0,
		Role:   engine.Role(p.src.Intn(8)),
		Result: engine.Result(p.src.Intn(7)),
	}
	switch p.src.Intn(8) {
	case 0:
		c.By = engine.Host
	case 1:
		c.Verb = engine.Verb(200)
	case 2, 3:
		// the speaker says something, said well or not: statements are
		// made on a floor only, so a random seat would hardly ever make one
		if sp := p.g.Speaker(); sp != 0 {
			c.By = sp
			c.Verb = engine.Claim + engine.Verb(p.src.Intn(int(engine.WillNominate-engine.Claim)+1))
		}
	}
	return c
}

// sameTalk reports whether a view's record holds exactly the statements of
// the log, in order.
func sameTalk(t engine.Talk, said []engine.Statement) bool {
	if t.Len() != len(said) {
		return false
	}
	for i, st := range said {
		if t.At(i) != st {
			return false
		}
	}
	return true
}

// checkDays pins Talk.Day to the log: each round's statements, in order.
func (p *propGame) checkDays(t engine.Talk) {
	i := 0
	for r := 0; r <= p.g.Round()+1; r++ {
		d := t.Day(r)
		for j := 0; j < d.Len(); j++ {
			if i >= len(p.said) || d.At(j) != p.said[i] || p.said[i].Round != uint16(r) {
				p.fail("Day(%d) holds %+v, not the log's statement %d", r, d.At(j), i)
				return
			}
			i++
		}
	}
	if i != len(p.said) {
		p.fail("the days hold %d statements, the log %d", i, len(p.said))
	}
}

// numVerbs is the number of the engine's verbs (VerbNone included).
var numVerbs = func() int {
	n := 1
	for engine.Verb(n).String() != "?" {
		n++
	}
	return n
}()

// checkStatement pins an accepted statement's event to the command alone:
// who said it, on which floor, and only the fields its verb says, so that
// nothing in it can depend on a card.
func (p *propGame) checkStatement(c engine.Command, evs []engine.Event, floor engine.Phase, round int) {
	want := engine.Event{Kind: engine.EvStatement, Round: uint16(round), Phase: floor, Actor: c.By, Verb: c.Verb}
	switch c.Verb {
	case engine.Claim:
		want.Role = c.Role
	case engine.Report:
		want.Target, want.Result = c.Target, c.Result
	default:
		want.Target = c.Target
	}
	if len(evs) != 1 || evs[0] != want {
		p.fail("%s gave %+v, want only %+v", cmdString(c), evs, want)
	}
}

// accepted checks one accepted command's events and the state after them.
func (p *propGame) accepted(c engine.Command, evs []engine.Event) {
	p.t.Helper()
	p.stats.commands++
	if p.ended > 0 {
		p.fail("%s accepted after game_ended", cmdString(c))
	}
	if len(evs) == 0 && c.Verb != engine.VerbNone {
		p.fail("%s accepted with no events", cmdString(c))
	}
	start := len(p.log)
	p.log = append(p.log, evs...)
	for i := start; i < len(p.log); i++ {
		e := p.log[i]
		p.learn(e)
		if e.Kind == engine.EvGameEnded && i != len(p.log)-1 {
			p.fail("game_ended is not the last event of %s: %v", cmdString(c), kinds(p.log[start:]))
		}
		for s := 0; s <= p.n+1; s++ {
			p.checkEventFor(e, engine.Seat(s))
		}
	}
	if (p.ended == 1) != p.g.Ended() || p.ended > 1 {
		p.fail("%d game_ended events, Ended() = %v", p.ended, p.g.Ended())
	}
	if p.g.Ended() && (p.g.Winner() == engine.WinnerNone || p.g.Phase() != engine.PhaseEnded) {
		p.fail("ended with winner %q, phase %s", p.g.Winner(), p.g.Phase())
	}
	if !p.g.Ended() && p.g.Winner() != engine.WinnerNone {
		p.fail("winner %q while the game goes on", p.g.Winner())
	}
	prev := p.views[0]
	for s := 0; s <= p.n+1; s++ {
		p.checkView(engine.Seat(s), p.log[start:])
	}
	p.checkStep(&prev, p.log[start:])
	if p.g.SpectatorView() != p.views[0] {
		p.fail("SpectatorView differs from ViewFor(0)")
	}
	if hv := p.g.HostView(); !hv.Host || hv.Seat != 0 {
		p.fail("HostView is not the host's")
	} else {
		for t := 1; t <= p.n; t++ {
			if hv.Roles[t] != p.cards[t] || hv.Teams[t] != p.cards[t].Team() {
				p.fail("the host's view shows seat %d as %s/%s, it is %s", t, hv.Roles[t], hv.Teams[t], p.cards[t])
			}
		}
	}
	if p.src.Intn(16) == 0 {
		p.checkLegality()
	}
	if p.src.Intn(16) == 0 || p.g.Ended() {
		p.checkReplay()
	}
}

// checkStep pins the step number: the count of the events that begin a
// step, the same in every view (the host's too), and a new one whenever the
// step a spectator sees (phase, round, speaker) changed.
func (p *propGame) checkStep(prev *engine.View, evs []engine.Event) {
	for _, e := range evs {
		if stepStartKinds[e.Kind] {
			p.steps++
		}
	}
	if p.g.Step() != p.steps {
		p.fail("step %d after %v, the step starts so far %d", p.g.Step(), kinds(evs), p.steps)
	}
	for s := 0; s <= p.n+1; s++ {
		if p.views[s].Step != uint32(p.steps) {
			p.fail("seat %d's view has step %d, want %d", s, p.views[s].Step, p.steps)
		}
	}
	if hv := p.g.HostView(); hv.Step != uint32(p.steps) {
		p.fail("the host's view has step %d, want %d", hv.Step, p.steps)
	}
	v := &p.views[0]
	if (v.Phase != prev.Phase || v.Round != prev.Round || v.Speaker != prev.Speaker) && v.Step == prev.Step {
		p.fail("the step went from %s/%d/%d to %s/%d/%d, its number stayed %d", prev.Phase, prev.Round, prev.Speaker,
			v.Phase, v.Round, v.Speaker, v.Step)
	}
}

// learn records what an event makes known, and checks the secret payloads
// against the true cards.
func (p *propGame) learn(e engine.Event) {
	switch e.Kind {
	case engine.EvGameStarted:
		for s := 1; s <= p.n; s++ {
			if engine.Role(e.PerSeat[s]) != p.cards[s] {
				p.fail("game_started gives seat %d the card %s, the game says %s", s, engine.Role(e.PerSeat[s]), p.cards[s])
			}
		}
	case engine.EvPlayerOut:
		t := e.Target
		wantRole, wantTeam := engine.RoleNone, engine.TeamNone
		switch p.rules.RevealOnDeath {
		case engine.RevealTeam:
			wantTeam = p.cards[t].Team()
			p.revealTeam[t] = true
		case engine.RevealRole:
			wantRole, wantTeam = p.cards[t], p.cards[t].Team()
			p.revealRole[t], p.revealTeam[t] = true, true
		}
		if e.Role != wantRole || e.Team != wantTeam {
			p.fail("player_out of seat %d (%s) shows %q/%q under reveal_on_death=%s", t, p.cards[t], e.Role, e.Team, p.rules.Map()["reveal_on_death"])
		}
	case engine.EvChecked:
		if want := p.answer(e.Actor, e.Target); e.Result != want {
			p.fail("seat %d (%s) checked seat %d (%s): %s, want %s", e.Actor, p.cards[e.Actor], e.Target, p.cards[e.Target], e.Result, want)
		}
		p.checks[e.Actor] = p.checks[e.Actor].With(e.Target)
	case engine.EvHealed:
		p.healed = p.healed.With(e.Target)
	case engine.EvVoteClosed:
		p.ballot = e.PerSeat
	case engine.EvStatement:
		p.said = append(p.said, engine.Statement{Round: e.Round, Phase: e.Phase, By: e.Actor, Verb: e.Verb,
			Target: e.Target, Role: e.Role, Result: e.Result})
	case engine.EvGameEnded:
		p.ended++
		p.stats.winners[e.Winner]++
		for s := 1; s <= p.n; s++ {
			if engine.Role(e.PerSeat[s]) != p.cards[s] {
				p.fail("game_ended shows seat %d as %s, the game says %s", s, engine.Role(e.PerSeat[s]), p.cards[s])
			}
		}
	}
}

// answer is the check answer the rulebook gives.
func (p *propGame) answer(by, t engine.Seat) engine.Result {
	if p.cards[by] == engine.Don {
		if p.cards[t] == engine.Detective {
			return engine.ResultDetective
		}
		return engine.ResultNotDetective
	}
	switch {
	case p.cards[t].IsMafia():
		return engine.ResultMafia
	case p.cards[t] == engine.Maniac && p.rules.ManiacCheck == engine.ManiacShowsMafia:
		return engine.ResultMafia
	case p.cards[t] == engine.Maniac && p.rules.ManiacCheck == engine.ManiacShowsManiac:
		return engine.ResultManiac
	}
	return engine.ResultNotMafia
}

func (p *propGame) isPlayer(s engine.Seat) bool { return s >= 1 && int(s) <= p.n }

func (p *propGame) mafia(s engine.Seat) bool { return p.isPlayer(s) && p.cards[s].IsMafia() }

// mayKnowRole reports whether seat s (0: a spectator) may know t's card.
func (p *propGame) mayKnowRole(s, t engine.Seat) bool {
	if !p.isPlayer(t) {
		return false
	}
	return p.ended > 0 || p.revealRole[t] || (p.isPlayer(s) && (s == t || (p.mafia(s) && p.mafia(t))))
}

func (p *propGame) mayKnowTeam(s, t engine.Seat) bool {
	return p.mayKnowRole(s, t) || (p.isPlayer(t) && p.revealTeam[t])
}

// audience is who may see an event of each kind, by the rulebook: the
// mafia's choice to the mafia, a night action or an open vote to the actor,
// the rest to everyone.
func (p *propGame) maySee(e engine.Event, s engine.Seat) bool {
	switch e.Kind {
	case engine.EvMafiaChose:
		return p.mafia(s)
	case engine.EvChecked, engine.EvHealed, engine.EvShot, engine.EvSkipped, engine.EvVoteCast, engine.EvAllVoteCast:
		return p.isPlayer(s) && s == e.Actor
	}
	return true
}

// checkEventFor checks the copy of e that seat s gets.
func (p *propGame) checkEventFor(e engine.Event, s engine.Seat) {
	got, ok := p.g.EventFor(e, s)
	if want := p.maySee(e, s); ok != want {
		p.fail("seat %d (%s) sees %s by %d: %v, want %v", s, p.cards[s], e.Kind, e.Actor, ok, want)
		return
	}
	if !ok {
		return
	}
	switch e.Kind {
	case engine.EvGameStarted:
		if got.Seed != 0 {
			p.fail("seat %d gets game_started with the seed", s)
		}
		if got.Count != e.Count || got.Rules != e.Rules {
			p.fail("seat %d gets game_started with count %d rules %+v", s, got.Count, got.Rules)
		}
		for t := engine.Seat(0); t <= engine.MaxSeats; t++ {
			r := engine.Role(got.PerSeat[t])
			// at the start nothing is revealed and nothing ended: only own
			// card and, for the mafia, the mafia's
			may := p.isPlayer(s) && p.isPlayer(t) && (s == t || (p.mafia(s) && p.mafia(t)))
			if may && r != p.cards[t] {
				p.fail("seat %d gets game_started without its own/teammate's card %d (%s, got %s)", s, t, p.cards[t], r)
			}
			if !may && r != engine.RoleNone {
				p.fail("seat %d (%s) gets game_started showing seat %d as %s", s, p.cards[s], t, r)
			}
		}
		return
	}
	if got != e {
		p.fail("seat %d gets %s changed: %+v, was %+v", s, e.Kind, got, e)
	}
	// no public event carries a secret but those the rules reveal (a
	// statement's card and answer are what its speaker said: checkStatement)
	switch e.Kind {
	case engine.EvPlayerOut, engine.EvGameEnded, engine.EvChecked, engine.EvStatement:
	default:
		if e.Role != engine.RoleNone || e.Team != engine.TeamNone || e.Result != engine.ResultNone || e.Seed != 0 {
			p.fail("%s carries role %q team %q result %q seed %d", e.Kind, e.Role, e.Team, e.Result, e.Seed)
		}
		switch e.Kind {
		case engine.EvVoteBegan, engine.EvTie, engine.EvVoteClosed:
		default:
			if e.PerSeat != ([engine.MaxSeats + 1]uint8{}) {
				p.fail("%s carries a per-seat table %v", e.Kind, e.PerSeat)
			}
		}
	}
}

// checkView checks what seat s's view shows against what s may know, and
// that it changed only if s saw an event of the command.
func (p *propGame) checkView(s engine.Seat, evs []engine.Event) {
	v := &p.view
	p.g.ViewInto(v, s)
	saw := false
	for _, e := range evs {
		if p.maySee(e, s) {
			saw = true
		}
	}
	if !saw && *v != p.views[s] {
		p.fail("seat %d (%s) saw none of %v, yet its view changed:\n%s", s, p.cards[s], kinds(evs), viewDiff(&p.views[s], v))
	}
	p.views[s] = *v
	if !sameTalk(v.Talk, p.said) {
		p.fail("seat %d's view holds %d statements, not the log's %d", s, v.Talk.Len(), len(p.said))
	}
	me := s
	if !p.isPlayer(s) {
		me = 0
	}
	if v.Seat != me || v.Host {
		p.fail("ViewFor(%d) is seat %d's (host %v)", s, v.Seat, v.Host)
	}
	if me != 0 && v.Role != p.cards[me] {
		p.fail("seat %d's view shows its own card as %s, it is %s", me, v.Role, p.cards[me])
	}
	for t := engine.Seat(0); t <= engine.MaxSeats; t++ {
		wantRole, wantTeam := engine.RoleNone, engine.TeamNone
		if p.mayKnowRole(me, t) {
			wantRole = p.cards[t]
		}
		if p.mayKnowTeam(me, t) {
			wantTeam = p.cards[t].Team()
		}
		if v.Roles[t] != wantRole || v.Teams[t] != wantTeam {
			p.fail("seat %d (%s) sees seat %d (%s) as %q/%q, may know %q/%q", me, p.cards[me], t, p.cards[t], v.Roles[t], v.Teams[t], wantRole, wantTeam)
		}
	}
	role := p.cards[me]
	if me == 0 {
		role = engine.RoleNone
	}
	// mafia choices only to the mafia
	if !role.IsMafia() && (v.MafiaChoice != [engine.MaxSeats + 1]engine.Seat{} || v.MafiaActed != 0 || v.KillTarget != 0) {
		p.fail("seat %d (%s) sees the mafia's choices: %v acted %v kill %d", me, role, v.MafiaChoice, v.MafiaActed.Seats(), v.KillTarget)
	}
	if role.IsMafia() {
		for t := engine.Seat(0); t <= engine.MaxSeats; t++ {
			if (v.MafiaChoice[t] != 0 || v.MafiaActed.Has(t)) && !p.mafia(t) {
				p.fail("seat %d's view shows seat %d (%s) acting with the mafia", me, t, p.cards[t])
			}
		}
	}
	// check answers only for the checker, and exactly the checker's
	var wantChecks [engine.MaxSeats + 1]engine.Result
	if role == engine.Don || role == engine.Detective {
		for m := p.checks[me]; m != 0; m = m.Without(m.First()) {
			wantChecks[m.First()] = p.answer(me, m.First())
		}
	}
	if v.Checks != wantChecks {
		p.fail("seat %d (%s) has check answers %v, want %v", me, role, v.Checks, wantChecks)
	}
	if v.CheckTarget != 0 && (role != engine.Don && role != engine.Detective || !p.checks[me].Has(v.CheckTarget)) {
		p.fail("seat %d (%s) sees a check target %d", me, role, v.CheckTarget)
	}
	// the maniac's, the doctor's own secrets
	if role != engine.Maniac && (v.ShotTarget != 0 || v.ShotsLeft != 0) {
		p.fail("seat %d (%s) sees the maniac's shot %d / shots left %d", me, role, v.ShotTarget, v.ShotsLeft)
	}
	if role != engine.Doctor && (v.HealTarget != 0 || v.Healed != 0 || v.HealBanned != 0) {
		p.fail("seat %d (%s) sees the doctor's heals %d %v %d", me, role, v.HealTarget, v.Healed.Seats(), v.HealBanned)
	}
	if role == engine.Doctor && v.Healed != p.healed {
		p.fail("the doctor's view shows healed %v, the log %v", v.Healed.Seats(), p.healed.Seats())
	}
	if me == 0 && (v.Skipped || v.Voted || v.MyVote != 0 || v.MyYes) {
		p.fail("the spectator's view has a seat's own night or vote")
	}
	// the open vote is nobody's but the voter's: only the last closed vote
	// is public
	for i := range p.ballot {
		if v.Ballot[i] != engine.Seat(p.ballot[i]) {
			p.fail("seat %d's view shows ballot %v, the last closed vote was %v", me, v.Ballot, p.ballot)
			break
		}
	}
}

// checkLegality pins View.Targets and View.Can to Game.Check for every seat,
// verb and target: a bot that plays from its view plays legally, and is
// offered every legal move.
func (p *propGame) checkLegality() {
	p.stats.legalChecks++
	for s := engine.Seat(1); int(s) <= p.n; s++ {
		p.g.ViewInto(&p.view, s)
		v := &p.view
		for verb := engine.Verb(0); int(verb) <= numVerbs; verb++ {
			if verb == engine.Claim {
				for r := engine.Role(0); r <= 7; r++ {
					err := p.g.Check(engine.Command{Verb: verb, By: s, Role: r})
					if want := v.Can(verb) && engine.Claimable(r); want != (err == nil) {
						p.fail("seat %d (%s) Can(claim %s) = %v, the engine says %v", s, p.cards[s], r, want, err)
					}
				}
				continue
			}
			if verb == engine.Report {
				for _, r := range []engine.Result{engine.ResultMafia, engine.ResultManiac, engine.ResultDetective} {
					var legal engine.SeatSet
					for t := engine.Seat(0); int(t) <= p.n+1; t++ {
						if p.g.Check(engine.Command{Verb: verb, By: s, Target: t, Result: r}) == nil {
							legal = legal.With(t)
						}
					}
					want := v.Targets(verb)
					if !p.rules.Reportable(r) {
						want = 0
					}
					if legal != want {
						p.fail("seat %d (%s) report %s: view offers %v, the engine accepts %v", s, p.cards[s], r, want.Seats(), legal.Seats())
					}
				}
				continue
			}
			if verb == engine.BestMove {
				// a guess of three other seats is accepted exactly when the view
				// offers the best move; a guess of two never is
				var three, two engine.SeatSet
				for t := engine.Seat(1); int(t) <= p.n && three.Len() < engine.GuessSize; t++ {
					if t != s {
						three = three.With(t)
						if two.Len() < 2 {
							two = two.With(t)
						}
					}
				}
				err := p.g.Check(engine.Command{Verb: verb, By: s, Guess: three})
				if v.Can(verb) != (err == nil) {
					p.fail("seat %d (%s) Can(best_move) = %v, the engine says %v", s, p.cards[s], v.Can(verb), err)
				}
				if p.g.Check(engine.Command{Verb: verb, By: s, Guess: two}) == nil {
					p.fail("seat %d: a best move of two seats accepted", s)
				}
				continue
			}
			if verb.HasTarget() {
				targets := v.Targets(verb)
				var legal engine.SeatSet
				for t := engine.Seat(0); int(t) <= p.n+1; t++ {
					if p.g.Check(engine.Command{Verb: verb, By: s, Target: t}) == nil {
						legal = legal.With(t)
					}
				}
				if legal != targets {
					p.fail("seat %d (%s) %s: view offers %v, the engine accepts %v", s, p.cards[s], verb, targets.Seats(), legal.Seats())
				}
				if v.Can(verb) != (legal != 0) {
					p.fail("seat %d (%s) Can(%s) = %v, the engine accepts %v", s, p.cards[s], verb, v.Can(verb), legal.Seats())
				}
				continue
			}
			for _, yes := range []bool{false, true} {
				err := p.g.Check(engine.Command{Verb: verb, By: s, Yes: yes})
				if v.Can(verb) != (err == nil) {
					p.fail("seat %d (%s) Can(%s) = %v, the engine says %v", s, p.cards[s], verb, v.Can(verb), err)
				}
			}
			if v.Targets(verb) != 0 {
				p.fail("seat %d: Targets(%s) = %v for a verb with no target", s, verb, v.Targets(verb).Seats())
			}
		}
	}
	// MayAct is Pending seat by seat
	pending := p.g.Pending()
	for s := engine.Seat(0); int(s) <= p.n+1; s++ {
		if p.g.MayAct(s) != pending.Has(s) {
			p.fail("MayAct(%d) = %v, Pending %v", s, p.g.MayAct(s), pending.Seats())
		}
	}
	// the host's pending seats (the driver's) can act
	if p.g.Phase() == engine.PhaseNight {
		for m := p.g.Pending(); m != 0; m = m.Without(m.First()) {
			s := m.First()
			p.g.ViewInto(&p.view, s)
			if !p.view.Can(engine.Skip) && !p.view.Can(engine.Kill) && !p.view.Can(engine.Check) && !p.view.Can(engine.Shoot) && !p.view.Can(engine.Heal) {
				p.fail("seat %d (%s) is pending at night but can do nothing", s, p.cards[s])
			}
		}
	}
}

// checkReplay folds the log so far and compares it with the live game.
func (p *propGame) checkReplay() {
	p.stats.replays++
	p.checkDays(p.views[0].Talk)
	r, err := engine.Replay(p.log)
	if err != nil {
		p.fail("Replay of %d events: %v", len(p.log), err)
		return
	}
	if !r.Equal(p.g) {
		p.fail("Replay of %d events differs from the live game", len(p.log))
	}
}

// viewDiff names the fields that differ between two views.
func viewDiff(a, b *engine.View) string {
	var out string
	add := func(name string, differ bool, x, y any) {
		if differ {
			out += fmt.Sprintf("  %s: %v -> %v\n", name, x, y)
		}
	}
	add("Phase", a.Phase != b.Phase, a.Phase, b.Phase)
	add("Round", a.Round != b.Round, a.Round, b.Round)
	add("Speaker", a.Speaker != b.Speaker, a.Speaker, b.Speaker)
	add("Alive", a.Alive != b.Alive, a.Alive.Seats(), b.Alive.Seats())
	add("Candidates", a.Candidates != b.Candidates, a.Candidates, b.Candidates)
	add("Nominated", a.Nominated != b.Nominated, a.Nominated, b.Nominated)
	add("Roles", a.Roles != b.Roles, a.Roles, b.Roles)
	add("Teams", a.Teams != b.Teams, a.Teams, b.Teams)
	add("KillTarget", a.KillTarget != b.KillTarget, a.KillTarget, b.KillTarget)
	add("CheckTarget", a.CheckTarget != b.CheckTarget, a.CheckTarget, b.CheckTarget)
	add("ShotTarget", a.ShotTarget != b.ShotTarget, a.ShotTarget, b.ShotTarget)
	add("HealTarget", a.HealTarget != b.HealTarget, a.HealTarget, b.HealTarget)
	add("Skipped", a.Skipped != b.Skipped, a.Skipped, b.Skipped)
	add("Checks", a.Checks != b.Checks, a.Checks, b.Checks)
	add("MafiaChoice", a.MafiaChoice != b.MafiaChoice, a.MafiaChoice, b.MafiaChoice)
	add("MafiaActed", a.MafiaActed != b.MafiaActed, a.MafiaActed.Seats(), b.MafiaActed.Seats())
	add("ShotsLeft", a.ShotsLeft != b.ShotsLeft, a.ShotsLeft, b.ShotsLeft)
	add("Healed", a.Healed != b.Healed, a.Healed.Seats(), b.Healed.Seats())
	add("HealBanned", a.HealBanned != b.HealBanned, a.HealBanned, b.HealBanned)
	add("Voted", a.Voted != b.Voted, a.Voted, b.Voted)
	add("MyVote", a.MyVote != b.MyVote, a.MyVote, b.MyVote)
	add("MyYes", a.MyYes != b.MyYes, a.MyYes, b.MyYes)
	add("Ballot", a.Ballot != b.Ballot, a.Ballot, b.Ballot)
	add("Fouls", a.Fouls != b.Fouls, a.Fouls, b.Fouls)
	add("LostSpeech", a.LostSpeech != b.LostSpeech, a.LostSpeech.Seats(), b.LostSpeech.Seats())
	add("Victims", a.Victims != b.Victims, a.Victims.Seats(), b.Victims.Seats())
	add("Winner", a.Winner != b.Winner, a.Winner, b.Winner)
	if out == "" {
		out = "  (another field)\n"
	}
	return out
}

// TestProperty_RandomGames plays random seeded games and checks, after
// every accepted command: exactly one result at the end; Replay equals the
// live game (at random points and at the end); refused commands change
// nothing; views and Check agree; no seat sees a secret.
func TestProperty_RandomGames(t *testing.T) {
	start := time.Now()
	stats := &propStats{}
	games := propertyGames()
	failures := 0
	for i := 0; i < games && failures < 5; i++ {
		p, tb := newPropGame(t, propertyRoot, i, stats)
		if !tb.Play(5000) {
			p.fail("the game did not end in 5000 steps")
		}
		if !p.g.Ended() || p.ended != 1 {
			p.fail("at the end: Ended %v, %d game_ended events", p.g.Ended(), p.ended)
		}
		if last := p.log[len(p.log)-1]; last.Kind != engine.EvGameEnded || last.Winner != p.g.Winner() {
			p.fail("the last event is %s (winner %q), the game's winner %q", last.Kind, last.Winner, p.g.Winner())
		}
		// after the end, everything is refused
		for k := 0; k < 20; k++ {
			c := p.randomCommand()
			before := p.g.Clone()
			if _, err := p.g.Handle(c); err == nil || !p.g.Equal(before) {
				p.fail("%s after the end: err %v, changed %v", cmdString(c), err, !p.g.Equal(before))
			}
		}
		if p.failed {
			failures++
		}
	}
	t.Logf("%d games (%d players: %v), %d commands accepted, %d random commands thrown (%d accepted, %d statements), %d replays, %d legality sweeps, winners town/mafia/maniac/draw %v, in %v",
		stats.games, engine.MinSeats, stats.byPlayers[engine.MinSeats:], stats.commands, stats.thrown, stats.thrownAccepted, stats.statements, stats.replays, stats.legalChecks, stats.winners[1:], time.Since(start).Round(time.Millisecond))
	if stats.statements < games {
		t.Errorf("only %d statements accepted in %d games: the property hardly tries them", stats.statements, games)
	}
}
