package sim

import "mafia/engine"

// Metrics are the per-role measures of play (in the style of the AI
// Werewolf contest), counted over a run when Config.Metrics is set. The
// simulator is the host: it reads every event and the host's view, never a
// bot's mind. Each measure is a share (Share); Normalised divides it by the
// same share under random play, so that 1.0 is random play.
type Metrics struct {
	TownVotes      int // town ballots in votes with a choice (two or more candidates)
	TownVotesOnBad int // of them, counted for a mafioso or the maniac
	Day2Games      int // games with a Detective that reached day 2
	DetectiveDay2  int // of them, the Detective alive when day 2 began
	Heals          int // the Doctor's heals
	Saves          int // of them, on the seat the mafia or the maniac chose, who lived
	DetGames       int // games with a Detective
	DetKilled      int // of them, the Detective killed at night as the mafia's victim
}

func (m *Metrics) add(o Metrics) {
	m.TownVotes += o.TownVotes
	m.TownVotesOnBad += o.TownVotesOnBad
	m.Day2Games += o.Day2Games
	m.DetectiveDay2 += o.DetectiveDay2
	m.Heals += o.Heals
	m.Saves += o.Saves
	m.DetGames += o.DetGames
	m.DetKilled += o.DetKilled
}

// Share returns n/of, and false when of is 0 (nothing to measure).
func Share(n, of int) (float64, bool) {
	if of == 0 {
		return 0, false
	}
	return float64(n) / float64(of), true
}

// Normalised returns share/random, and false when either is unknown or the
// random share is 0.
func Normalised(share float64, ok bool, random float64, rok bool) (float64, bool) {
	if !ok || !rok || random == 0 {
		return 0, false
	}
	return share / random, true
}

// Precision is the town's vote precision: the share of town votes cast on
// mafia or the maniac.
func (m Metrics) Precision() (float64, bool) { return Share(m.TownVotesOnBad, m.TownVotes) }

// DetectiveLivesToDay2 is how often the Detective is alive when day 2 begins.
func (m Metrics) DetectiveLivesToDay2() (float64, bool) { return Share(m.DetectiveDay2, m.Day2Games) }

// SaveRate is the share of the Doctor's heals that saved a life.
func (m Metrics) SaveRate() (float64, bool) { return Share(m.Saves, m.Heals) }

// DetectiveKilled is how often the mafia kill the Detective.
func (m Metrics) DetectiveKilled() (float64, bool) { return Share(m.DetKilled, m.DetGames) }

// meter counts one game's metrics from the host's side of the table.
type meter struct {
	g      *engine.Game
	roles  []engine.Role // the deal: roles[s-1] is seat s's card
	det    engine.Seat
	multi  bool        // the open vote has two or more candidates
	target engine.Seat // the mafia's victim tonight so far
	shot   engine.Seat
	heal   engine.Seat
	m      *Metrics
}

func (mt *meter) start(g *engine.Game, roles []engine.Role, m *Metrics) {
	*mt = meter{g: g, roles: roles, m: m}
	for i, r := range roles {
		if r == engine.Detective {
			mt.det = engine.Seat(i + 1)
		}
	}
	if mt.det != 0 {
		m.DetGames++
	}
}

func (mt *meter) bad(s engine.Seat) bool {
	r := mt.roles[s-1]
	return r.IsMafia() || r == engine.Maniac
}

// events folds one accepted command's events.
func (mt *meter) events(_ engine.Command, evs []engine.Event) {
	for i := range evs {
		e := &evs[i]
		switch e.Kind {
		case engine.EvNightBegan:
			mt.target, mt.shot, mt.heal = 0, 0, 0
		case engine.EvMafiaChose, engine.EvSkipped:
			if mt.g.Phase() == engine.PhaseNight {
				hv := mt.g.HostView()
				mt.target = hv.KillTarget
			}
		case engine.EvShot:
			mt.shot = e.Target
		case engine.EvHealed:
			mt.heal = e.Target
			mt.m.Heals++
		case engine.EvNightEnded:
			if h := mt.heal; h != 0 && (h == mt.target || h == mt.shot) && !e.Set.Has(h) {
				mt.m.Saves++
			}
		case engine.EvPlayerOut:
			if e.Target == mt.det && e.Cause == engine.CauseNight && mt.target == mt.det {
				mt.m.DetKilled++
			}
		case engine.EvDayBegan:
			if e.Round == 2 && mt.det != 0 {
				mt.m.Day2Games++
				if mt.g.Alive().Has(mt.det) {
					mt.m.DetectiveDay2++
				}
			}
		case engine.EvVoteBegan:
			mt.multi = e.Count > 1
		case engine.EvVoteClosed:
			if !mt.multi {
				continue
			}
			for v := 1; v <= len(mt.roles); v++ {
				c := e.CountedFor(engine.Seat(v))
				if c == 0 || mt.roles[v-1].Team() != engine.TeamTown {
					continue
				}
				mt.m.TownVotes++
				if mt.bad(c) {
					mt.m.TownVotesOnBad++
				}
			}
		}
	}
}
