package record_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/scenario"
)

// fromScenario turns a conformance example (scenario/testdata/examples) into the
// settings and entries a host would make (refused steps and assertions
// left out).
func fromScenario(t *testing.T, name string) (*record.Settings, []record.Command, *scenario.Scenario) {
	t.Helper()
	sc, err := scenario.Load(filepath.Join("..", "..", "scenario", "testdata", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	s := &record.Settings{Roles: record.RoleNames(sc.Roles), Seed: "0", Options: sc.Rules.Map(),
		Timings: record.DefaultTimings(), Deal: record.DealManual}
	for i := range sc.Roles {
		s.Names = append(s.Names, "P"+strconv.Itoa(i+1))
	}
	var cmds []record.Command
	add := func(c engine.Command) {
		rc := record.FromEngine(c)
		rc.ID, rc.Seq = fmt.Sprintf("c%d", len(cmds)), len(cmds)
		cmds = append(cmds, rc)
	}
	for _, st := range sc.Steps {
		switch {
		case st.Kind == scenario.StepAction && !st.Reject:
			add(st.Cmd)
		case st.Kind == scenario.StepNext:
			for range st.Times {
				add(engine.Command{Verb: engine.Next})
			}
		}
	}
	return s, cmds, sc
}

func TestReplayOfEveryScenarioEndsWhereTheScenarioDoes(t *testing.T) {
	for _, name := range []string{"01-town-wins-by-vote.json", "02-doctor-heals-each-player-once.json",
		"03-maniac-two-shots-from-night-two.json", "04-tie-revote-all-leave.json",
		"05-mafia-wins-at-parity.json", "06-maniac-wins-one-on-one.json"} {
		t.Run(name, func(t *testing.T) {
			s, cmds, sc := fromScenario(t, name)
			g, log, err := record.Replay(s, cmds)
			if err != nil {
				t.Fatal(err)
			}
			last := sc.Steps[len(sc.Steps)-1].Expect
			if last.Phase != nil && g.Phase() != *last.Phase {
				t.Errorf("phase %s, want %s", g.Phase(), *last.Phase)
			}
			if last.Winner != nil && g.Winner() != *last.Winner {
				t.Errorf("winner %s, want %s", g.Winner(), *last.Winner)
			}
			p := record.Build(s, log)
			if len(p.Events) != len(log) {
				t.Fatalf("%d events in the protocol, %d in the log", len(p.Events), len(log))
			}
			if p.Ended != g.Ended() || p.Winner != g.Winner().String() {
				t.Errorf("protocol says ended=%v winner=%q", p.Ended, p.Winner)
			}
		})
	}
}

func TestReplayStopsAtTheFirstRefusedEntry(t *testing.T) {
	s, cmds, _ := fromScenario(t, "04-tie-revote-all-leave.json")
	bad := append(slices.Clone(cmds[:1]), record.Command{ID: "x", Seq: 1, Verb: "heal", By: 1, Target: 2})
	g, log, err := record.Replay(s, bad)
	var re *record.ReplayError
	if !errorsAs(err, &re) || re.Index != 1 {
		t.Fatalf("want a ReplayError at entry 1, got %v", err)
	}
	if g == nil || len(log) == 0 {
		t.Fatal("the game before the refused entry is lost")
	}
	if _, _, err := record.Replay(s, []record.Command{{ID: "y", Verb: "dance"}}); err == nil {
		t.Fatal("an unknown verb was accepted")
	}
}

func errorsAs(err error, re **record.ReplayError) bool {
	r, ok := err.(*record.ReplayError)
	if ok {
		*re = r
	}
	return ok
}

// The tie scenario: a tie, a tied repeat vote, and the town sends both away.
func TestProtocolOfATiedDay(t *testing.T) {
	s, cmds, _ := fromScenario(t, "04-tie-revote-all-leave.json")
	_, log, err := record.Replay(s, cmds)
	if err != nil {
		t.Fatal(err)
	}
	p := record.Build(s, log)
	if len(p.Rounds) != 2 {
		t.Fatalf("%d rounds, want night 1, day 1 and night 2", len(p.Rounds))
	}
	n := p.Rounds[0].Night
	if n.Victim != 7 || !slices.Equal(n.Killed, []int{7}) || len(n.Mafia) != 1 || n.Mafia[0].By != 2 {
		t.Errorf("night 1: %+v", n)
	}
	d := p.Rounds[0].Day
	if d.Opener != 1 || !slices.Equal(d.Speeches, []int{1, 2, 3, 4, 5, 6}) {
		t.Errorf("speeches: opener %d, %v", d.Opener, d.Speeches)
	}
	if len(d.Nominations) != 2 || d.Nominations[0] != (record.Pick{By: 1, Target: 4}) {
		t.Errorf("nominations: %+v", d.Nominations)
	}
	if len(d.Votes) != 2 || d.Votes[0].Phase != "vote" || d.Votes[1].Phase != "revote" {
		t.Fatalf("votes: %+v", d.Votes)
	}
	v := d.Votes[0]
	if !slices.Equal(v.Candidates, []int{4, 1}) || !slices.Equal(v.Tie, []int{4, 1}) {
		t.Errorf("vote: %+v", v)
	}
	// 1, 3, 5 voted for 4; 2 and 4 for 1; 6 abstained: counted for 1.
	want := []record.Tally{{Candidate: 4, Votes: 3, Voters: []int{1, 3, 5}}, {Candidate: 1, Votes: 3, Voters: []int{2, 4, 6}}}
	if fmt.Sprint(v.Tally) != fmt.Sprint(want) {
		t.Errorf("tally %+v, want %+v", v.Tally, want)
	}
	for _, b := range v.Ballot {
		if b.Abstained != (b.Voter == 6) {
			t.Errorf("ballot %+v: only seat 6 abstained", b)
		}
	}
	a := d.AllVote
	if a == nil || !a.Passed || !slices.Equal(a.Yes, []int{1, 3, 5, 6}) || !slices.Equal(a.Candidates, []int{4, 1}) {
		t.Errorf("all-vote: %+v", a)
	}
	if len(d.Out) != 2 || d.Out[0].Cause != "all" {
		t.Errorf("out: %+v", d.Out)
	}
	if o := p.Seats[6].Out; o == nil || o.Cause != "night" || o.Round != 1 {
		t.Errorf("seat 7: %+v", o)
	}
	if !slices.Equal(d.LastWords, []int{1, 4}) {
		t.Errorf("last words: %v", d.LastWords)
	}
}

func TestCSVHasARowPerEventAndPerBallot(t *testing.T) {
	s, cmds, _ := fromScenario(t, "04-tie-revote-all-leave.json")
	_, log, _ := record.Replay(s, cmds)
	rows := record.CSV(s, log)
	ballots := 0
	for _, r := range rows {
		if len(r) != len(record.CSVHeader) {
			t.Fatalf("row of %d columns: %v", len(r), r)
		}
		if r[3] == "ballot" {
			ballots++
		}
	}
	if ballots != 12 || len(rows) != len(log)+12 {
		t.Fatalf("%d rows, %d ballots, %d events: want two votes of 6 ballots", len(rows), ballots, len(log))
	}
	for _, r := range rows {
		if r[3] == "vote_cast" && r[4] == "1" && (r[5] != "P1" || r[6] != "citizen" || r[7] != "4" || r[9] != "mafia") {
			t.Errorf("vote row: %v", r)
		}
		if r[3] == "ballot" && r[2] == "vote" && r[4] == "6" && r[15] != "yes" {
			t.Errorf("seat 6 abstained: %v", r)
		}
	}
}

func preset11(t *testing.T) *engine.Game {
	t.Helper()
	// seat: 1 don, 2 mafia, 3 mafia, 4 maniac, 5 detective, 6 doctor, 7..11 citizens
	roles := []engine.Role{engine.Don, engine.Mafioso, engine.Mafioso, engine.Maniac, engine.Detective, engine.Doctor,
		engine.Citizen, engine.Citizen, engine.Citizen, engine.Citizen, engine.Citizen}
	g, _, err := engine.New(engine.DefaultRules(), roles, 0)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func wakeRoles(st record.State) []string {
	var out []string
	for _, w := range st.Night.Wakes {
		out = append(out, w.Role)
	}
	return out
}

func must(t *testing.T, g *engine.Game, cmds ...engine.Command) {
	t.Helper()
	for _, c := range cmds {
		if _, err := g.Handle(c); err != nil {
			t.Fatalf("%v: %v", c, err)
		}
	}
}

func TestNightScriptWakesInTheSheetsOrderAndDeadRolesToo(t *testing.T) {
	g := preset11(t)
	st := record.Snapshot(g)
	if got := wakeRoles(st); !slices.Equal(got, []string{"mafia", "don", "detective", "doctor"}) {
		t.Fatalf("night 1 wakes %v", got)
	}
	m := st.Night.Wakes[0]
	if m.Actor != 1 || !slices.Equal(m.Seats, []int{1, 2, 3}) || slices.Contains(m.Targets, 2) || !slices.Contains(m.Targets, 4) {
		t.Errorf("the mafia's wake: %+v", m)
	}
	// Night 1: the mafia kills the detective (5) and the doctor does not
	// save him. Day 1: the town votes the Don out.
	must(t, g, engine.Command{Verb: engine.Kill, By: 1, Target: 5},
		engine.Command{Verb: engine.Check, By: 1, Target: 5})
	st = record.Snapshot(g)
	if d := st.Night.Wakes[1]; !d.Acted || d.Result != "detective" || d.Target != 5 {
		t.Errorf("the Don's wake after his check: %+v", d)
	}
	must(t, g, engine.Command{Verb: engine.Heal, By: 6, Target: 7}, engine.Command{Verb: engine.Next})
	for g.Phase() == engine.PhaseLastWords || g.Phase() == engine.PhaseSpeech {
		if g.Phase() == engine.PhaseSpeech && g.Speaker() == 7 {
			must(t, g, engine.Command{Verb: engine.Nominate, By: 7, Target: 1})
		}
		must(t, g, engine.Command{Verb: engine.Next})
	}
	for g.Phase() == engine.PhaseDefence {
		must(t, g, engine.Command{Verb: engine.Next})
	}
	must(t, g, engine.Command{Verb: engine.Next}) // the only candidate: out
	for g.Phase() == engine.PhaseLastWords {
		must(t, g, engine.Command{Verb: engine.Next})
	}
	if g.Phase() != engine.PhaseNight || g.Alive().Has(1) || g.Alive().Has(5) {
		t.Fatalf("want night 2 without seats 1 and 5: %s %v", g.Phase(), g.Alive().Seats())
	}
	st = record.Snapshot(g)
	if got := wakeRoles(st); !slices.Equal(got, []string{"mafia", "don", "detective", "maniac", "doctor"}) {
		t.Fatalf("night 2 wakes %v", got)
	}
	w := st.Night.Wakes
	if w[0].Actor != 2 || !w[0].Alive {
		t.Errorf("with the Don out, the senior mafioso is seat 2: %+v", w[0])
	}
	if w[1].Alive || w[2].Alive || len(w[1].Targets) != 0 {
		t.Errorf("the Don and the detective are out but still woken: %+v %+v", w[1], w[2])
	}
	if !w[3].Alive || w[3].ShotsLeft != 2 || len(w[3].Targets) == 0 {
		t.Errorf("the maniac: %+v", w[3])
	}
	if slices.Contains(w[4].Targets, 7) {
		t.Errorf("the doctor healed 7 on night 1: %v", w[4].Targets)
	}
}

func TestMafiaCommands(t *testing.T) {
	g := preset11(t)
	got := record.MafiaCommands(g, 7)
	if len(got) != 1 || got[0] != (engine.Command{Verb: engine.Kill, By: 1, Target: 7}) {
		t.Errorf("senior: %v", got)
	}
	miss := record.MafiaCommands(g, 0)
	if len(miss) != 2 || miss[0] != (engine.Command{Verb: engine.Skip, By: 2}) || miss[1].By != 3 {
		t.Errorf("a miss skips every mafioso but the Don: %v", miss)
	}
	rules := engine.DefaultRules()
	_ = rules.Set("mafia_kill", "unanimous")
	u, _, _ := engine.New(rules, []engine.Role{engine.Don, engine.Mafioso, engine.Citizen, engine.Citizen, engine.Detective, engine.Doctor, engine.Citizen}, 0)
	got = record.MafiaCommands(u, 4)
	if len(got) != 2 || got[0].By != 1 || got[1].By != 2 || got[1].Target != 4 {
		t.Errorf("unanimous: %v", got)
	}
	must(t, u, got...)
	must(t, u, engine.Command{Verb: engine.Next})
	if u.Alive().Has(4) {
		t.Error("the unanimous choice did not kill")
	}
}

func TestQueueFollowsTheSpeakingOrder(t *testing.T) {
	s, cmds, _ := fromScenario(t, "04-tie-revote-all-leave.json")
	// Stop at the first speech of day 1 (after night 1 and 7's last words).
	g, log, err := record.Replay(s, cmds[:3])
	if err != nil {
		t.Fatal(err)
	}
	if g.Phase() != engine.PhaseSpeech || g.Speaker() != 1 {
		t.Fatalf("at %s, speaker %d", g.Phase(), g.Speaker())
	}
	if q := record.Queue(g, log); !slices.Equal(q, []int{2, 3, 4, 5, 6}) {
		t.Errorf("queue %v", q)
	}
}
