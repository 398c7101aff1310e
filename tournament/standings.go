package tournament

import (
	"cmp"
	"slices"

	"mafia/club"
)

// TieBreak is one rule that orders players of equal points.
type TieBreak string

// The tie-breaks an organiser may declare, in any order after points.
const (
	// ByWins: more wins.
	ByWins TieBreak = "wins"
	// ByBestMove: more points of the first-killed player's best move.
	ByBestMove TieBreak = "best_move"
	// ByExtra: more of the host's extra points (negative ones count down).
	ByExtra TieBreak = "extra"
	// ByFouls: fewer removals by fouls.
	ByFouls TieBreak = "fouls"
	// ByHeadToHead: more points in the games where the tied players met
	// (a game counts for a player when another of the tied sat at it).
	ByHeadToHead TieBreak = "head_to_head"
	// ByFinal: more points in the final (after its factor).
	ByFinal TieBreak = "final"
	// ByFirstKilled: killed first (the first night's victim) more often:
	// some championships' last tie-break but one.
	ByFirstKilled TieBreak = "first_killed"
)

// TieBreaks lists every tie-break, in the order the organiser's form shows.
var TieBreaks = []TieBreak{ByWins, ByBestMove, ByExtra, ByFouls, ByHeadToHead, ByFinal, ByFirstKilled}

// DefaultTieBreaks is the order when the organiser declares none.
var DefaultTieBreaks = []TieBreak{ByWins, ByBestMove, ByExtra, ByFouls, ByHeadToHead}

// Standing is one player's line of a tournament's standings. Points is the
// qualifying points plus the final's (already multiplied by its factor).
type Standing struct {
	Place        int         `json:"place"`
	Person       string      `json:"person"`
	Name         string      `json:"name"`
	Finalist     bool        `json:"finalist"`
	Points       club.Points `json:"points"`
	Qualifying   club.Points `json:"qualifying"`
	FinalPoints  club.Points `json:"final"`
	Games        int         `json:"games"`
	Wins         int         `json:"wins"`
	BestMove     club.Points `json:"best_move"`
	Extra        club.Points `json:"extra"`
	FoulRemovals int         `json:"foul_removals"`
	FirstKilled  int         `json:"first_killed"`
	// ByRole is the games, wins and win rate per row of club.RoleRows
	// (town, mafia, Don, Detective, Doctor, maniac), the final's games
	// counted too.
	ByRole []club.RoleLine `json:"by_role"`
	roles  roleTally
}

// played is one counted game: who sat at it and what each scored there
// (after the final's factor).
type played struct {
	points map[string]club.Points
}

// Factor multiplies points by a factor in hundredths (150: ×1.5), rounded
// half away from zero to a hundredth.
func Factor(p, f club.Points) club.Points {
	x := int(p) * int(f)
	if x >= 0 {
		return club.Points((x + 50) / 100)
	}
	return club.Points(-((-x + 50) / 100))
}

// Standings counts the tournament's linked, finished games (games by the
// club's game id) under its scoring: every player of the tournament, the
// finalists first once the final is seated, each part ordered by points and
// then by the declared tie-breaks; players equal on all of them share a
// place. A seat's player is the game's roster id (after merges) or, for a
// guest seat, the seating's player there.
func (t *Tournament) Standings(roster *club.Roster, games map[string]club.Game) []Standing {
	return t.standings(roster, games, true)
}

func (t *Tournament) standings(roster *club.Roster, games map[string]club.Game, withFinal bool) []Standing {
	by := make(map[string]*Standing, len(t.Players))
	for _, p := range t.Players {
		pp, _ := roster.Person(p)
		by[p] = &Standing{Person: p, Name: pp.Name}
	}
	var counted []played
	for _, r := range t.Rounds {
		if r.Final && !withFinal {
			continue
		}
		for _, tb := range r.Tables {
			if r.Final {
				for _, p := range tb.Players {
					by[p].Finalist = true
				}
			}
			g, ok := games[tb.Game]
			if tb.Game == "" || !ok || g.Winner == "" {
				continue
			}
			g.Extra = tb.Extras(g) // a real table's extras given on the organiser's screen replace its host's
			pl := played{points: map[string]club.Points{}}
			for i, l := range t.Scoring.Score(&g) {
				p := roster.Resolve(l.Seat.Person)
				if p == "" && i < len(tb.Players) {
					p = tb.Players[i]
				}
				st := by[p]
				if st == nil {
					continue
				}
				if slices.Contains(tb.Absent, i+1) {
					t.noShow(st, r.Final, pl)
					continue
				}
				total := l.Total
				if r.Final {
					total = Factor(total, t.Final.Factor)
					st.FinalPoints += total
				} else {
					st.Qualifying += total
				}
				st.Points += total
				pl.points[p] = total
				st.Games++
				if l.Won {
					st.Wins++
				}
				st.BestMove += l.BestMove
				st.Extra += l.Extra
				if l.RemovedByFouls {
					st.FoulRemovals++
				}
				if l.FirstKilled {
					st.FirstKilled++
				}
				st.roles.add(l.Seat.Role, l.Won)
			}
			counted = append(counted, pl)
		}
	}
	var fin, rest []*Standing
	for _, p := range t.Players {
		by[p].ByRole = by[p].roles.lines()
		if by[p].Finalist {
			fin = append(fin, by[p])
		} else {
			rest = append(rest, by[p])
		}
	}
	crit := append([]TieBreak{"points"}, t.TieBreaks...)
	out := make([]Standing, 0, len(t.Players))
	place := 1
	for _, part := range [][]*Standing{fin, rest} {
		for _, class := range split(part, crit, counted) {
			slices.SortFunc(class, func(a, b *Standing) int {
				return cmp.Or(cmp.Compare(club.Fold(a.Name), club.Fold(b.Name)), cmp.Compare(a.Person, b.Person))
			})
			for _, s := range class {
				s.Place = place
				out = append(out, *s)
			}
			place += len(class)
		}
	}
	return out
}

// split orders a group of players by the first criterion (more is better)
// into classes of equal value, and each class by the rest in turn.
func split(group []*Standing, crit []TieBreak, counted []played) [][]*Standing {
	if len(group) == 0 {
		return nil
	}
	if len(group) == 1 || len(crit) == 0 {
		return [][]*Standing{group}
	}
	key := keyOf(crit[0], group, counted)
	g := slices.Clone(group)
	slices.SortStableFunc(g, func(a, b *Standing) int { return cmp.Compare(key[b.Person], key[a.Person]) })
	var out [][]*Standing
	for i := 0; i < len(g); {
		j := i + 1
		for j < len(g) && key[g[j].Person] == key[g[i].Person] {
			j++
		}
		out = append(out, split(g[i:j], crit[1:], counted)...)
		i = j
	}
	return out
}

// keyOf gives each player of the group its value under a criterion, more
// being better.
func keyOf(c TieBreak, group []*Standing, counted []played) map[string]int {
	key := make(map[string]int, len(group))
	for _, s := range group {
		switch c {
		case "points":
			key[s.Person] = int(s.Points)
		case ByWins:
			key[s.Person] = s.Wins
		case ByBestMove:
			key[s.Person] = int(s.BestMove)
		case ByExtra:
			key[s.Person] = int(s.Extra)
		case ByFouls:
			key[s.Person] = -s.FoulRemovals
		case ByFinal:
			key[s.Person] = int(s.FinalPoints)
		case ByFirstKilled:
			key[s.Person] = s.FirstKilled
		}
	}
	if c == ByHeadToHead {
		in := map[string]bool{}
		for _, s := range group {
			in[s.Person] = true
		}
		for _, g := range counted {
			n := 0
			for p := range g.points {
				if in[p] {
					n++
				}
			}
			if n < 2 {
				continue
			}
			for p, pts := range g.points {
				if in[p] {
					key[p] += int(pts)
				}
			}
		}
	}
	return key
}

// noShow scores a player who did not come to their online table (the
// server's bot played the seat): nothing under the stand-in rule (the
// seat's result is the bot's, the game not the player's); under the
// forfeit rule a game played for the forfeit penalty, never multiplied by
// the final's factor, and nothing else.
func (t *Tournament) noShow(st *Standing, final bool, pl played) {
	if t.Online == nil || t.Online.NoShow != NoShowForfeit {
		return
	}
	f := t.Online.Forfeit
	if final {
		st.FinalPoints += f
	} else {
		st.Qualifying += f
	}
	st.Points += f
	st.Games++
	pl.points[st.Person] = f
}
