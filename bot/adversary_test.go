package bot_test

import (
	"errors"
	"fmt"
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// The scripted adversaries play legally, replay from their seeds, and do
// their trick: the fake Detective claims on its first floor and reports a
// town seat each day, the counter-claimer answers every claim at its next
// floor, the late claimer claims only once a claimer has left, the
// follower votes the latest claimer's report.

func adversaryGames() int {
	if testing.Short() {
		return 1500
	}
	return 15000
}

// advGame is one seeded game with an adversary at the first seat of a card.
type advGame struct {
	legalGame
	place bot.Placement
	seat  engine.Seat // 0: the deal has no such card
	inner bot.Level
}

func newAdvGame(i int) advGame {
	lg := newLegalGame(i)
	src := rng.New(rng.Derive(lg.seed, 0xadd))
	all, _ := bot.ParsePlacements("all")
	ag := advGame{legalGame: lg, place: all[src.Intn(len(all))]}
	levels := bot.Levels()
	ag.inner, _ = bot.ParseLevel(levels[src.Intn(len(levels))])
	for s, r := range lg.deal {
		if r == ag.place.Card {
			ag.seat = engine.Seat(s + 1)
			break
		}
	}
	ag.name = fmt.Sprintf("%s, %s around %s at seat %d", lg.name, ag.place, ag.inner, ag.seat)
	return ag
}

// play plays the game, failing t on a refused command; it returns a digest
// of every event and the statements made.
func (ag advGame) play(t *testing.T) (digest uint64, talk engine.Talk, g *engine.Game) {
	g, start, err := engine.New(ag.rules, ag.deal, ag.seed)
	if err != nil {
		t.Fatalf("%s: %v", ag.name, err)
	}
	tb := &bot.Table{Game: g, Bots: make([]bot.Bot, ag.players+1)}
	for s := 1; s <= ag.players; s++ {
		seed := rng.Derive(ag.seed, uint64(s))
		tb.Bots[s] = ag.mix.For(ag.deal[s-1]).New(seed)
		if engine.Seat(s) == ag.seat {
			tb.Bots[s] = bot.NewAdversary(ag.place.Level, ag.inner.New(seed), seed)
		}
	}
	digest = 0xcbf29ce484222325
	fold := func(evs []engine.Event) {
		for _, e := range evs {
			for _, x := range []uint64{uint64(e.Kind), uint64(e.Actor), uint64(e.Target), uint64(e.Set), uint64(e.Verb), uint64(e.Round)} {
				digest = (digest ^ x) * 0x100000001b3
			}
		}
	}
	fold(start)
	tb.OnEvents = func(_ engine.Command, evs []engine.Event) { fold(evs) }
	tb.OnRefused = func(c engine.Command, err error) {
		t.Fatalf("%s: seat %d (%s) chose %s %d from its view, which the engine refused: %v", ag.name, c.By, ag.deal[c.By-1], c.Verb, c.Target, err)
	}
	tb.Begin(start)
	if !tb.Play(100000) {
		t.Fatalf("%s: the game did not end", ag.name)
	}
	v := g.SpectatorView()
	return digest, v.Talk, g
}

func TestAdversaries_PlayLegallyAndReplayFromTheirSeeds(t *testing.T) {
	t.Parallel()
	seated := map[string]int{}
	for i := 0; i < adversaryGames(); i++ {
		ag := newAdvGame(i)
		d, _, _ := ag.play(t)
		if i%10 == 0 {
			if d2, _, _ := ag.play(t); d2 != d {
				t.Fatalf("%s: played twice from the same seed, digests %#x and %#x", ag.name, d, d2)
			}
		}
		if ag.seat != 0 {
			seated[ag.place.String()]++
		}
	}
	all, _ := bot.ParsePlacements("all")
	for _, p := range all {
		if seated[p.String()] == 0 {
			t.Errorf("no game seated %s: the draw is broken", p)
		}
	}
}

// statementsBy returns seat s's statements.
func statementsBy(talk engine.Talk, s engine.Seat) []engine.Statement {
	var out []engine.Statement
	for i := 0; i < talk.Len(); i++ {
		if st := talk.At(i); st.By == s {
			out = append(out, st)
		}
	}
	return out
}

// seededAdvGames plays every game of the first n whose adversary is at the
// given placement among Smart bots, and calls check with it.
func seededAdvGames(t *testing.T, n int, place string, check func(ag advGame, talk engine.Talk, g *engine.Game)) int {
	want, err := bot.ParsePlacements(place)
	if err != nil {
		t.Fatal(err)
	}
	played := 0
	for i := 0; i < n; i++ {
		ag := newAdvGame(i)
		ag.place, ag.inner, ag.mix = want[0], bot.LevelSmart, bot.MixOf(bot.LevelSmart)
		ag.seat = 0
		for s, r := range ag.deal {
			if r == ag.place.Card {
				ag.seat = engine.Seat(s + 1)
				break
			}
		}
		if ag.seat == 0 {
			continue
		}
		_, talk, g := ag.play(t)
		check(ag, talk, g)
		played++
	}
	return played
}

func TestFakeDet_ClaimsOnItsFirstFloorAndReportsATownSeatEachDay(t *testing.T) {
	games := seededAdvGames(t, 300, "fakedet@mafia", func(ag advGame, talk engine.Talk, g *engine.Game) {
		mine := statementsBy(talk, ag.seat)
		if len(mine) == 0 {
			return // it never had a floor
		}
		if c := mine[0]; c.Verb != engine.Claim || c.Role != engine.Detective {
			t.Fatalf("%s: its first statement is %+v, not the Detective's claim", ag.name, c)
		}
		days := map[uint16]bool{}
		for _, st := range mine {
			if st.Verb == engine.Report && st.Result == engine.ResultMafia {
				days[st.Round] = true
				if r := ag.deal[st.Target-1]; r.IsMafia() {
					t.Fatalf("%s: it reported its partner %d as mafia", ag.name, st.Target)
				}
			}
		}
		for _, st := range mine {
			if !days[st.Round] && st.Phase == engine.PhaseSpeech {
				t.Fatalf("%s: no mafia report on its floor of day %d", ag.name, st.Round)
			}
		}
	})
	if games < 100 {
		t.Fatalf("only %d games seated the fake Detective", games)
	}
}

func TestCounterClaim_ClaimsAtItsNextFloorAndReportsTheClaimer(t *testing.T) {
	answered := 0
	seededAdvGames(t, 600, "counterclaim@mafia", func(ag advGame, talk engine.Talk, g *engine.Game) {
		claimed := false
		for i := 0; i < talk.Len(); i++ {
			st := talk.At(i)
			if st.Verb == engine.Claim && st.Role == engine.Detective && st.By != ag.seat && !ag.deal[st.By-1].IsMafia() {
				claimed = true
			}
			if st.By != ag.seat || !claimed {
				continue
			}
			// its first statement after someone's claim is its own claim,
			// and then a mafia report of that claimer
			if st.Verb != engine.Claim || st.Role != engine.Detective {
				t.Fatalf("%s: after another's claim its first statement is %+v", ag.name, st)
			}
			for j := i + 1; j < talk.Len(); j++ {
				if r := talk.At(j); r.By == ag.seat {
					if r.Verb != engine.Report || r.Result != engine.ResultMafia || ag.deal[r.Target-1].IsMafia() {
						t.Fatalf("%s: after its claim it said %+v", ag.name, r)
					}
					break
				}
			}
			answered++
			return
		}
	})
	if answered < 20 {
		t.Fatalf("only %d games saw the counter-claim", answered)
	}
}

func TestFollower_VotesTheLatestClaimersReport(t *testing.T) {
	followed := 0
	// every seat but the follower fakes the Detective: claims and reports abound
	for i := 0; i < 300; i++ {
		ag := newAdvGame(i)
		ag.place, ag.inner, ag.mix = bot.Placement{Level: bot.LevelFollower, Card: engine.Citizen}, bot.LevelSmart, bot.MixOf(bot.LevelFakeDet)
		ag.seat = 0
		for s, r := range ag.deal {
			if r == engine.Citizen {
				ag.seat = engine.Seat(s + 1)
				break
			}
		}
		g, start, err := engine.New(ag.rules, ag.deal, ag.seed)
		if err != nil {
			t.Fatal(err)
		}
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, ag.players+1)}
		for s := 1; s <= ag.players; s++ {
			seed := rng.Derive(ag.seed, uint64(s))
			tb.Bots[s] = ag.mix.For(ag.deal[s-1]).New(seed)
		}
		tb.Bots[ag.seat] = bot.NewAdversary(bot.LevelFollower, bot.NewSmart(1), 1)
		tb.OnEvents = func(c engine.Command, _ []engine.Event) {
			if c.Verb != engine.Vote || c.By != ag.seat {
				return
			}
			v := g.ViewFor(ag.seat)
			want := latestReport(v.Talk, v.Alive)
			if want == 0 {
				return
			}
			if c.Target != want && wasCandidate(g, want, c.Target) {
				t.Fatalf("%s: the follower voted %d, not %d whom the latest claimer reported", ag.name, c.Target, want)
			}
			followed++
		}
		tb.OnRefused = func(c engine.Command, err error) { t.Fatalf("%s: refused %+v: %v", ag.name, c, err) }
		tb.Begin(start)
		tb.Play(100000)
	}
	if followed < 20 {
		t.Fatalf("only %d votes of the follower had a report to follow", followed)
	}
}

// latestReport is the latest living seat the latest Detective claimer
// reported as mafia, or 0.
func latestReport(talk engine.Talk, alive engine.SeatSet) engine.Seat {
	var det engine.Seat
	for i := talk.Len() - 1; i >= 0 && det == 0; i-- {
		if st := talk.At(i); st.Verb == engine.Claim && st.Role == engine.Detective {
			det = st.By
		}
	}
	for i := talk.Len() - 1; i >= 0 && det != 0; i-- {
		if st := talk.At(i); st.By == det && st.Verb == engine.Report && st.Result != engine.ResultNotMafia && alive.Has(st.Target) {
			return st.Target
		}
	}
	return 0
}

// wasCandidate reports whether want was among the candidates when the
// follower voted for got (the vote still open or just closed: the ballot
// names got).
func wasCandidate(g *engine.Game, want, got engine.Seat) bool {
	v := g.SpectatorView()
	return v.IsCandidate(want) && v.IsCandidate(got)
}

func TestParsePlacements_ReadsNameAtCardAndRefusesWithACode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		code engine.Code
	}{
		{in: "fakedet@mafia", want: "[fakedet@mafia]"},
		{in: " counterclaim@don , follower@citizen", want: "[counterclaim@don follower@citizen]"},
		{in: "fakedet", want: "[fakedet@mafia fakedet@don fakedet@maniac]"},
		{in: "all", want: "[fakedet@mafia fakedet@don fakedet@maniac follower@citizen follower@doctor follower@detective counterclaim@mafia counterclaim@don lateclaim@mafia lateclaim@don]"},
		{in: "lateclaim@maniac", code: bot.CodeAdversaryCard},
		{in: "liar@mafia", code: bot.CodeUnknownAdversary},
		{in: "", code: bot.CodeUnknownAdversary},
		{in: "fakedet@citizen", code: bot.CodeAdversaryCard},
		{in: "follower@don", code: bot.CodeAdversaryCard},
		{in: "counterclaim@maniac", code: bot.CodeAdversaryCard},
		{in: "fakedet@joker", code: bot.CodeAdversaryCard},
	} {
		got, err := bot.ParsePlacements(tc.in)
		if tc.code != "" {
			var e *engine.Error
			if !errors.As(err, &e) || e.Code != tc.code {
				t.Errorf("%q: got %v, %v; want the code %s", tc.in, got, err, tc.code)
			}
			continue
		}
		if err != nil || fmt.Sprint(got) != tc.want {
			t.Errorf("%q: got %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

func TestAdversaryLevels_AreNotOfferedForTables(t *testing.T) {
	for _, name := range bot.Adversaries() {
		if _, err := bot.ParseLevel(name); err == nil {
			t.Errorf("ParseLevel took the adversary %q: a table could seat it", name)
		}
		l, err := bot.ParseAdversary(name)
		if err != nil || l.String() != name || !l.IsAdversary() {
			t.Errorf("%q: read as %v (%q), %v", name, l, l.String(), err)
		}
	}
	for _, name := range bot.Levels() {
		if l, _ := bot.ParseLevel(name); l.IsAdversary() {
			t.Errorf("the playing level %q counts as an adversary", name)
		}
	}
}

func TestLateClaim_ClaimsOnlyOnceAClaimerHasLeft(t *testing.T) {
	claimed := 0
	seededAdvGames(t, 600, "lateclaim@mafia", func(ag advGame, talk engine.Talk, g *engine.Game) {
		for i := 0; i < talk.Len(); i++ {
			st := talk.At(i)
			if st.By != ag.seat || st.Verb != engine.Claim {
				continue
			}
			// a claimer before it, other than itself, must have left by then:
			// its claim came after that seat's own claim, and the adversary
			// claims only on a floor where it saw a claimer gone
			other := false
			for j := 0; j < i; j++ {
				if o := talk.At(j); o.Verb == engine.Claim && o.Role == engine.Detective && o.By != ag.seat {
					other = true
				}
			}
			if !other {
				t.Fatalf("%s: it claimed %+v with no earlier claimer", ag.name, st)
			}
			claimed++
			return
		}
	})
	if claimed < 10 {
		t.Fatalf("only %d games saw the late claim", claimed)
	}
}
