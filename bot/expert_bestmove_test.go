package bot_test

import (
	"fmt"
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// The Expert bot's best move (the engine's best_move statement): the first
// night's victim names, in its last words, the three seats it most believes
// to be the mafia's, from its view and the public record alone.

// bestMoveTally is what seeded Expert games made of their best moves.
type bestMoveTally struct {
	offered, made int
	// the town's best moves: mafia named, and what three seats drawn at
	// random from the same living seats would name on average
	town           int
	hits, expected float64
	// the Detective's: its checks that found the mafia named, and missed
	found, missed int
	// seats its checks cleared that it named
	namedClear int
}

// playExpertBestMoves plays games seeded games of 10 Expert bots under
// rules and checks every best move: made whenever the engine offered it,
// three living seats other than the victim's own, a mafioso's never a
// partner.
func playExpertBestMoves(t *testing.T, level bot.Level, root uint64, games int, rules engine.Ruleset) bestMoveTally {
	t.Helper()
	idx := make([]uint64, games)
	for i := range idx {
		idx[i] = uint64(i)
	}
	return playExpertBestMovesOf(t, level, root, idx, rules)
}

// playExpertBestMovesOf is playExpertBestMoves over the games of root
// numbered idx.
func playExpertBestMovesOf(t *testing.T, level bot.Level, root uint64, idx []uint64, rules engine.Ruleset) bestMoveTally {
	t.Helper()
	var tally bestMoveTally
	setup, err := engine.Preset(10)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range idx {
		seed := rng.Derive(root, i)
		deal := setup.Deal(seed, nil)
		g, start, err := engine.New(rules, deal, seed)
		if err != nil {
			t.Fatal(err)
		}
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, 11)}
		for s := 1; s <= 10; s++ {
			tb.Bots[s] = level.New(rng.Derive(seed, uint64(s)))
		}
		var offered engine.SeatSet
		var alive engine.SeatSet // the living when the best move's floor began
		var checks [engine.MaxSeats + 1]engine.Result
		made := map[engine.Seat]engine.SeatSet{}
		look := func() {
			if s := g.Speaker(); s != 0 && !offered.Has(s) {
				if v := g.ViewFor(s); v.Can(engine.BestMove) {
					offered, alive, checks = offered.With(s), v.Alive, v.Checks
				}
			}
		}
		tb.OnRefused = func(c engine.Command, err error) {
			t.Fatalf("game %d: seat %d's %s %v refused: %v", i, c.By, c.Verb, c.Guess.Seats(), err)
		}
		tb.OnEvents = func(_ engine.Command, evs []engine.Event) {
			for _, e := range evs {
				if e.Kind == engine.EvStatement && e.Verb == engine.BestMove {
					made[e.Actor] = e.Set
				}
			}
			look()
		}
		tb.Begin(start)
		look()
		if !tb.Play(100000) {
			t.Fatalf("game %d did not end", i)
		}
		if len(made) > 0 && offered == 0 {
			t.Fatalf("game %d: a best move the engine never offered: %v", i, made)
		}
		for m := offered; m != 0; {
			s := m.First()
			m = m.Without(s)
			tally.offered++
			guess, ok := made[s]
			if !ok {
				t.Fatalf("game %d: seat %d (%s) was offered its best move and made none", i, s, deal[s-1])
			}
			tally.made++
			if guess.Len() != engine.GuessSize || guess.Has(s) || guess&^alive != 0 {
				t.Fatalf("game %d: seat %d's best move %v: not three living seats other than its own (%v)", i, s, guess.Seats(), alive.Seats())
			}
			mafia := func(x engine.Seat) bool { return deal[x-1] == engine.Don || deal[x-1] == engine.Mafioso }
			if mafia(s) {
				for _, x := range guess.Seats() {
					if mafia(x) {
						t.Fatalf("game %d: mafioso %d's best move names its partner %d", i, s, x)
					}
				}
				continue
			}
			tally.town++
			if deal[s-1] == engine.Detective {
				for x := engine.Seat(1); x <= 10; x++ {
					switch {
					case !alive.Has(x):
					case checks[x] == engine.ResultMafia && guess.Has(x):
						tally.found++
					case checks[x] == engine.ResultMafia:
						tally.missed++
					case checks[x] == engine.ResultNotMafia && guess.Has(x):
						tally.namedClear++
					}
				}
			}
			pool, bad := alive.Without(s), 0
			for _, x := range pool.Seats() {
				if mafia(x) {
					bad++
				}
			}
			for _, x := range guess.Seats() {
				if mafia(x) {
					tally.hits++
				}
			}
			tally.expected += float64(engine.GuessSize*bad) / float64(pool.Len())
		}
	}
	return tally
}

// TestExpert_TheFirstVictimMakesItsBestMove: in seeded games of ten
// Expert bots every seat the engine offers the best move makes it, legally
// (three living seats other than its own, a mafioso's never a partner).
// With a full first night (the default rules: 400 games) the victim knows
// nothing of the others but its own card, so the Detective's check is what
// it has: a Detective victim names every living seat its check found and
// none it found clear, and the town's best moves name more of the mafia than
// three seats drawn at random from the same living seats would on average.
// With a meeting first night (as sport mafia plays it) a best move is
// offered only when day 1 sent nobody out (about 1 game in 130): those are
// checked for legality and their rate logged; the rate is held by
// TestExpert_AfterAMeetingNightTheBestMoveBeatsChance.
func TestExpert_TheFirstVictimMakesItsBestMove(t *testing.T) {
	t.Run("full first night", func(t *testing.T) {
		tally := playExpertBestMoves(t, bot.LevelExpert, 0xbe57, 400, engine.DefaultRules())
		t.Logf("%+v", tally)
		if tally.made < 300 {
			t.Fatalf("only %d best moves in 400 games (%d offered)", tally.made, tally.offered)
		}
		if tally.found == 0 || tally.missed != 0 || tally.namedClear != 0 {
			t.Errorf("the Detective's best moves: %d found mafia named, %d left out, %d cleared seats named", tally.found, tally.missed, tally.namedClear)
		}
		rate, chance := tally.hits/float64(tally.town), tally.expected/float64(tally.town)
		t.Logf("%d best moves (%d by the town): %.3f mafia named a best move, %.3f at random", tally.made, tally.town, rate, chance)
		if rate <= chance {
			t.Errorf("the town's best moves name %.3f mafia each, no better than random picks (%.3f)", rate, chance)
		}
	})
	t.Run("meeting first night", func(t *testing.T) {
		meeting := engine.DefaultRules()
		meeting.FirstNight = engine.FirstNightMeeting
		tally := playExpertBestMoves(t, bot.LevelExpert, 0xbe57, 2000, meeting)
		if tally.made < 5 {
			t.Fatalf("only %d best moves in 2000 games (%d offered)", tally.made, tally.offered)
		}
		t.Logf("%+v: %.3f mafia named a best move, %.3f at random", tally, tally.hits/float64(tally.town), tally.expected/float64(tally.town))
	})
}

// meetingNobodyOut are the games of root 0xbe57 (rng.Derive(0xbe57, i)),
// ten Expert bots under a meeting first night, whose day 1 ended with
// nobody out (a tie, a tied repeat vote and "shall all of them leave?"
// answered no): the only games of that rule where the engine offers a best
// move, 105 of the first 12,000. Found by playing the 12,000; day 1 does
// not depend on how the Expert reads the all-vote that ends it.
var meetingNobodyOut = []uint64{157, 256, 564, 788, 879, 995, 1032, 1107, 1288, 1299, 1485, 1553, 1781,
	1907, 2055, 2125, 2245, 2356, 2359, 2396, 2401, 2508, 2602, 2774, 2857, 2862, 2883, 3026, 3243, 3375,
	3481, 3488, 3517, 3589, 3813, 3814, 3911, 3913, 3969, 4339, 4505, 4617, 4633, 4706, 4718, 4787, 4916,
	5047, 5107, 5155, 5196, 5344, 5399, 5428, 5456, 5513, 5560, 5605, 5669, 5679, 5872, 5913, 6108, 6139,
	6380, 6459, 6641, 6764, 7125, 7400, 7791, 7842, 7872, 7899, 8119, 8130, 8194, 8195, 8433, 8484, 8554,
	8592, 8603, 8642, 8923, 9463, 9728, 9792, 9823, 9859, 9909, 9910, 10037, 10162, 10328, 10385, 10407,
	10945, 11000, 11176, 11229, 11444, 11585, 11918, 11921}

// TestExpert_AfterAMeetingNightTheBestMoveBeatsChance: with a meeting
// first night the first victim dies on night 2, after a day 1 that sent
// nobody out; those days end with "shall all of them leave?", which the
// mafia answer yes when none of them is tied and the town mostly no. Over
// the seeded games where that happens (meetingNobodyOut) the town's best
// moves name more mafia than three living seats drawn at random would.
// Before the Expert read the all-vote's answers its day-1 belief pointed
// away from the mafia there: 25 mafia in 93 best moves, 0.27 a move against
// 1.00 at random.
func TestExpert_AfterAMeetingNightTheBestMoveBeatsChance(t *testing.T) {
	meeting := engine.DefaultRules()
	meeting.FirstNight = engine.FirstNightMeeting
	tally := playExpertBestMovesOf(t, bot.LevelExpert, 0xbe57, meetingNobodyOut, meeting)
	if tally.town < 40 {
		t.Fatalf("only %d town best moves in %d games chosen for day 1 sending nobody out (%+v): choose the games again", tally.town, len(meetingNobodyOut), tally)
	}
	rate, chance := tally.hits/float64(tally.town), tally.expected/float64(tally.town)
	t.Logf("%d town best moves: %.3f mafia named a best move, %.3f at random", tally.town, rate, chance)
	if rate < chance {
		t.Errorf("after a meeting night the town's best moves name %.3f mafia each, fewer than random picks (%.3f)", rate, chance)
	}
}

// puppet plays a seat by a script that reads no card: on its speech it
// suspects the next seat round the table but the victim (once a floor) and,
// when one candidate stands, nominates a second; it votes for the first
// candidate from seats 1 to 5 and for the second from the others; at night,
// from round 2, whoever may kill or shoot takes seat victim. Its public
// acts are then the same whatever the deal.
type puppet struct {
	victim engine.Seat
	said   uint32 // the step of its last suspicion, plus one
}

func (p *puppet) Act(v *engine.View) (engine.Command, bool) {
	switch v.Phase {
	case engine.PhaseNight:
		for _, verb := range []engine.Verb{engine.Kill, engine.Shoot} {
			if v.Targets(verb).Has(p.victim) {
				return engine.Command{Verb: verb, By: v.Seat, Target: p.victim}, true
			}
		}
	case engine.PhaseSpeech:
		if v.Speaker != v.Seat {
			break
		}
		if p.said != v.Step+1 {
			next := v.Seat%engine.Seat(v.Players) + 1
			if next == p.victim { // nobody accuses the victim
				next = next%engine.Seat(v.Players) + 1
			}
			if v.Targets(engine.Suspect).Has(next) {
				p.said = v.Step + 1
				return engine.Command{Verb: engine.Suspect, By: v.Seat, Target: next}, true
			}
		}
		if v.NumCandidates == 1 {
			if t := v.Targets(engine.Nominate).Without(p.victim); t != 0 {
				return engine.Command{Verb: engine.Nominate, By: v.Seat, Target: t.First()}, true
			}
		}
	default: // a vote, the first or the tie's
		if v.NumCandidates == 2 {
			c := v.Candidates[0]
			if v.Seat > 5 {
				c = v.Candidates[1]
			}
			if v.Targets(engine.Vote).Has(c) {
				return engine.Command{Verb: engine.Vote, By: v.Seat, Target: c}, true
			}
		}
	}
	return engine.Command{}, false
}

// TestExpert_TheBestMoveIsTheSameWhateverTheHiddenCards: seat 4, a citizen
// Expert, hears a day of suspicions (a meeting first night), then the
// night takes it; the nine other seats are puppets whose acts read no card.
// Over eight deals that share seat 4's card and differ in every hidden
// card, seat 4's view is the same, and so is its best move.
func TestExpert_TheBestMoveIsTheSameWhateverTheHiddenCards(t *testing.T) {
	const victim = engine.Seat(4)
	rules := engine.DefaultRules()
	rules.FirstNight = engine.FirstNightMeeting
	rules.SecondTie = engine.SecondTieNobody // the puppets' votes tie the day: nobody leaves
	setup, err := engine.Preset(10)
	if err != nil {
		t.Fatal(err)
	}
	var first engine.SeatSet
	deals := map[string]bool{}
	for i := uint64(0); i < 8; i++ {
		deal := setup.Deal(rng.Derive(0xdea1, i), nil)
		for s := range deal { // seat 4 a citizen in every deal
			if deal[s] == engine.Citizen {
				deal[s], deal[victim-1] = deal[victim-1], deal[s]
				break
			}
		}
		deals[fmt.Sprint(deal)] = true
		g, start, err := engine.New(rules, deal, 7)
		if err != nil {
			t.Fatal(err)
		}
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, 11)}
		for s := engine.Seat(1); s <= 10; s++ {
			tb.Bots[s] = &puppet{victim: victim}
		}
		tb.Bots[victim] = bot.NewExpert(99)
		var guess engine.SeatSet
		tb.OnEvents = func(_ engine.Command, evs []engine.Event) {
			for _, e := range evs {
				if e.Kind == engine.EvStatement && e.Verb == engine.BestMove && e.Actor == victim {
					guess = e.Set
				}
			}
		}
		tb.OnRefused = func(c engine.Command, err error) { t.Fatalf("deal %v: %+v refused: %v", deal, c, err) }
		tb.Begin(start)
		for guess == 0 && tb.Step() {
		}
		if guess == 0 {
			t.Fatalf("deal %v: seat %d made no best move (phase %s, round %d, alive %v, victims %v)", deal, victim, g.Phase(), g.Round(), g.ViewFor(0).Alive.Seats(), g.ViewFor(victim).Victims.Seats())
		}
		if i == 0 {
			first = guess
			t.Logf("seat %d's best move: %v", victim, guess.Seats())
		} else if guess != first {
			t.Fatalf("deal %v: seat %d's best move %v, with another deal %v: it read a hidden card", deal, victim, guess.Seats(), first.Seats())
		}
	}
	if len(deals) < 6 {
		t.Fatalf("only %d different deals", len(deals))
	}
}
