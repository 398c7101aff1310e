package assist_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/locale"
	"mafia/scenario"
)

// at is where a game stands: a step of the day (with its speaker) or a
// night, as the host's state names it.
type at struct {
	Phase   string
	Round   int
	Speaker int
}

func atOf(g *engine.Game) at {
	return at{Phase: g.Phase().String(), Round: g.Round(), Speaker: int(g.Speaker())}
}

func atState(st record.State) at { return at{Phase: st.Phase, Round: st.Round, Speaker: st.Speaker} }

// script is a scenario laid out for the host's screens: the commands of
// each step of the game, the commands the engine must refuse there, and
// the answers of the checks.
type script struct {
	sc      *scenario.Scenario
	cmds    map[at][]engine.Command
	refused map[at][]engine.Command
	answers map[string]string // "round/seat" → the check's answer
	sent    map[at][]string   // refusal sentences, in English
	final   *engine.Game
}

func loadScript(t *testing.T, name string) *script {
	t.Helper()
	sc, err := scenario.Load(filepath.Join("..", "scenario", "testdata", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := engine.New(sc.Rules, sc.Roles, sc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	s := &script{sc: sc, cmds: map[at][]engine.Command{}, refused: map[at][]engine.Command{}, answers: map[string]string{}, sent: map[at][]string{}}
	p := locale.New(locale.En)
	for _, st := range sc.Steps {
		switch st.Kind {
		case scenario.StepAction:
			k := atOf(g)
			if st.Reject {
				var e *engine.Error
				if errors.As(g.Check(st.Cmd), &e) && e.Code == engine.CodeAlreadyActed {
					continue // a second move after the first: no screen offers it
				}
				s.refused[k] = append(s.refused[k], st.Cmd)
				s.sent[k] = append(s.sent[k], p.Refusal(g.Check(st.Cmd)))
				continue
			}
			evs, err := g.Handle(st.Cmd)
			if err != nil {
				t.Fatalf("step %d: %v", st.Index, err)
			}
			for _, e := range evs {
				if e.Kind == engine.EvChecked {
					s.answers[fmt.Sprintf("%d/%d", g.Round(), e.Actor)] = e.Result.String()
				}
			}
			s.cmds[k] = append(s.cmds[k], st.Cmd)
		case scenario.StepNext:
			for range st.Times {
				if _, err := g.Handle(engine.Command{Verb: engine.Next}); err != nil {
					t.Fatalf("step %d: %v", st.Index, err)
				}
			}
		}
	}
	s.final = g
	return s
}

// driver plays the scenario's commands on the host's screens.
func (s *script) driver() driver {
	fouled := map[at]int{}
	verbOf := map[string]engine.Verb{"mafia": engine.Kill, "don": engine.Check, "detective": engine.Check,
		"maniac": engine.Shoot, "doctor": engine.Heal}
	return driver{
		night: func(st record.State, w record.Wake) int {
			target := 0
			for _, c := range s.cmds[atState(st)] {
				by := slices.Contains(w.Seats, int(c.By))
				switch {
				case !by:
				case c.Verb == verbOf[w.Role]:
					target = int(c.Target)
				case c.Verb == engine.Skip && w.Role == "mafia" && int(c.By) == w.Actor:
					target = 0
				}
			}
			return target
		},
		refused: func(st record.State, w record.Wake) []refusal {
			var out []refusal
			for i, c := range s.refused[atState(st)] {
				if slices.Contains(w.Seats, int(c.By)) && c.Verb == verbOf[w.Role] && c.Target != 0 {
					out = append(out, refusal{Seat: int(c.Target), Sentence: s.sent[atState(st)][i]})
				}
			}
			return out
		},
		refusedNominee: func(st record.State) []refusal {
			var out []refusal
			for i, c := range s.refused[atState(st)] {
				if c.Verb == engine.Nominate && int(c.By) == st.Speaker {
					out = append(out, refusal{Seat: int(c.Target), Sentence: s.sent[atState(st)][i]})
				}
			}
			return out
		},
		answer: func(st record.State, w record.Wake, target int) string {
			return s.answers[fmt.Sprintf("%d/%d", st.Round, w.Actor)]
		},
		nominate: func(st record.State) int {
			for _, c := range s.cmds[atState(st)] {
				if c.Verb == engine.Nominate && int(c.By) == st.Speaker {
					return int(c.Target)
				}
			}
			return 0
		},
		hands: func(st record.State, cand int) []int {
			var out []int
			for _, c := range s.cmds[at{Phase: st.Phase, Round: st.Round}] {
				if c.Verb == engine.Vote && int(c.Target) == cand {
					out = append(out, int(c.By))
				}
			}
			return out
		},
		yes: func(st record.State) []int {
			var out []int
			for _, c := range s.cmds[at{Phase: st.Phase, Round: st.Round}] {
				if c.Verb == engine.AllVote && c.Yes {
					out = append(out, int(c.By))
				}
			}
			return out
		},
		fouls: func(st record.State, screen string) []int {
			k := atState(st)
			var all []int
			for _, c := range s.cmds[k] {
				if c.Verb == engine.Foul {
					all = append(all, int(c.Target))
				}
			}
			if fouled[k] < len(all) {
				fouled[k]++
				return all[fouled[k]-1 : fouled[k]]
			}
			return nil
		},
		stop: func(st record.State) bool {
			return !s.final.Ended() && atState(st) == atOf(s.final)
		},
	}
}

// TestScenariosReplayedThroughTheHostsScreens plays the conformance examples
// (scenario/testdata/examples) on the host's screens (deal by hand, the scenario's
// house rules) and checks that the game ends where the scenario's does:
// the same step, the same players in the game, the same result. Each
// command the scenario says the engine refuses at night is tapped too: the
// page offers it as not choosable and says the engine's sentence.
func TestScenariosReplayedThroughTheHostsScreens(t *testing.T) {
	t.Parallel()
	names := []string{"04-tie-revote-all-leave.json", "05-mafia-wins-at-parity.json", "02-doctor-heals-each-player-once.json",
		"01-town-wins-by-vote.json", "03-maniac-two-shots-from-night-two.json", "06-maniac-wins-one-on-one.json"}
	if testing.Short() {
		names = names[:1]
	}
	ts := startServer(t)
	for _, name := range names {
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			t.Parallel() // each on its own page and game
			s := loadScript(t, name)
			h := openHost(t, ts, name)
			spec := gameSpec{Deal: record.DealManual, Roles: record.RoleNames(s.sc.Roles), Options: s.sc.Rules.Map()}
			for i := range s.sc.Roles {
				spec.Names = append(spec.Names, fmt.Sprintf("P%d", i+1))
			}
			setup := engine.SetupOf(s.sc.Roles)
			if p, err := engine.Preset(len(s.sc.Roles)); err != nil || p != setup {
				spec.Custom = map[string]int{"don": setup.Don, "mafia": setup.Mafia, "maniac": setup.Maniac,
					"detective": setup.Detective, "doctor": setup.Doctor, "citizen": setup.Citizens}
			}
			id := h.create(spec)
			d := s.driver()
			checked := 0
			refused := d.refused
			d.refused = func(st record.State, w record.Wake) []refusal {
				r := refused(st, w)
				checked += len(r)
				return r
			}
			nominee := d.refusedNominee
			d.refusedNominee = func(st record.State) []refusal {
				r := nominee(st)
				checked += len(r)
				return r
			}
			h.play(d)
			t.Logf("%d refusals shown with the engine's sentence", checked)
			st := h.state()
			want := s.final
			if atState(st) != atOf(want) || st.Winner != want.Winner().String() {
				t.Fatalf("the host's game is at %+v (winner %q), the scenario's at %+v (winner %q)",
					atState(st), st.Winner, atOf(want), want.Winner())
			}
			var alive []int
			for _, a := range want.Alive().Seats() {
				alive = append(alive, int(a))
			}
			if !slices.Equal(st.Alive, alive) {
				t.Fatalf("in the game: host %v, scenario %v", st.Alive, alive)
			}
			// The server's engine agrees, once everything is sent.
			h.waitJS(syncWait, `document.getElementById('sync').dataset.waiting === '0'`)
			g, _ := ts.replay(t, id)
			if atOf(g) != atOf(want) || g.Winner() != want.Winner() {
				t.Fatalf("the server's game is at %+v (%s)", atOf(g), g.Winner())
			}
			if want.Ended() {
				h.shot("scenario-" + strings.TrimSuffix(name, ".json"))
			}
		})
	}
}
