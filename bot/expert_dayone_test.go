package bot

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"testing"

	"mafia/engine"
	"mafia/rng"
)

// diagCell accumulates top-3 readings of the mafia by some scorer.
type diagCell struct {
	n            int
	hits, chance float64
	rank         float64 // the mafia's mean rank among the living others (1 = most suspected)
	bottom       float64 // hits of the three least suspected
}

func (c *diagCell) add(score func(s engine.Seat) float32, pool engine.SeatSet, mafia engine.SeatSet, src *rng.Source) {
	type sc struct {
		s engine.Seat
		x float32
	}
	var l []sc
	for m := pool; m != 0; {
		s := m.First()
		m = m.Without(s)
		l = append(l, sc{s, score(s) + float32(src.Uint64()>>40)/float32(1<<24)*1e-4})
	}
	sort.Slice(l, func(i, j int) bool { return l[i].x > l[j].x })
	bad := (pool & mafia).Len()
	if bad == 0 {
		return
	}
	c.n++
	c.chance += float64(3*bad) / float64(pool.Len())
	var rk float64
	for i, e := range l {
		if mafia.Has(e.s) {
			rk += float64(i + 1)
			if i < 3 {
				c.hits++
			}
			if i >= len(l)-3 {
				c.bottom++
			}
		}
	}
	c.rank += rk / float64(bad)
}

func (c diagCell) String() string {
	if c.n == 0 {
		return "n=0"
	}
	f := float64(c.n)
	return fmt.Sprintf("n=%5d top3 %.3f (chance %.3f) bottom3 %.3f rank %.2f", c.n, c.hits/f, c.chance/f, c.bottom/f, c.rank/f)
}

// actCount is how often an act went from each team to each team.
type actCount [2][2]int

func (a actCount) String() string {
	// ratio of each cell to what random pairs would give is left to the reader
	return fmt.Sprintf("TT %d TM %d MT %d MM %d", a[0][0], a[0][1], a[1][0], a[1][1])
}

// TestMeasure_ExpertDayOne is a measurement, not a rule (it runs only when
// MAFIA_MEASURE names a number of games; MAFIA_MEETING=1 leaves out the
// full first night): over seeded games of ten Expert bots under each first
// night, how well each living town seat's belief at the start of night 2
// reads the mafia (the mafia named by its three most suspected, their mean
// rank, and by its three least suspected), beside readings of the public
// record (the votes and nominations a seat received), the best moves made,
// and day 1's acts by the teams of actor and target (T town, M mafia), split
// by whether day 1 sent someone out. It found why the best move after a
// meeting night was worse than chance (docs/bots.md, the best move).
//
//	MAFIA_MEASURE=12000 go test ./bot -run TestMeasure_ExpertDayOne -v
func TestMeasure_ExpertDayOne(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("MAFIA_MEASURE"))
	if games == 0 {
		t.Skip("a measurement: MAFIA_MEASURE=games")
	}
	setup, _ := engine.Preset(10)
	fns := []uint8{engine.FirstNightFull, engine.FirstNightMeeting}
	if os.Getenv("MAFIA_MEETING") != "" {
		fns = fns[1:]
	}
	for _, fn := range fns {
		rules := engine.DefaultRules()
		rules.FirstNight = fn
		// [0]: day 1 sent someone out, [1]: nobody
		var exp, votes, noms, least, victim [2]diagCell
		var bm diagCell
		var nom, vote, sus [2]actCount
		var quiet, speak [2][2]int
		var nobodyGames int
		var nobodyIdx []int
		var allv [2][4]int // [out1][town yes, town no, mafia yes, mafia no] (seats not tied)
		var mafWithPartner [2]int
		src := rng.New(5)
		for i := 0; i < games; i++ {
			seed := rng.Derive(0xbe57, uint64(i))
			deal := setup.Deal(seed, nil)
			g, start, err := engine.New(rules, deal, seed)
			if err != nil {
				t.Fatal(err)
			}
			tb := &Table{Game: g, Bots: make([]Bot, 11)}
			ex := make([]*Expert, 11)
			for s := 1; s <= 10; s++ {
				ex[s] = NewExpert(rng.Derive(seed, uint64(s)))
				tb.Bots[s] = ex[s]
			}
			var mafia engine.SeatSet
			for s := engine.Seat(1); s <= 10; s++ {
				if deal[s-1].IsMafia() {
					mafia = mafia.With(s)
				}
			}
			mi := func(s engine.Seat) int {
				if mafia.Has(s) {
					return 1
				}
				return 0
			}
			day1 := false
			out1 := -1
			var recv, nomd [11]float32
			var spokeUp, spoke engine.SeatSet
			var dNom, dVote, dSus actCount
			var dQuiet, dSpeak [2][2]int
			var dAll [4]int
			var dPartner int
			var tied engine.SeatSet
			type look struct {
				seat  engine.Seat
				own   [11]float32
				alive engine.SeatSet
			}
			var looks []look
			var bestMoves []engine.SeatSet
			var bmAlive []engine.SeatSet
			var bmSeat []engine.Seat
			tb.OnEvents = func(_ engine.Command, evs []engine.Event) {
				for _, e := range evs {
					switch e.Kind {
					case engine.EvDayBegan:
						day1 = e.Round == 1
					case engine.EvSpeech:
						if day1 {
							spoke = spoke.With(e.Target)
						}
					case engine.EvNominated:
						if day1 {
							dNom[mi(e.Actor)][mi(e.Target)]++
							nomd[e.Target]++
							spokeUp = spokeUp.With(e.Actor)
						}
					case engine.EvStatement:
						if day1 && (e.Verb == engine.Suspect || e.Verb == engine.WillNominate) {
							dSus[mi(e.Actor)][mi(e.Target)]++
							spokeUp = spokeUp.With(e.Actor)
						}
						if e.Verb == engine.BestMove && !mafia.Has(e.Actor) {
							bestMoves = append(bestMoves, e.Set)
							bmSeat = append(bmSeat, e.Actor)
							bmAlive = append(bmAlive, g.ViewFor(0).Alive.With(e.Actor))
						}
					case engine.EvVoteClosed:
						if day1 {
							for v := engine.Seat(1); v <= 10; v++ {
								if c := e.CountedFor(v); c != 0 {
									dVote[mi(v)][mi(c)]++
									recv[c]++
								}
							}
						}
					case engine.EvTie:
						tied = 0
						for k := 0; k < int(e.Count); k++ {
							tied = tied.With(e.ListAt(k))
						}
					case engine.EvAllVoteClosed:
						if day1 {
							for v := engine.Seat(1); v <= 10; v++ {
								if !g.ViewFor(0).Alive.Has(v) || tied.Has(v) {
									continue
								}
								k := 2 * mi(v)
								if !e.Set.Has(v) {
									k++
								}
								dAll[k]++
								if mafia.Has(v) && tied&mafia != 0 {
									dPartner++
								}
							}
						}
					case engine.EvPlayerOut:
						if day1 && out1 < 0 {
							out1 = 0
						}
					case engine.EvNightBegan:
						if e.Round == 2 {
							day1 = false
							if out1 < 0 {
								out1 = 1
							}
							for s := engine.Seat(1); s <= 10; s++ {
								if spoke.Has(s) && !spokeUp.Has(s) {
									dQuiet[mi(s)][0]++
								}
								if spoke.Has(s) {
									dSpeak[mi(s)][0]++
								}
							}
							alive := g.ViewFor(0).Alive
							for s := engine.Seat(1); s <= 10; s++ {
								if !alive.Has(s) || mafia.Has(s) {
									continue
								}
								b := ex[s]
								var snap snapshot
								b.own.save(&snap)
								l := look{seat: s, alive: alive}
								for x := engine.Seat(1); x <= 10; x++ {
									l.own[x] = b.bad(x)
								}
								b.own.restore(&snap)
								looks = append(looks, l)
							}
						}
					}
				}
			}
			tb.Begin(start)
			if !tb.Play(100000) {
				t.Fatal("did not end")
			}
			if out1 < 0 {
				continue
			}
			if out1 == 1 {
				nobodyGames++
				if fn == engine.FirstNightMeeting {
					nobodyIdx = append(nobodyIdx, i)
				}
			}
			for a := 0; a < 2; a++ {
				for b := 0; b < 2; b++ {
					nom[out1][a][b] += dNom[a][b]
					vote[out1][a][b] += dVote[a][b]
					sus[out1][a][b] += dSus[a][b]
				}
				quiet[out1][a] += dQuiet[a][0]
				allv[out1][a] += dAll[a]
				allv[out1][a+2] += dAll[a+2]
				mafWithPartner[out1] += dPartner * (1 - a)
				speak[out1][a] += dSpeak[a][0]
			}
			// the night-2 victim
			var v2 engine.Seat
			for k := range bmSeat {
				v2 = bmSeat[k]
				bm.addSet(bestMoves[k], bmAlive[k].Without(v2), mafia)
			}
			for _, l := range looks {
				pool := l.alive.Without(l.seat)
				own := l.own
				exp[out1].add(func(s engine.Seat) float32 { return own[s] }, pool, mafia, &src)
				votes[out1].add(func(s engine.Seat) float32 { return recv[s] + 0.5*nomd[s] }, pool, mafia, &src)
				noms[out1].add(func(s engine.Seat) float32 { return nomd[s] }, pool, mafia, &src)
				least[out1].add(func(s engine.Seat) float32 { return -own[s] }, pool, mafia, &src)
				if l.seat == v2 {
					victim[out1].add(func(s engine.Seat) float32 { return own[s] }, pool, mafia, &src)
				}
			}
		}
		t.Logf("== first_night=%s: %d games, day 1 nobody out in %d", [...]string{"full", "meeting"}[fn], games, nobodyGames)
		for k, name := range []string{"someone out", "nobody out"} {
			t.Logf("  day 1 %s:", name)
			t.Logf("    expert town seats at night 2: %v", exp[k])
			t.Logf("    votes received (+nom/2):      %v", votes[k])
			t.Logf("    nominated:                    %v", noms[k])
			t.Logf("    the expert's least suspected: %v", least[k])
			t.Logf("    the best-move victim's belief: %v", victim[k])
			t.Logf("    nominations %v; votes %v; suspicions %v", nom[k], vote[k], sus[k])
			t.Logf("    all-votes (untied seats): town yes %d no %d, mafia yes %d no %d (of them with a partner tied: %d)", allv[k][0], allv[k][1], allv[k][2], allv[k][3], mafWithPartner[k])
			t.Logf("    quiet speeches: town %d of %d, mafia %d of %d", quiet[k][0], speak[k][0], quiet[k][1], speak[k][1])
		}
		if bm.n > 0 {
			t.Logf("  the town's best moves: %d, %.3f mafia named a move (chance %.3f)", bm.n, bm.hits/float64(bm.n), bm.chance/float64(bm.n))
		}
		t.Logf("  nobody-out games: %v", nobodyIdx)
	}
}

func (c *diagCell) addSet(guess, pool, mafia engine.SeatSet) {
	bad := (pool & mafia).Len()
	c.n++
	c.chance += float64(3*bad) / float64(pool.Len())
	c.hits += float64((guess & mafia).Len())
}
