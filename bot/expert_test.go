package bot_test

import (
	"fmt"
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// The expert level against one lie: a mafioso who claims the Detective on
// day 1 and reports a town seat as mafia. The real Detective counter-claims
// on its next floor, the town does not vote him out, and the lie does not
// pay.

// faker plays a seat as Inner does, except that on its first floor of day
// 1 it claims the Detective and reports Accuse as mafia.
type faker struct {
	Inner  bot.Bot
	Accuse engine.Seat
	said   int
}

func (f *faker) See(seat engine.Seat, evs []engine.Event) {
	if o, ok := f.Inner.(bot.Observer); ok {
		o.See(seat, evs)
	}
}

func (f *faker) Act(v *engine.View) (engine.Command, bool) {
	if v.Phase.Timed() && v.Speaker == v.Seat && v.Round == 1 && f.said < 2 {
		f.said++
		if f.said == 1 {
			return engine.Command{Verb: engine.Claim, By: v.Seat, Role: engine.Detective}, true
		}
		return engine.Command{Verb: engine.Report, By: v.Seat, Target: f.Accuse, Result: engine.ResultMafia}, true
	}
	return f.Inner.Act(v)
}

// fakeDeal: seat 1 a mafioso (the liar, who speaks first on day 1), seat 5
// the Detective, seat 3 the citizen he accuses.
var fakeDeal = []engine.Role{engine.Mafioso, engine.Citizen, engine.Citizen, engine.Don, engine.Detective,
	engine.Doctor, engine.Citizen, engine.Mafioso, engine.Citizen, engine.Maniac, engine.Citizen}

func TestExpert_TheDetectiveCounterClaimsALiarOnItsNextFloorAndTheTownKeepsHim(t *testing.T) {
	const games = 40
	const det = engine.Seat(5)
	detOut := 0
	for i := 0; i < games; i++ {
		seed := rng.Derive(0xfa4e, uint64(i))
		g, start, err := engine.New(engine.DefaultRules(), fakeDeal, seed)
		if err != nil {
			t.Fatal(err)
		}
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, 12)}
		for s := 1; s <= 11; s++ {
			tb.Bots[s] = bot.NewExpert(rng.Derive(seed, uint64(s)))
		}
		tb.Bots[1] = &faker{Inner: tb.Bots[1], Accuse: 3}
		lied, floors, countered, onFloor := false, 0, false, false
		tb.OnEvents = func(c engine.Command, evs []engine.Event) {
			for _, e := range evs {
				if e.Kind.BeginsStep() {
					if onFloor && !countered {
						t.Errorf("game %d: the Detective held a floor after the false claim and did not counter-claim on it", i)
					}
					onFloor = false
					switch e.Kind {
					case engine.EvSpeech, engine.EvDefence, engine.EvTieSpeech, engine.EvLastWords:
						if lied && e.Target == det && !countered {
							onFloor = true
							floors++
						}
					}
				}
				switch {
				case e.Kind == engine.EvStatement && e.Actor == 1 && e.Verb == engine.Claim:
					lied = true
				case e.Kind == engine.EvStatement && e.Actor == det && e.Verb == engine.Claim && e.Role == engine.Detective:
					countered = true
				case e.Kind == engine.EvPlayerOut && e.Target == det && e.Round == 1 && (e.Cause == engine.CauseVote || e.Cause == engine.CauseAll):
					detOut++
				}
			}
		}
		tb.OnRefused = func(c engine.Command, err error) { t.Fatalf("game %d: %v refused: %v", i, c, err) }
		tb.Begin(start)
		if !tb.Play(100000) {
			t.Fatalf("game %d did not end", i)
		}
		if !lied {
			t.Fatalf("game %d: the liar never claimed", i)
		}
		if floors == 0 && g.Alive().Has(det) {
			t.Errorf("game %d: the Detective, alive, never held a floor after the false claim", i)
		}
	}
	if detOut*5 > games {
		t.Fatalf("the town voted the real Detective out on day 1 in %d of %d games after one false claim", detOut, games)
	}
	t.Logf("the Detective voted out on day 1 in %d of %d games", detOut, games)
}

// TestExpert_AFalseClaimDoesNotPay: the same seat (a mafioso) played with
// the day-1 lie wins no more than 10 points above the same seat played
// honestly, with the expert level everywhere else, on the same seeds.
func TestExpert_AFalseClaimDoesNotPay(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 120
	}
	play := func(lie bool) int {
		wins := 0
		setup, _ := engine.Preset(11)
		for i := 0; i < games; i++ {
			seed := rng.Derive(0x11e, uint64(i))
			deal := setup.Deal(seed, nil)
			g, start, err := engine.New(engine.DefaultRules(), deal, seed)
			if err != nil {
				t.Fatal(err)
			}
			tb := &bot.Table{Game: g, Bots: make([]bot.Bot, 12)}
			liar, victim := engine.Seat(0), engine.Seat(0)
			for s := 1; s <= 11; s++ {
				tb.Bots[s] = bot.NewExpert(rng.Derive(seed, uint64(s)))
				if deal[s-1].IsMafia() && liar == 0 {
					liar = engine.Seat(s)
				}
			}
			for s := 1; s <= 11; s++ {
				if deal[s-1].Team() == engine.TeamTown && victim == 0 && s > i%11 {
					victim = engine.Seat(s)
				}
			}
			if victim == 0 {
				victim = engine.Seat(deal2town(deal))
			}
			if lie {
				tb.Bots[liar] = &faker{Inner: tb.Bots[liar], Accuse: victim}
			}
			tb.OnRefused = func(c engine.Command, err error) { t.Fatalf("game %d: %v refused: %v", i, c, err) }
			tb.Begin(start)
			if !tb.Play(100000) {
				t.Fatalf("game %d did not end", i)
			}
			if g.Winner() == engine.WinnerMafia {
				wins++
			}
		}
		return wins
	}
	honest, liar := play(false), play(true)
	hp, lp := float64(honest)/float64(games), float64(liar)/float64(games)
	t.Logf("mafia wins over %d games: honest %.1f%%, with the day-1 false claim %.1f%%", games, 100*hp, 100*lp)
	if lp > hp+0.10 {
		t.Fatal(fmt.Sprintf("the false claim won %.1f%%, the honest seat %.1f%%: more than 10 points above", 100*lp, 100*hp))
	}
}

func deal2town(deal []engine.Role) int {
	for i, r := range deal {
		if r.Team() == engine.TeamTown {
			return i + 1
		}
	}
	return 1
}

// TestExpert_NoSeatContradictsItselfInADay: over seeded games of 5 to 11
// players under random house rules, with expert bots on every seat, no
// seat accuses a seat (suspect, will_nominate, a "mafia" report) and clears
// it (vouch, a "not mafia" report) in one day, and none reports a seat
// twice.
func TestExpert_NoSeatContradictsItselfInADay(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 300
	}
	said := 0
	for i := 0; i < games; i++ {
		lg := newLegalGame(i)
		g, start, err := engine.New(lg.rules, lg.deal, lg.seed)
		if err != nil {
			t.Fatal(err)
		}
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, lg.players+1)}
		for s := 1; s <= lg.players; s++ {
			tb.Bots[s] = bot.NewExpert(rng.Derive(lg.seed, uint64(s)))
		}
		var accused, cleared [engine.MaxSeats + 1]engine.SeatSet
		var reported [engine.MaxSeats + 1]engine.SeatSet
		day := uint16(0)
		tb.OnEvents = func(_ engine.Command, evs []engine.Event) {
			for _, e := range evs {
				if e.Kind != engine.EvStatement {
					continue
				}
				if e.Round != day {
					day, accused, cleared = e.Round, [engine.MaxSeats + 1]engine.SeatSet{}, [engine.MaxSeats + 1]engine.SeatSet{}
				}
				said++
				by, x := e.Actor, e.Target
				switch e.Verb {
				case engine.Suspect, engine.WillNominate:
					accused[by] = accused[by].With(x)
				case engine.Vouch:
					cleared[by] = cleared[by].With(x)
				case engine.Report:
					if reported[by].Has(x) {
						t.Errorf("%s: seat %d reported seat %d twice", lg.name, by, x)
					}
					reported[by] = reported[by].With(x)
					if e.Result == engine.ResultNotMafia {
						cleared[by] = cleared[by].With(x)
					} else {
						accused[by] = accused[by].With(x)
					}
				}
				if both := accused[by] & cleared[by]; both != 0 {
					t.Fatalf("%s: on day %d seat %d (%s) accused and cleared seat(s) %v", lg.name, day, by, lg.deal[by-1], both.Seats())
				}
			}
		}
		tb.Begin(start)
		if !tb.Play(100000) {
			t.Fatalf("%s: the game did not end", lg.name)
		}
	}
	if said < games {
		t.Fatalf("only %d statements in %d games", said, games)
	}
}

// TestExpert_LinesNeverSayWhatTheSpeakerCannotKnow: the rules of
// docs/bots.md ("What a line may say") over seeded games with expert bots
// on every seat, asked for their lines as a server asks; and asking for
// them changes no move.
func TestExpert_LinesNeverSayWhatTheSpeakerCannotKnow(t *testing.T) {
	games := 1500
	if testing.Short() {
		games = 300
	}
	kinds := map[bot.LineKind]int{}
	for i := 0; i < games; i++ {
		lg := newLegalGame(i)
		var said []spokenLine
		play := func(lines bool) uint64 {
			g, start, err := engine.New(lg.rules, lg.deal, lg.seed)
			if err != nil {
				t.Fatal(err)
			}
			tb := &bot.Table{Game: g, Bots: make([]bot.Bot, lg.players+1)}
			for s := 1; s <= lg.players; s++ {
				tb.Bots[s] = bot.NewExpert(rng.Derive(lg.seed, uint64(s)))
			}
			digest := uint64(0xcbf29ce484222325)
			tb.OnEvents = func(_ engine.Command, evs []engine.Event) {
				for _, e := range evs {
					for _, x := range []uint64{uint64(e.Kind), uint64(e.Actor), uint64(e.Target), uint64(e.Verb), uint64(e.Round)} {
						digest = (digest ^ x) * 0x100000001b3
					}
				}
			}
			if lines {
				tb.OnLine = func(s engine.Seat, l bot.Line) {
					said = append(said, spokenLine{seat: s, line: l, view: g.ViewFor(s)})
				}
			}
			tb.Begin(start)
			if !tb.Play(100000) {
				t.Fatalf("game %d did not end", i)
			}
			return digest
		}
		with := play(true)
		if i%5 == 0 {
			if without := play(false); without != with {
				t.Fatalf("game %d: asking for lines changed the game", i)
			}
		}
		for _, sl := range said {
			if p := lineProblem(lg.deal, sl); p != "" {
				t.Fatalf("game %d: seat %d (%s) in %s of round %d said %+v: %s", i, sl.seat, lg.deal[sl.seat-1], sl.view.Phase, sl.view.Round, sl.line, p)
			}
			kinds[sl.line.Kind]++
		}
	}
	t.Logf("%d games: %v", games, kinds)
}

// TestExpert_PlaysCustomTablesLegally: custom setups of 6 to 20 seats (the
// worlds sampled beyond 2,048, and a setup unlike its size's preset found
// out) under random house rules: no command an expert bot chooses is
// refused, and every game ends.
func TestExpert_PlaysCustomTablesLegally(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 20
	}
	for i := 0; i < games; i++ {
		seed := rng.Derive(0xc057, uint64(i))
		src := rng.New(seed)
		n := 6 + src.Intn(15)
		mafia := 1 + src.Intn(max(1, (n-1)/3))
		setup := engine.Setup{Don: src.Intn(2), Maniac: src.Intn(2), Detective: src.Intn(2), Doctor: src.Intn(2)}
		setup.Mafia = mafia - setup.Don
		if setup.Mafia < 0 {
			setup.Mafia = 0
		}
		setup.Citizens = n - setup.Players()
		if _, err := setup.Validate(); err != nil || setup.Citizens < 0 {
			continue
		}
		rules := engine.RandomRules(&src)
		deal := setup.Deal(seed, nil)
		g, start, err := engine.New(rules, deal, seed)
		if err != nil {
			t.Fatal(err)
		}
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, n+1)}
		for s := 1; s <= n; s++ {
			tb.Bots[s] = bot.NewExpert(rng.Derive(seed, uint64(s)))
		}
		tb.OnRefused = func(c engine.Command, err error) {
			t.Fatalf("game %d (%d seats, %+v): seat %d (%s) chose %s %d, refused: %v", i, n, setup, c.By, deal[c.By-1], c.Verb, c.Target, err)
		}
		tb.Begin(start)
		if !tb.Play(100000) {
			t.Fatalf("game %d (%d seats) did not end", i, n)
		}
	}
}
