package bot_test

import (
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// The Smart bot's talk (talk.go), over seeded games of smart bots on every
// seat: the Detective claims once it has found a mafioso and reports its
// checks as it got them; nobody else of the town says a word it could not
// know; the mafia's only lie is a counter-claim, now and then; and the town
// reads a believed Detective's report into its vote.

// talkGame is one smart game's record: the deal, the true check answers,
// and every statement with what its speaker knew when making it.
type talkGame struct {
	deal   []engine.Role
	checks [engine.MaxSeats + 1][engine.MaxSeats + 1]engine.Result // the Detective's answers so far
	said   []engine.Event
	knew   [][engine.MaxSeats + 1]engine.Result // the speaker's own check answers at each statement
	votes  map[engine.Seat]int                  // votes cast for a seat reported as mafia by the Detective
	cast   int                                  // votes cast by the town after such a report
}

func playTalkGame(t *testing.T, i int, rules engine.Ruleset) talkGame {
	t.Helper()
	seed := rng.Derive(0x74616c6b, uint64(i))
	setup, _ := engine.Preset(11)
	tg := talkGame{deal: setup.Deal(seed, nil), votes: map[engine.Seat]int{}}
	g, start, err := engine.New(rules, tg.deal, seed)
	if err != nil {
		t.Fatal(err)
	}
	tb := &bot.Table{Game: g, Bots: make([]bot.Bot, 12)}
	for s := 1; s <= 11; s++ {
		tb.Bots[s] = bot.NewSmart(rng.Derive(seed, uint64(s)))
	}
	reported := engine.SeatSet(0) // seats the true Detective reported as mafia
	tb.OnRefused = func(c engine.Command, err error) {
		t.Fatalf("game %d: seat %d (%s) chose %s, refused: %v", i, c.By, tg.deal[c.By-1], c.Verb, err)
	}
	tb.OnEvents = func(c engine.Command, evs []engine.Event) {
		for _, e := range evs {
			switch e.Kind {
			case engine.EvChecked:
				tg.checks[e.Actor][e.Target] = e.Result
			case engine.EvStatement:
				tg.said = append(tg.said, e)
				tg.knew = append(tg.knew, tg.checks[e.Actor])
				if tg.deal[e.Actor-1] == engine.Detective && e.Verb == engine.Report && e.Result == engine.ResultMafia {
					reported = reported.With(e.Target)
				}
			case engine.EvVoteCast:
				if r := tg.deal[e.Actor-1]; r.Team() == engine.TeamTown && reported != 0 && g.Candidates() != nil {
					for _, cand := range g.Candidates() {
						if reported.Has(cand) && g.Alive().Has(cand) {
							tg.cast++
							if reported.Has(e.Target) {
								tg.votes[e.Target]++
							}
							break
						}
					}
				}
			}
		}
	}
	tb.Begin(start)
	if !tb.Play(100000) {
		t.Fatalf("game %d did not end", i)
	}
	return tg
}

func TestSmartTalk_OnlyTheDetectiveReportsAndItsReportsAreItsChecks(t *testing.T) {
	claims, reports, counters, opinions, bestMoves := 0, 0, 0, 0, 0
	for i := 0; i < 1000; i++ {
		tg := playTalkGame(t, i, engine.DefaultRules())
		for j, e := range tg.said {
			role := tg.deal[e.Actor-1]
			switch {
			case e.Verb == engine.BestMove:
				// the first night's victim's guess (the engine checks who and
				// when); a mafioso's never names a partner
				bestMoves++
				if e.Set.Len() != engine.GuessSize || e.Set.Has(e.Actor) {
					t.Errorf("game %d: seat %d's best move names %v", i, e.Actor, e.Set.Seats())
				}
				for _, s := range e.Set.Seats() {
					if role.IsMafia() && tg.deal[s-1].IsMafia() {
						t.Errorf("game %d: mafioso %d's best move names partner %d", i, e.Actor, s)
					}
				}
			case e.Verb == engine.Suspect || e.Verb == engine.Vouch || e.Verb == engine.WillNominate:
				// an opinion, anyone's (opinion.go); a mafioso's never of a partner
				opinions++
				if role.IsMafia() && tg.deal[e.Target-1].IsMafia() {
					t.Errorf("game %d: mafioso %d said %s %d (%s)", i, e.Actor, e.Verb, e.Target, tg.deal[e.Target-1])
				}
			case role == engine.Detective:
				switch e.Verb {
				case engine.Claim:
					if e.Role != engine.Detective {
						t.Errorf("game %d: the Detective claimed %s", i, e.Role)
					}
					claims++
				case engine.Report:
					if got := tg.knew[j][e.Target]; got != e.Result {
						t.Errorf("game %d: the Detective reported seat %d as %s, its check said %s", i, e.Target, e.Result, got)
					}
					reports++
				default:
					t.Errorf("game %d: the Detective said %s", i, e.Verb)
				}
			case role.IsMafia():
				// a counter-claim, and its report of a claimant
				if e.Verb == engine.Claim && e.Role == engine.Detective {
					counters++
				} else if e.Verb != engine.Report || e.Result != engine.ResultMafia {
					t.Errorf("game %d: mafioso %d said %s %s", i, e.Actor, e.Verb, e.Result)
				}
			default:
				// a citizen, the doctor, the maniac: no claim or report, which it could not know
				t.Errorf("game %d: seat %d (%s) said %s", i, e.Actor, role, e.Verb)
			}
		}
	}
	t.Logf("1000 games: %d Detective claims, %d reports, %d counter-claims, %d opinions, %d best moves", claims, reports, counters, opinions, bestMoves)
	if bestMoves < 100 {
		t.Errorf("%d best moves in 1000 games: the first night's victims hardly make theirs", bestMoves)
	}
	if opinions > 1000*12 {
		t.Errorf("%d opinions in 1000 games: more than a dozen a game is not sparing", opinions)
	}
	if claims < 100 || reports < claims || counters == 0 {
		t.Fatalf("the bots hardly talk: %d claims, %d reports, %d counter-claims", claims, reports, counters)
	}
}

func TestSmartTalk_TheDetectiveClaimsOnceItFoundAMafioso(t *testing.T) {
	checked := 0
	for i := 0; i < 500; i++ {
		seed := rng.Derive(0x666f756e64, uint64(i))
		setup, _ := engine.Preset(9)
		deal := setup.Deal(seed, nil)
		g, start, _ := engine.New(engine.DefaultRules(), deal, seed)
		det := engine.Seat(0)
		for s, r := range deal {
			if r == engine.Detective {
				det = engine.Seat(s + 1)
			}
		}
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, 10)}
		for s := 1; s <= 9; s++ {
			tb.Bots[s] = bot.NewSmart(rng.Derive(seed, uint64(s)))
		}
		found := engine.Seat(0) // a mafioso the Detective found on night 1
		claimed, reportedFound := false, false
		tb.OnEvents = func(c engine.Command, evs []engine.Event) {
			for _, e := range evs {
				switch {
				case e.Kind == engine.EvChecked && e.Actor == det && e.Round == 1 && e.Result == engine.ResultMafia:
					found = e.Target
				case e.Kind == engine.EvStatement && e.Actor == det && e.Round == 1:
					claimed = claimed || e.Verb == engine.Claim && e.Role == engine.Detective
					reportedFound = reportedFound || e.Verb == engine.Report && e.Target == found && e.Result == engine.ResultMafia
				}
			}
		}
		tb.Begin(start)
		// night 1, then day 1 up to its vote
		for tb.Step() && g.Round() == 1 && g.Phase() != engine.PhaseVote {
		}
		if found == 0 || !aliveOnDay1(g, det) {
			continue
		}
		checked++
		if !claimed || !reportedFound {
			t.Errorf("game %d: the Detective (seat %d) found seat %d on night 1 and on day 1 claimed %v, reported it %v", i, det, found, claimed, reportedFound)
		}
	}
	if checked < 50 {
		t.Fatalf("only %d games where the Detective found a mafioso on night 1 and spoke on day 1", checked)
	}
}

// aliveOnDay1 reports whether seat s had a floor on day 1: it said
// something then (its last words after night 1 too), or it is alive.
func aliveOnDay1(g *engine.Game, s engine.Seat) bool {
	v := g.SpectatorView()
	d := v.Talk.Day(1)
	for i := 0; i < d.Len(); i++ {
		if d.At(i).By == s {
			return true
		}
	}
	return g.Alive().Has(s)
}

func TestSmartTalk_TheTownVotesTheReportedMafioso(t *testing.T) {
	cast, forIt := 0, 0
	for i := 0; i < 500; i++ {
		tg := playTalkGame(t, i, engine.DefaultRules())
		cast += tg.cast
		for _, n := range tg.votes {
			forIt += n
		}
	}
	if cast < 200 {
		t.Fatalf("only %d town votes in a vote with a reported mafioso", cast)
	}
	share := float64(forIt) / float64(cast)
	t.Logf("town votes with a reported mafioso among the candidates: %d, for it: %.0f%%", cast, 100*share)
	if share < 0.6 {
		t.Fatalf("the town voted for the mafioso its Detective reported in only %.0f%% of its votes", 100*share)
	}
}

// citizenAt7 is a Smart bot at seat 7 (a citizen) of a 9-seat table under
// rules, shown the deal.
func citizenAt7(rules engine.Ruleset) *bot.Smart {
	b := bot.NewSmart(1)
	e := engine.Event{Kind: engine.EvGameStarted, Count: 9, Rules: rules}
	e.SetRoleOf(7, engine.Citizen)
	b.See(7, []engine.Event{e, {Kind: engine.EvNightBegan, Round: 1}, {Kind: engine.EvNightEnded, Round: 1},
		{Kind: engine.EvDayBegan, Round: 1, Actor: 1}})
	return b
}

// voteOf is the bot's vote between candidates a and b (a nominated first).
func voteOf(b *bot.Smart, alive engine.SeatSet, rules engine.Ruleset, a, c engine.Seat) engine.Seat {
	begin := engine.Event{Kind: engine.EvVoteBegan, Round: 1, Phase: engine.PhaseVote, Count: 2}
	begin.SetListAt(0, a)
	begin.SetListAt(1, c)
	b.See(7, []engine.Event{begin})
	v := engine.View{Seat: 7, Players: 9, Rules: rules, Phase: engine.PhaseVote, Round: 1, Step: 5, Alive: alive,
		NumCandidates: 2, Role: engine.Citizen}
	v.Candidates[0], v.Candidates[1] = a, c
	v.Roles[7], v.Teams[7] = engine.Citizen, engine.TeamTown
	cmd, ok := b.Act(&v)
	if !ok || cmd.Verb != engine.Vote {
		return 0
	}
	return cmd.Target
}

func said(by engine.Seat, verb engine.Verb, target engine.Seat, role engine.Role, r engine.Result) engine.Event {
	return engine.Event{Kind: engine.EvStatement, Round: 1, Phase: engine.PhaseSpeech, Actor: by, Verb: verb, Target: target, Role: role, Result: r}
}

// TestSmartTalk_ABelievedReportIsVotedAndAContradictedOneIsNot: a citizen
// bot votes the seat a claimed Detective reported as mafia; once the facts
// show the claimant lied (his card revealed a citizen's), his report no
// longer moves the vote, and the liar himself is the suspect.
func TestSmartTalk_ABelievedReportIsVotedAndAContradictedOneIsNot(t *testing.T) {
	rules := engine.DefaultRules()
	_ = rules.Set("reveal_on_death", "role")
	all := engine.SetOf(1, 2, 3, 4, 5, 6, 7, 8, 9)
	talk := []engine.Event{said(3, engine.Claim, 0, engine.Detective, 0), said(3, engine.Report, 5, 0, engine.ResultMafia)}
	for _, first := range []engine.Seat{5, 6} {
		other := engine.Seat(11) - first
		b := citizenAt7(rules)
		b.See(7, talk)
		if got := voteOf(b, all, rules, first, other); got != 5 {
			t.Errorf("with seat 3's report of seat 5, the citizen votes %d of [%d %d], want 5", got, first, other)
		}
	}
	// seat 3 leaves, and his card is a citizen's: he lied
	b := citizenAt7(rules)
	b.See(7, talk)
	b.See(7, []engine.Event{{Kind: engine.EvPlayerOut, Round: 1, Target: 3, Cause: engine.CauseFouls, Role: engine.Citizen, Team: engine.TeamTown}})
	if got := voteOf(b, all.Without(3), rules, 5, 6); got == 5 {
		t.Errorf("after seat 3's claim was shown false, the citizen still votes the seat he reported")
	}
	// the liar is the suspect: seat 3 reported seat 5 as mafia, and seat
	// 5's card shows a citizen; between seat 2 and seat 3, seat 3
	b = citizenAt7(rules)
	b.See(7, []engine.Event{said(3, engine.Claim, 0, engine.Detective, 0), said(3, engine.Report, 5, 0, engine.ResultMafia)})
	b.See(7, []engine.Event{{Kind: engine.EvPlayerOut, Round: 1, Target: 5, Cause: engine.CauseFouls, Role: engine.Citizen, Team: engine.TeamTown}})
	if got := voteOf(b, all.Without(5), rules, 2, 3); got != 3 {
		t.Errorf("seat 3 reported a citizen as mafia; between 2 and 3 the citizen votes %d, want 3", got)
	}
}

// TestSmartTalk_TwoClaimsTheNightDecides: two seats claim the Detective and
// report each other; the bot believes neither until the night takes one of
// them (the killers believed him): then the other is the liar.
func TestSmartTalk_TwoClaimsTheNightDecides(t *testing.T) {
	rules := engine.DefaultRules()
	all := engine.SetOf(1, 2, 3, 4, 5, 6, 7, 8, 9)
	b := citizenAt7(rules)
	b.See(7, []engine.Event{
		said(3, engine.Claim, 0, engine.Detective, 0), said(3, engine.Report, 5, 0, engine.ResultMafia),
		said(5, engine.Claim, 0, engine.Detective, 0), said(5, engine.Report, 3, 0, engine.ResultMafia),
	})
	// the first to claim is believed, a little
	if got := voteOf(b, all, rules, 3, 5); got != 5 {
		t.Errorf("between two claimants the citizen votes %d, want the later one, 5", got)
	}
	b = citizenAt7(rules)
	b.See(7, []engine.Event{
		said(3, engine.Claim, 0, engine.Detective, 0), said(3, engine.Report, 5, 0, engine.ResultMafia),
		said(5, engine.Claim, 0, engine.Detective, 0), said(5, engine.Report, 3, 0, engine.ResultMafia),
		{Kind: engine.EvNightBegan, Round: 2}, {Kind: engine.EvNightEnded, Round: 2, Set: engine.SetOf(5)},
		{Kind: engine.EvPlayerOut, Round: 2, Target: 5, Cause: engine.CauseNight},
		{Kind: engine.EvDayBegan, Round: 2, Actor: 2},
	})
	if got := voteOf(b, all.Without(5), rules, 3, 4); got != 3 {
		t.Errorf("the night took seat 5, whom seat 3 reported; between 3 and 4 the citizen votes %d, want 3", got)
	}
}
