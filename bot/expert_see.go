package bot

import "mafia/engine"

// This file is how the Expert bot reads the record into its worlds: each
// public act multiplies every world's weight by how likely the act is from
// the actor's team (and its target's) in that world. The tables are
// indexed [actor's team][target's team] (town, mafia, maniac); only their
// ratios matter. Lying cards are in them: a mafioso claims the Detective
// now and then and reports a town seat as mafia; a real Detective reports
// what it found.

// The likelihoods of the acts.
var (
	// nominations: the mafia seldom nominate a partner
	expNom = [3][3]float32{{1, 1.3, 1.3}, {1.3, 0.35, 1.2}, {1, 1, 1}}
	// votes (in a vote with a choice): the mafia seldom vote for a partner
	expVote = [3][3]float32{{1, 1.3, 1.3}, {1.3, 0.4, 1.2}, {1, 1, 1}}
	// suspicions: the mafia seldom suspect a partner
	expSuspect = [3][3]float32{{1, 1.2, 1.2}, {1.2, 0.3, 1.1}, {1, 1, 1}}
	// vouches: the mafia vouch for a partner more than for anyone
	expVouch = [3][3]float32{{1.1, 1, 1}, {1, 1.6, 1}, {1, 1, 1}}
	// a vote against the day's majority: likelier from the mafia
	expAgainst = [3][3]float32{{1, 1, 1}, {expAgainstMafia, expAgainstMafia, expAgainstMafia}, {1.1, 1.1, 1.1}}
	// a speech that accused nobody: the mafia keep quiet more than the town
	expQuiet = [3][3]float32{{1, 1, 1}, {expQuietMafia, expQuietMafia, expQuietMafia}, {1.1, 1.1, 1.1}}
)

// The likelihoods of claims and reports.
const (
	expDetClaims    = 0.5  // the real Detective claims (spread over the town's seats)
	expFakeClaim    = 0.12 // a mafioso claims the Detective
	expFakeMan      = 0.06 // the maniac claims the Detective
	expTownLies     = 0.02 // a town seat claims the Detective when another town seat did (or the Detective is known)
	expDetWrong     = 0.02 // the real Detective reports a false answer
	expNightMafia   = 0.2  // a night victim is a mafioso (the maniac's shot)
	expSpared       = 0.75 // a real Detective who claimed lives through a night
	expQuietMafia   = 1.3  // a speech that accused nobody, from a mafioso
	expAgainstMafia = 1.3  // a vote against the majority, from a mafioso
)

// See implements Observer: it folds the seat's events into its worlds.
func (b *Expert) See(seat engine.Seat, evs []engine.Event) {
	for i := range evs {
		b.see(seat, &evs[i])
		if b.mafia() {
			b.shadow.see(seat, &evs[i])
		}
	}
}

func (b *Expert) see(seat engine.Seat, e *engine.Event) {
	switch e.Kind {
	case engine.EvGameStarted:
		var team engine.SeatSet
		role := e.RoleOf(seat)
		if role.IsMafia() {
			for s := engine.Seat(1); s <= engine.Seat(e.Count); s++ {
				if e.RoleOf(s).IsMafia() {
					team = team.With(s)
				}
			}
		}
		b.start(seat, e.Count, e.Rules, role, team)
	case engine.EvNightBegan:
		b.round, b.phase, b.healed = e.Round, engine.PhaseNight, 0
		b.goesOn()
	case engine.EvChecked:
		b.seeCheck(e)
	case engine.EvHealed:
		b.healed = e.Target
	case engine.EvNightEnded:
		b.talk.newDay() // the day's talk begins with the morning's last words
		b.seeNight(e.Set)
	case engine.EvPlayerOut:
		b.seeOut(e)
	case engine.EvDayBegan:
		b.round, b.phase, b.ncand = e.Round, engine.PhaseSpeech, 0
		b.nomOrder = [engine.MaxSeats + 1]uint8{}
		b.spoke, b.spokeUp = 0, 0
		b.goesOn()
	case engine.EvSpeech:
		b.spoke = b.spoke.With(e.Target)
	case engine.EvNominated:
		b.both(e.Actor, e.Target, &expNom)
		if int(b.ncand) < len(b.cand) {
			b.cand[b.ncand] = e.Target
			b.ncand++
			b.nomOrder[e.Target] = b.ncand
		}
		b.accused(e.Actor, e.Target, 2)
	case engine.EvVoteBegan, engine.EvTie:
		b.ncand = e.Count
		for i := uint8(0); i < e.Count && int(i) < len(b.cand); i++ {
			b.cand[i] = e.ListAt(int(i))
		}
		if e.Kind == engine.EvVoteBegan {
			b.multi = e.Count > 1
			// the day's speeches are over: who accused nobody
			for m := b.spoke &^ b.spokeUp; m != 0; {
				s := m.First()
				m = m.Without(s)
				b.both(s, s, &expQuiet)
			}
			b.spoke = 0
		}
	case engine.EvVoteClosed:
		if !b.multi {
			return
		}
		var count [engine.MaxSeats + 1]uint8
		for v := engine.Seat(1); v <= engine.Seat(b.n); v++ {
			if c := e.CountedFor(v); c != 0 {
				b.both(v, c, &expVote)
				b.accused(v, c, 1)
				count[c]++
			}
		}
		var top engine.Seat
		var most, ties uint8
		for c := engine.Seat(1); c <= engine.Seat(b.n); c++ {
			switch {
			case count[c] > most:
				top, most, ties = c, count[c], 0
			case count[c] == most && most > 0:
				ties++
			}
		}
		if top != 0 && ties == 0 {
			for v := engine.Seat(1); v <= engine.Seat(b.n); v++ {
				if c := e.CountedFor(v); c != 0 && c != top {
					b.both(v, v, &expAgainst)
				}
			}
		}
	case engine.EvAllVoteClosed:
		b.seeAllVote(e.Set)
	case engine.EvStatement:
		b.seeStatement(e)
	}
}

// The likelihood that a seat not tied answers yes to "shall all of them
// leave?", by its team and whether a mafioso (other than itself) is among
// the tied: the mafia send the town's seats away and keep their partners;
// the town says yes when it believes the tied bad, and does not know.
var expAllYes = [3][2]float32{
	{0.15, 0.3}, // town: no mafioso tied, one tied
	{0.9, 0.05}, // mafia: no partner tied, a partner tied
	{0.4, 0.4},  // the maniac
}

// seeAllVote reads the answers to "shall all of them leave?" (yes: who
// said yes) about today's tied candidates: each answer of a seat not tied
// weighed in every world by expAllYes (a tied seat says no for itself).
// The mafia's answers show their team: without this a day that ended with
// nobody out read the mafia's yes as nothing.
func (b *Expert) seeAllVote(yes engine.SeatSet) {
	tied := b.candidates()
	voters := b.alive &^ tied
	if tied == 0 || voters == 0 {
		return
	}
	f := func(w world, skip engine.Seat) float32 {
		x := float32(1)
		for m := voters.Without(skip); m != 0; {
			s := m.First()
			m = m.Without(s)
			t := w.team(s)
			k := 0
			if tied&w.mafia.Without(s) != 0 {
				k = 1
			}
			p := expAllYes[t][k]
			if !yes.Has(s) {
				p = 1 - p
			}
			x *= p
		}
		return x
	}
	b.own.mul(func(w world) float32 { return f(w, b.me) })
	if b.hasPub {
		b.pub.mul(func(w world) float32 { return f(w, 0) })
	}
}

// goesOn drops the worlds in which the game would have ended.
func (b *Expert) goesOn() {
	if b.alive == b.checked {
		return // nobody left since the last look
	}
	b.checked = b.alive
	b.own.goesOn(b.alive, &b.Src)
	if b.hasPub {
		b.pub.goesOn(b.alive, &b.Src)
	}
}

// accused notes an act against the team (a mafioso's view) or against the
// maniac himself.
func (b *Expert) accused(by, against engine.Seat, w int32) {
	if (b.team != 0 && b.team.Has(against)) || (b.role == engine.Maniac && against == b.me) {
		b.accuse[by] += w
	}
}

// seeCheck reads one of the seat's own checks: a certain fact.
func (b *Expert) seeCheck(e *engine.Event) {
	t := e.Target
	switch e.Result {
	case engine.ResultDetective:
		b.detSeat = t
		b.own.knowTeam(t, engine.TeamTown, &b.Src)
		return
	case engine.ResultNotDetective:
		return
	}
	// the Detective's answer: keep the worlds that give it
	r, rules := e.Result, b.rules
	b.own.keep(func(w world) bool {
		tm := engine.TeamTown
		switch w.team(t) {
		case tMafia:
			tm = engine.TeamMafia
		case tManiac:
			tm = engine.TeamManiac
		}
		return rules.DetectiveAnswer(tm) == r
	}, &b.Src)
	if r == engine.ResultManiac {
		b.own.knowTeam(t, engine.TeamManiac, &b.Src)
	}
}

// seeNight reads a morning: the mafia never kill a partner, so a victim is
// a mafioso only by the maniac's shot; and a Detective claimant whom the
// night spared was, likely, not the mafia's target.
func (b *Expert) seeNight(victims engine.SeatSet) {
	alive, round := b.alive, b.round
	f := func(w world) float32 {
		maf := (w.mafia & victims).Len()
		if maf == 0 {
			return 1
		}
		if maf > 1 || w.man == 0 || !alive.Has(w.man) || round < 2 || victims.Has(w.man) && victims.Len() == 1 {
			return 1e-4
		}
		return expNightMafia
	}
	b.own.mul(f)
	if b.hasPub {
		b.pub.mul(f)
	}
	for c := b.claimers & alive &^ victims; c != 0; {
		s := c.First()
		c = c.Without(s)
		if b.claimRound[s] < round {
			b.spared(s)
		}
	}
}

// spared weighs that claimant s lived through a night.
func (b *Expert) spared(s engine.Seat) {
	g := func(w world) float32 {
		if w.team(s) == tTown {
			return expSpared
		}
		return 1
	}
	b.own.mul(g)
	if b.hasPub {
		b.pub.mul(g)
	}
}

// seeOut reads a player's leaving: a revealed team or card is certain.
func (b *Expert) seeOut(e *engine.Event) {
	t := e.Target
	b.alive = b.alive.Without(t)
	if e.Team != engine.TeamNone && t != b.me && !b.team.Has(t) {
		b.know(t, e.Team)
	} else if e.Team != engine.TeamNone && b.hasPub {
		b.pub.knowTeam(t, e.Team, &b.Src)
	}
	if e.Role == engine.Detective && b.detSeat != t {
		b.detSeat = t
		// every other claimant lied: a town liar is all but impossible
		for c := b.claimers.Without(t); c != 0; {
			s := c.First()
			c = c.Without(s)
			b.townLied(s)
		}
	}
}

// townLied weighs that s claimed the Detective while someone else is it.
func (b *Expert) townLied(s engine.Seat) {
	g := func(w world) float32 {
		if w.team(s) == tTown {
			return expTownLies
		}
		return 1
	}
	b.own.mul(g)
	if b.hasPub {
		b.pub.mul(g)
	}
}

// seeStatement reads a statement: claims and reports by the liar's
// likelihoods as well as the truth-teller's; opinions weakly.
func (b *Expert) seeStatement(e *engine.Event) {
	by := e.Actor
	switch e.Verb {
	case engine.Claim:
		if e.Role == engine.Detective {
			b.seeClaim(by)
		}
	case engine.Report:
		if !b.claimers.Has(by) {
			b.seeClaim(by) // a report is a claim of the card
		}
		b.seeReport(by, e.Target, e.Result)
		b.spokeUp = b.spokeUp.With(by)
		if e.Result != engine.ResultNotMafia {
			b.accused(by, e.Target, 3)
		}
	case engine.Suspect:
		b.spokeUp = b.spokeUp.With(by)
		b.both(by, e.Target, &expSuspect)
		b.accused(by, e.Target, 1)
	case engine.WillNominate:
		b.spokeUp = b.spokeUp.With(by)
		b.both(by, e.Target, &expSuspect)
		b.accused(by, e.Target, 1)
	case engine.Vouch:
		b.both(by, e.Target, &expVouch)
	}
}

// seeClaim weighs a Detective claim by s in every world: the town has one
// Detective (a second town claimant all but never happens), the mafia and
// the maniac lie now and then.
func (b *Expert) seeClaim(s engine.Seat) {
	if b.claimers.Has(s) {
		return
	}
	prior := b.claimers
	if b.detSeat != 0 {
		prior = prior.With(b.detSeat) // the known Detective: nobody else is it
	}
	b.claimers = b.claimers.With(s)
	b.nclaims++
	b.claimSeq[s] = b.nclaims
	b.claimRound[s] = b.round
	b.lie.sawClaim(b, s)
	if s == b.me {
		return
	}
	n := b.n
	f := func(w world) float32 {
		switch w.team(s) {
		case tMafia:
			if prior&w.mafia != 0 {
				return expFakeClaim / 3
			}
			return expFakeClaim
		case tManiac:
			return expFakeMan
		}
		if prior.Without(s)&^w.bad() != 0 {
			return expTownLies
		}
		town := int(n) - w.mafia.Len()
		if w.man != 0 {
			town--
		}
		return expDetClaims / float32(max(town, 1))
	}
	b.own.mul(f)
	if b.hasPub {
		// the town does not know the Detective the Don found
		pp := b.claimers.Without(s)
		b.pub.mul(func(w world) float32 {
			switch w.team(s) {
			case tMafia:
				if pp&w.mafia != 0 {
					return expFakeClaim / 3
				}
				return expFakeClaim
			case tManiac:
				return expFakeMan
			}
			if pp&^w.bad() != 0 {
				return expTownLies
			}
			town := int(n) - w.mafia.Len()
			if w.man != 0 {
				town--
			}
			return expDetClaims / float32(max(town, 1))
		})
	}
}

// seeReport weighs "by checked t: r": true from the real Detective, a lie
// from the mafia (a town seat accused, a partner cleared) or the maniac.
func (b *Expert) seeReport(by, t engine.Seat, r engine.Result) {
	if by == b.me {
		return
	}
	rules := b.rules
	accuse := r != engine.ResultNotMafia
	f := func(w world) float32 {
		tt := w.team(t)
		switch w.team(by) {
		case tTown:
			tm := engine.TeamTown
			switch tt {
			case tMafia:
				tm = engine.TeamMafia
			case tManiac:
				tm = engine.TeamManiac
			}
			if rules.DetectiveAnswer(tm) == r {
				return 1
			}
			return expDetWrong
		case tMafia:
			if accuse {
				return [3]float32{0.8, 0.05, 0.8}[tt]
			}
			return [3]float32{0.35, 0.5, 0.35}[tt]
		}
		if accuse {
			return 0.7
		}
		return 0.35
	}
	b.own.mul(f)
	if b.hasPub {
		b.pub.mul(f)
	}
}
