package bot_test

import (
	"fmt"
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// A line never says what its speaker's seat does not know (docs/bots.md,
// "What a line may say"): over seeded games of 5 to 11 players under random
// house rules, with smart bots on every seat asked for their lines as a
// server asks them, every line is checked against the true cards and the
// speaker's own view at the moment it spoke.

func lineGames() int {
	if testing.Short() {
		return 500
	}
	return 3000
}

// spokenLine is a line with what its speaker knew when it said it.
type spokenLine struct {
	seat engine.Seat
	line bot.Line
	view engine.View // the speaker's view then (the test holds the game)
}

// playLineGame plays game i with smart bots, asking for their lines, and
// returns them with the deal and a digest of every event.
func playLineGame(t *testing.T, i int, lines bool) (lg legalGame, said []spokenLine, digest uint64) {
	t.Helper()
	lg = newLegalGame(i)
	lg.mix = bot.MixOf(bot.LevelSmart)
	lg.name = fmt.Sprintf("game %d (seed %#x, %d players, options %v)", i, lg.seed, lg.players, lg.rules.Map())
	g, start, err := engine.New(lg.rules, lg.deal, lg.seed)
	if err != nil {
		t.Fatalf("%s: %v", lg.name, err)
	}
	tb := &bot.Table{Game: g, Bots: make([]bot.Bot, lg.players+1)}
	for s := 1; s <= lg.players; s++ {
		tb.Bots[s] = bot.NewSmart(rng.Derive(lg.seed, uint64(s)))
	}
	digest = 0xcbf29ce484222325
	tb.OnEvents = func(_ engine.Command, evs []engine.Event) {
		for _, e := range evs {
			for _, x := range []uint64{uint64(e.Kind), uint64(e.Actor), uint64(e.Target), uint64(e.Verb), uint64(e.Round)} {
				digest = (digest ^ x) * 0x100000001b3
			}
		}
	}
	tb.OnRefused = func(c engine.Command, err error) {
		t.Fatalf("%s: seat %d chose %s %d, refused: %v", lg.name, c.By, c.Verb, c.Target, err)
	}
	if lines {
		tb.OnLine = func(s engine.Seat, l bot.Line) {
			said = append(said, spokenLine{seat: s, line: l, view: g.ViewFor(s)})
		}
	}
	tb.Begin(start)
	if !tb.Play(100000) {
		t.Fatalf("%s: the game did not end", lg.name)
	}
	return lg, said, digest
}

// floorStatements are the statements the speaker of v made on its floor.
func floorStatements(v *engine.View) []engine.Statement {
	var out []engine.Statement
	for i := v.Talk.Len() - int(v.Said); i < v.Talk.Len(); i++ {
		out = append(out, v.Talk.At(i))
	}
	return out
}

// claimedDetective reports whether seat s claimed the Detective in the
// public record of v.
func claimedDetective(v *engine.View, s engine.Seat) bool {
	for i := 0; i < v.Talk.Len(); i++ {
		if st := v.Talk.At(i); st.By == s && st.Verb == engine.Claim && st.Role == engine.Detective {
			return true
		}
	}
	return false
}

// reported reports whether seat by reported seat t as mafia (or maniac) in
// the public record of v.
func reported(v *engine.View, by, t engine.Seat) bool {
	for i := 0; i < v.Talk.Len(); i++ {
		if st := v.Talk.At(i); st.By == by && st.Verb == engine.Report && st.Target == t &&
			(st.Result == engine.ResultMafia || st.Result == engine.ResultManiac) {
			return true
		}
	}
	return false
}

// lineProblem says what is wrong with a line, or "": the rules of
// docs/bots.md, one by one.
func lineProblem(deal []engine.Role, sl spokenLine) string {
	l, v, s := sl.line, &sl.view, sl.seat
	role := deal[s-1]
	floor := v.Phase.Timed() && v.Speaker == s
	// where: on one's own floor; "good game" only after the end; the
	// night's lines at night, by the mafia only
	switch {
	case l.Kind == bot.LineGoodGame:
		if v.Phase != engine.PhaseEnded {
			return "good game before the end"
		}
		return ""
	case l.Kind.Night():
		if v.Phase != engine.PhaseNight || !role.IsMafia() {
			return "a night line by day, or by a seat not of the mafia"
		}
	case v.Phase == engine.PhaseNight:
		return "a day's line at night"
	case !floor:
		return "a line off its speaker's floor"
	}
	// whom: never oneself; exactly the seats the kind names
	named := l.SeatsNamed()
	all := [3]engine.Seat{l.Seat, l.More[0], l.More[1]}
	for i, x := range all {
		switch {
		case i < len(named) && (x < 1 || int(x) > len(deal)):
			return "a line names no real seat"
		case i >= len(named) && x != 0:
			return "a line of more seats than its kind names"
		case x == s:
			return "a line names its speaker"
		case x != 0 && role.IsMafia() && deal[x-1].IsMafia():
			return "a mafioso's line names a partner"
		}
	}
	voices := func(verb engine.Verb) bool {
		for _, st := range floorStatements(v) {
			if st.Verb == verb && st.Target == l.Seat && (verb != engine.Claim || st.Role == l.Role) &&
				(verb != engine.Report || st.Result == l.Result) {
				return true
			}
		}
		return false
	}
	switch l.Kind {
	case bot.LineClaim:
		// a card said aloud: a claim of this floor; one's own card, or the
		// mafia's counter-claim of the Detective
		if !voices(engine.Claim) {
			return "a claim line with no claim on the floor"
		}
		if l.Role != role && !(role.IsMafia() && l.Role == engine.Detective) {
			return fmt.Sprintf("a %s claims the %s", role, l.Role)
		}
		if l.Role == engine.Detective && l.Count != uint8(v.Round) {
			return "the Detective's nights are not the rounds"
		}
	case bot.LineChecked:
		// a check said aloud: a report of this floor; the Detective's own
		// answer, or the counter-claiming mafioso's lie of a claimant
		if !voices(engine.Report) {
			return "a check line with no report on the floor"
		}
		switch {
		case role == engine.Detective:
			if v.Checks[l.Seat] != l.Result {
				return fmt.Sprintf("the Detective says %d is %s, its check said %s", l.Seat, l.Result, v.Checks[l.Seat])
			}
		case role.IsMafia():
			if !claimedDetective(v, s) || l.Result != engine.ResultMafia {
				return "a mafioso reports a check without a counter-claim"
			}
		default:
			return fmt.Sprintf("a %s says it checked a seat", role)
		}
	case bot.LineWillNominate, bot.LineSuspect, bot.LineTrust:
		// an opinion: any living seat but oneself (a statement's voice, or
		// the floor's opinion); a suspicion is no certainty
		if !v.Alive.Has(l.Seat) {
			return "an opinion of a seat out of the game"
		}
		if l.Kind == bot.LineWillNominate && !voices(engine.WillNominate) {
			return "a nomination to come with no statement of it"
		}
		if l.Kind == bot.LineTrust && !voices(engine.Vouch) {
			return "a trust line with no vouch on the floor"
		}
	case bot.LineLiar, bot.LineBelieve:
		// of a Detective's claim, which the record holds
		if !claimedDetective(v, l.Seat) {
			return "a liar or a belief named of a seat that claimed nothing"
		}
	case bot.LineVoteOut:
		if !v.IsCandidate(l.Seat) {
			return "vote out a seat that is no candidate"
		}
	case bot.LineInnocent, bot.LineCitizen, bot.LineVotedFor:
		if v.Phase != engine.PhaseDefence && v.Phase != engine.PhaseTieSpeech {
			return "a defence outside one's defence"
		}
	case bot.LineMyCheck:
		// a check the speaker reported in public, as the Detective it claimed
		if v.Phase != engine.PhaseDefence && v.Phase != engine.PhaseTieSpeech {
			return "a defence outside one's defence"
		}
		if !claimedDetective(v, s) || !reported(v, s, l.Seat) {
			return "my check, with no claim or no such report in public"
		}
	case bot.LineVotedTown, bot.LineNominatedTown:
		// a fact of the record: the seat voted out showed the town
		if v.Alive.Has(l.More[0]) || v.Teams[l.More[0]] != engine.TeamTown {
			return "a vote for a citizen whose card the record does not show"
		}
	case bot.LineAgainstDetective:
		if !claimedDetective(v, l.More[0]) {
			return "against the Detective, of a seat that claimed nothing"
		}
	case bot.LineCheckedBy:
		if !claimedDetective(v, l.More[0]) || !reported(v, l.More[0], l.Seat) {
			return "a check by another, which the record does not hold"
		}
	case bot.LineBestMove:
		if v.Phase != engine.PhaseLastWords || l.Seat == l.More[0] || l.Seat == l.More[1] || l.More[0] == l.More[1] {
			return "a best move outside the last words, or naming a seat twice"
		}
	case bot.LineNightTake, bot.LineNightAgree:
		if !v.Alive.Has(l.Seat) {
			return "a victim out of the game"
		}
	case bot.LineNightCheck:
		if role != engine.Don {
			return "a check in the night's chat by another than the Don"
		}
	case bot.LineFarewell:
		if v.Phase != engine.PhaseLastWords {
			return "a farewell outside one's last words"
		}
	default:
		return "a line of no kind"
	}
	return ""
}

func TestLines_NeverSayWhatTheSpeakerCannotKnow(t *testing.T) {
	kinds := map[bot.LineKind]int{}
	picks := map[uint8]bool{}
	total := 0
	for i := 0; i < lineGames(); i++ {
		lg, said, _ := playLineGame(t, i, true)
		perFloor := map[uint32]int{}
		for _, sl := range said {
			if p := lineProblem(lg.deal, sl); p != "" {
				t.Fatalf("%s: seat %d (%s) in %s of round %d said %+v: %s", lg.name, sl.seat, lg.deal[sl.seat-1], sl.view.Phase, sl.view.Round, sl.line, p)
			}
			if sl.view.Phase != engine.PhaseEnded && sl.view.Phase != engine.PhaseNight {
				if perFloor[sl.view.Step]++; perFloor[sl.view.Step] > bot.MaxLines {
					t.Fatalf("%s: seat %d said more than %d lines on one floor", lg.name, sl.seat, bot.MaxLines)
				}
			}
			kinds[sl.line.Kind]++
			picks[sl.line.Pick%3] = true
		}
		total += len(said)
	}
	t.Logf("%d games, %d lines: %v", lineGames(), total, kinds)
	for _, k := range bot.LineKinds() {
		if kinds[k] == 0 {
			t.Errorf("no bot ever said a line of kind %s", k)
		}
	}
	if len(picks) < 3 {
		t.Errorf("the phrasings never vary: picks %v", picks)
	}
}

// TestLines_AskingForLinesChangesNoMove: a game where the bots are asked
// for their lines plays the same as one where they are not (the simulator
// never asks).
func TestLines_AskingForLinesChangesNoMove(t *testing.T) {
	for i := 0; i < 200; i++ {
		_, _, with := playLineGame(t, i, true)
		lg, _, without := playLineGame(t, i, false)
		if with != without {
			t.Fatalf("%s: asking for lines changed the game", lg.name)
		}
	}
}

// TestLines_AMutedBotNeitherStatesNorSpeaks: a bot standing in for a person
// makes no statement and says no line, and still plays legally.
func TestLines_AMutedBotNeitherStatesNorSpeaks(t *testing.T) {
	for i := 0; i < 300; i++ {
		lg := newLegalGame(i)
		g, start, err := engine.New(lg.rules, lg.deal, lg.seed)
		if err != nil {
			t.Fatal(err)
		}
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, lg.players+1)}
		for s := 1; s <= lg.players; s++ {
			b := bot.NewSmart(rng.Derive(lg.seed, uint64(s)))
			b.Mute()
			tb.Bots[s] = b
		}
		tb.OnRefused = func(c engine.Command, err error) {
			t.Fatalf("%s: seat %d chose %s, refused: %v", lg.name, c.By, c.Verb, err)
		}
		tb.OnEvents = func(c engine.Command, _ []engine.Event) {
			if c.Verb.IsStatement() {
				t.Fatalf("%s: a muted bot stated %s", lg.name, c.Verb)
			}
		}
		tb.OnLine = func(s engine.Seat, l bot.Line) { t.Fatalf("%s: muted seat %d said %+v", lg.name, s, l) }
		tb.Begin(start)
		if !tb.Play(100000) {
			t.Fatalf("%s: the game did not end", lg.name)
		}
	}
}

// TestLines_SpeakAllocatesNothing: deciding a line allocates nothing.
func TestLines_SpeakAllocatesNothing(t *testing.T) {
	lg := newLegalGame(7)
	g, start, err := engine.New(lg.rules, lg.deal, lg.seed)
	if err != nil {
		t.Fatal(err)
	}
	tb := &bot.Table{Game: g, Bots: make([]bot.Bot, lg.players+1)}
	bots := make([]*bot.Smart, lg.players+1)
	for s := 1; s <= lg.players; s++ {
		bots[s] = bot.NewSmart(uint64(s))
		tb.Bots[s] = bots[s]
	}
	tb.Begin(start)
	var v engine.View
	for tb.Step() {
		if s := g.Speaker(); s != 0 {
			g.ViewInto(&v, s)
			if n := testing.AllocsPerRun(10, func() { bots[s].Speak(&v) }); n != 0 {
				t.Fatalf("Speak allocated %v times", n)
			}
		}
	}
}
