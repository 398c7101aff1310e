package scenario

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"mafia/engine"
)

// Options tune a run.
type Options struct {
	// Trace, when set, receives every event as it happens.
	Trace io.Writer
	// Describe renders an event for the trace; nil uses DescribeEvent.
	Describe func(g *engine.Game, e engine.Event) string
	// Refusal renders an engine refusal; nil uses err.Error().
	Refusal func(err error) string
}

// Result is the outcome of one scenario.
type Result struct {
	Name string
	Pass bool
	Step int    // the failing step (1-based), when !Pass
	Msg  string // what differed
	Game *engine.Game
}

// String formats the result as docs/scenarios.md's PASS/FAIL line.
func (r Result) String() string {
	if r.Pass {
		return "PASS " + r.Name
	}
	return fmt.Sprintf("FAIL %s: step %d: %s", r.Name, r.Step, r.Msg)
}

// Run plays a parsed scenario through the engine.
func Run(sc *Scenario, o Options) Result {
	res := Result{Name: sc.Name}
	refusal := o.Refusal
	if refusal == nil {
		refusal = func(err error) string { return err.Error() }
	}
	describe := o.Describe
	if describe == nil {
		describe = DescribeEvent
	}
	g := new(engine.Game)
	trace := func(evs []engine.Event) {
		if o.Trace != nil {
			for _, e := range evs {
				fmt.Fprintf(o.Trace, "  %s\n", describe(g, e))
			}
		}
	}
	evs, err := g.Start(sc.Rules, sc.Roles, sc.Seed)
	if err != nil {
		res.Msg = "the game cannot start: " + refusal(err)
		return res
	}
	trace(evs)
	res.Game = g
	fail := func(st Step, format string, a ...any) Result {
		res.Step, res.Msg = st.Index, fmt.Sprintf(format, a...)
		return res
	}
	for _, st := range sc.Steps {
		switch st.Kind {
		case StepNext:
			for i := 0; i < st.Times; i++ {
				evs, err := g.Handle(engine.Command{Verb: engine.Next})
				if err != nil {
					return fail(st, "next (%d of %d) refused: %s", i+1, st.Times, refusal(err))
				}
				trace(evs)
			}
		case StepAction:
			before := g.Clone()
			evs, err := g.Handle(st.Cmd)
			if st.Reject {
				if err == nil {
					return fail(st, "%s was accepted; the rules refuse it", describeCmd(st.Cmd))
				}
				if !g.Equal(before) {
					return fail(st, "%s was refused but changed the game", describeCmd(st.Cmd))
				}
				if o.Trace != nil {
					fmt.Fprintf(o.Trace, "  refused: %s: %s\n", describeCmd(st.Cmd), refusal(err))
				}
				continue
			}
			if err != nil {
				return fail(st, "%s refused: %s", describeCmd(st.Cmd), refusal(err))
			}
			trace(evs)
			if st.Result != engine.ResultNone {
				got := engine.ResultNone
				for _, e := range evs {
					if e.Kind == engine.EvChecked {
						got = e.Result
					}
				}
				if got != st.Result {
					return fail(st, "check answered %s, expected %s", got, st.Result)
				}
			}
		case StepExpect:
			if msg := compare(g, st.Expect); msg != "" {
				return fail(st, "%s", msg)
			}
		}
	}
	res.Pass = true
	return res
}

func describeCmd(c engine.Command) string {
	switch {
	case c.Verb == engine.Claim:
		return fmt.Sprintf("claim by %d of %s", c.By, c.Role)
	case c.Verb == engine.Report:
		return fmt.Sprintf("report by %d on %d: %s", c.By, c.Target, c.Result)
	case c.Verb == engine.AllVote:
		return fmt.Sprintf("all_vote by %d (yes=%v)", c.By, c.Yes)
	case c.Verb.HasTarget():
		return fmt.Sprintf("%s by %d on %d", c.Verb, c.By, c.Target)
	}
	return fmt.Sprintf("%s by %d", c.Verb, c.By)
}

// compare returns what differs between the game and an expectation, or "".
func compare(g *engine.Game, ex Expect) string {
	var diffs []string
	if ex.Phase != nil && g.Phase() != *ex.Phase {
		diffs = append(diffs, fmt.Sprintf("phase is %s, expected %s", g.Phase(), *ex.Phase))
	}
	if ex.Round != nil && g.Round() != *ex.Round {
		diffs = append(diffs, fmt.Sprintf("round is %d, expected %d", g.Round(), *ex.Round))
	}
	if ex.HasAlive {
		if got := g.Alive().Seats(); seatsString(got) != seatsString(ex.Alive) {
			diffs = append(diffs, fmt.Sprintf("alive is %s, expected %s", seatsString(got), seatsString(ex.Alive)))
		}
	}
	if ex.Speaker != nil && g.Speaker() != *ex.Speaker {
		diffs = append(diffs, fmt.Sprintf("speaker is %d, expected %d", g.Speaker(), *ex.Speaker))
	}
	if ex.HasCands {
		if got := g.Candidates(); seatsString(got) != seatsString(ex.Candidates) {
			diffs = append(diffs, fmt.Sprintf("candidates are %s, expected %s", seatsString(got), seatsString(ex.Candidates)))
		}
	}
	if ex.HasTalk {
		today := g.SpectatorView().Talk.Day(g.Round())
		got := make([]engine.Statement, today.Len())
		for i := range got {
			st := today.At(i)
			got[i] = engine.Statement{By: st.By, Verb: st.Verb, Target: st.Target, Role: st.Role, Result: st.Result}
		}
		if a, b := talkString(got), talkString(ex.Talk); a != b {
			diffs = append(diffs, fmt.Sprintf("talk is %s, expected %s", a, b))
		}
	}
	if ex.Winner != nil && g.Winner() != *ex.Winner {
		name := func(w engine.Winner) string {
			if w == engine.WinnerNone {
				return "null"
			}
			return w.String()
		}
		diffs = append(diffs, fmt.Sprintf("winner is %s, expected %s", name(g.Winner()), name(*ex.Winner)))
	}
	return strings.Join(diffs, "; ")
}

// talkString writes statements as a scenario does, for a FAIL line.
func talkString(sts []engine.Statement) string {
	parts := make([]string, len(sts))
	for i, st := range sts {
		p := fmt.Sprintf("%d %s", st.By, st.Verb)
		if st.Target != 0 {
			p += fmt.Sprintf(" %d", st.Target)
		}
		if st.Role != engine.RoleNone {
			p += " " + st.Role.String()
		}
		if st.Result != engine.ResultNone {
			p += " " + st.Result.String()
		}
		parts[i] = p
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// DescribeEvent is a plain English one-line rendering of an event for traces.
func DescribeEvent(g *engine.Game, e engine.Event) string {
	head := fmt.Sprintf("[%d] %s", e.Round, e.Kind)
	switch e.Kind {
	case engine.EvGameStarted:
		parts := make([]string, 0, e.Count)
		for s := 1; s <= int(e.Count); s++ {
			parts = append(parts, fmt.Sprintf("%d=%s", s, e.RoleOf(engine.Seat(s))))
		}
		return head + " " + strings.Join(parts, " ")
	case engine.EvMafiaChose, engine.EvHealed, engine.EvShot, engine.EvNominated, engine.EvVoteCast:
		return fmt.Sprintf("%s: seat %d → seat %d", head, e.Actor, e.Target)
	case engine.EvChecked:
		return fmt.Sprintf("%s: seat %d → seat %d: %s", head, e.Actor, e.Target, e.Result)
	case engine.EvSkipped:
		return fmt.Sprintf("%s: seat %d", head, e.Actor)
	case engine.EvAllVoteCast:
		return fmt.Sprintf("%s: seat %d says %v", head, e.Actor, e.Yes)
	case engine.EvNightEnded:
		return fmt.Sprintf("%s: victims %s", head, seatsString(e.Set.Seats()))
	case engine.EvPlayerOut:
		return fmt.Sprintf("%s: seat %d (%s)", head, e.Target, e.Cause)
	case engine.EvLastWords, engine.EvSpeech, engine.EvSpeechSkipped, engine.EvDefence, engine.EvTieSpeech:
		return fmt.Sprintf("%s: seat %d", head, e.Target)
	case engine.EvDayBegan:
		return fmt.Sprintf("%s: from seat %d", head, e.Actor)
	case engine.EvVoteBegan, engine.EvTie:
		return fmt.Sprintf("%s %s: %s", head, e.Phase, seatsString(e.List()))
	case engine.EvVoteClosed:
		var parts []string
		for s := engine.Seat(1); s <= engine.MaxSeats; s++ {
			if c := e.CountedFor(s); c != 0 {
				parts = append(parts, fmt.Sprintf("%d→%d", s, c))
			}
		}
		return head + ": " + strings.Join(parts, " ")
	case engine.EvAllVoteClosed:
		return fmt.Sprintf("%s: yes %s, all leave: %v", head, seatsString(e.Set.Seats()), e.Yes)
	case engine.EvFouled:
		return fmt.Sprintf("%s: seat %d has %d", head, e.Target, e.Count)
	case engine.EvGameEnded:
		return fmt.Sprintf("%s: %s wins", head, e.Winner)
	case engine.EvStatement:
		st := e.Statement()
		st.Phase = engine.PhaseNone
		return fmt.Sprintf("%s in the %s: seat %s", head, e.Phase, strings.Trim(talkString([]engine.Statement{st}), "[]"))
	}
	return head
}

// Files expands files and directories (their *.json files, recursively, in
// name order) into a list of scenario files.
func Files(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".json") {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// Load reads and parses one file.
func Load(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{Path: path, Msg: err.Error()}
	}
	return Parse(path, data)
}
