package engine_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"mafia/engine"
)

// This file is the harness of the external rule tests: a game driven by
// hand, with helpers that fail the test when the engine disagrees.

// cards parses a deal written the way scenarios spell roles, seat 1 first:
// "don mafia detective doctor citizen".
func cards(t testing.TB, s string) []engine.Role {
	t.Helper()
	var out []engine.Role
	for _, name := range strings.Fields(s) {
		r, ok := engine.ParseRole(name)
		if !ok {
			t.Fatalf("cards: unknown role %q", name)
		}
		out = append(out, r)
	}
	return out
}

// rules builds a ruleset from the defaults and "name=value" options.
func rules(t testing.TB, opts ...string) engine.Ruleset {
	t.Helper()
	r := engine.DefaultRules()
	for _, o := range opts {
		name, value, ok := strings.Cut(o, "=")
		if !ok {
			t.Fatalf("rules: %q is not name=value", o)
		}
		if err := r.Set(name, value); err != nil {
			t.Fatalf("rules: %s: %v", o, err)
		}
	}
	return r
}

// game is one game under test, with its whole event log.
type game struct {
	t   testing.TB
	g   *engine.Game
	log []engine.Event
}

// newGame starts a game with a fixed deal and options ("name=value").
func newGame(t testing.TB, deal string, opts ...string) *game {
	t.Helper()
	g, evs, err := engine.New(rules(t, opts...), cards(t, deal), 0)
	if err != nil {
		t.Fatalf("New(%q, %v): %v", deal, opts, err)
	}
	return &game{t: t, g: g, log: append([]engine.Event(nil), evs...)}
}

// cmd builds a command.
func cmd(v engine.Verb, by, target engine.Seat) engine.Command {
	return engine.Command{Verb: v, By: by, Target: target}
}

// do applies a command that the rules allow; it fails the test when the
// engine refuses it, and checks that the log replays to the live game.
func (x *game) do(c engine.Command) []engine.Event {
	x.t.Helper()
	evs, err := x.g.Handle(c)
	if err != nil {
		x.t.Fatalf("%s refused: %v (phase %s, round %d, speaker %d)", cmdString(c), err, x.g.Phase(), x.g.Round(), x.g.Speaker())
	}
	evs = append([]engine.Event(nil), evs...)
	x.log = append(x.log, evs...)
	r, err := engine.Replay(x.log)
	if err != nil {
		x.t.Fatalf("after %s: Replay: %v", cmdString(c), err)
	}
	if !r.Equal(x.g) {
		x.t.Fatalf("after %s: the replayed game differs from the live one", cmdString(c))
	}
	return evs
}

func (x *game) act(v engine.Verb, by, target engine.Seat) []engine.Event {
	x.t.Helper()
	return x.do(cmd(v, by, target))
}

func (x *game) kill(by, target engine.Seat) []engine.Event {
	x.t.Helper()
	return x.act(engine.Kill, by, target)
}

func (x *game) check(by, target engine.Seat) engine.Result {
	x.t.Helper()
	for _, e := range x.act(engine.Check, by, target) {
		if e.Kind == engine.EvChecked {
			return e.Result
		}
	}
	x.t.Fatalf("check by %d on %d: no checked event", by, target)
	return engine.ResultNone
}

func (x *game) heal(by, target engine.Seat) []engine.Event {
	x.t.Helper()
	return x.act(engine.Heal, by, target)
}

func (x *game) shoot(by, target engine.Seat) []engine.Event {
	x.t.Helper()
	return x.act(engine.Shoot, by, target)
}

func (x *game) skip(by engine.Seat) []engine.Event {
	x.t.Helper()
	return x.act(engine.Skip, by, 0)
}

func (x *game) nominate(by, target engine.Seat) []engine.Event {
	x.t.Helper()
	return x.act(engine.Nominate, by, target)
}

func (x *game) vote(by, target engine.Seat) []engine.Event {
	x.t.Helper()
	return x.act(engine.Vote, by, target)
}

func (x *game) allVote(by engine.Seat, yes bool) []engine.Event {
	x.t.Helper()
	return x.do(engine.Command{Verb: engine.AllVote, By: by, Yes: yes})
}

func (x *game) foul(target engine.Seat) []engine.Event {
	x.t.Helper()
	return x.act(engine.Foul, engine.Host, target)
}

// next ends the current step times times and returns the events of all.
func (x *game) next(times int) []engine.Event {
	x.t.Helper()
	var all []engine.Event
	for i := 0; i < times; i++ {
		all = append(all, x.act(engine.Next, engine.Host, 0)...)
	}
	return all
}

// until ends steps until the game is in phase p (speaker s, when s != 0),
// and returns the events on the way.
func (x *game) until(p engine.Phase, s engine.Seat) []engine.Event {
	x.t.Helper()
	var all []engine.Event
	for i := 0; ; i++ {
		if x.g.Phase() == p && (s == 0 || x.g.Speaker() == s) {
			return all
		}
		if i > 500 || x.g.Ended() {
			x.t.Fatalf("never reached phase %s (speaker %d); now %s, round %d, speaker %d", p, s, x.g.Phase(), x.g.Round(), x.g.Speaker())
		}
		all = append(all, x.next(1)...)
	}
}

// untilNight ends steps until night round begins.
func (x *game) untilNight(round int) []engine.Event {
	x.t.Helper()
	var all []engine.Event
	for i := 0; !(x.g.Phase() == engine.PhaseNight && x.g.Round() == round); i++ {
		if i > 500 || x.g.Ended() {
			x.t.Fatalf("never reached night %d; now %s, round %d", round, x.g.Phase(), x.g.Round())
		}
		all = append(all, x.next(1)...)
	}
	return all
}

// refuse asserts that the engine refuses c with code and changes nothing.
func (x *game) refuse(code engine.Code, c engine.Command) *engine.Error {
	x.t.Helper()
	before := x.g.Clone()
	evs, err := x.g.Handle(c)
	if err == nil {
		x.t.Fatalf("%s accepted (events %v); want refusal %s", cmdString(c), kinds(evs), code)
	}
	var e *engine.Error
	if !errors.As(err, &e) {
		x.t.Fatalf("%s refused with %T %v; want *engine.Error", cmdString(c), err, err)
	}
	if e.Code != code {
		x.t.Fatalf("%s refused with %s (%v); want %s", cmdString(c), e.Code, err, code)
	}
	if evs != nil {
		x.t.Errorf("%s refused but returned events %v", cmdString(c), kinds(evs))
	}
	if !x.g.Equal(before) {
		x.t.Fatalf("%s refused but changed the game", cmdString(c))
	}
	return e
}

// wantPhase asserts the phase, and the speaker when s != 0.
func (x *game) wantPhase(p engine.Phase, s engine.Seat) {
	x.t.Helper()
	if x.g.Phase() != p || (s != 0 && x.g.Speaker() != s) {
		x.t.Fatalf("phase %s speaker %d (round %d); want %s speaker %d", x.g.Phase(), x.g.Speaker(), x.g.Round(), p, s)
	}
}

// wantAlive asserts the living seats.
func (x *game) wantAlive(seats ...engine.Seat) {
	x.t.Helper()
	if got, want := x.g.Alive(), engine.SetOf(seats...); got != want {
		x.t.Fatalf("alive %v; want %v", got.Seats(), want.Seats())
	}
}

// wantWinner asserts the result (WinnerNone: the game goes on).
func (x *game) wantWinner(w engine.Winner) {
	x.t.Helper()
	if x.g.Winner() != w {
		x.t.Fatalf("winner %q; want %q", x.g.Winner(), w)
	}
	if (w != engine.WinnerNone) != x.g.Ended() {
		x.t.Fatalf("winner %q but Ended() = %v", x.g.Winner(), x.g.Ended())
	}
}

// events returns the events of the log of one kind.
func (x *game) events(k engine.EventKind) []engine.Event {
	var out []engine.Event
	for _, e := range x.log {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// speechOrder plays out the current day's speeches (nobody nominates) and
// returns the speakers in order; it stops at the first non-speech step.
func (x *game) speechOrder() []engine.Seat {
	x.t.Helper()
	var out []engine.Seat
	for x.g.Phase() == engine.PhaseSpeech {
		out = append(out, x.g.Speaker())
		x.next(1)
	}
	return out
}

func kinds(evs []engine.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Kind.String()
	}
	return out
}

func hasKind(evs []engine.Event, k engine.EventKind) bool {
	for _, e := range evs {
		if e.Kind == k {
			return true
		}
	}
	return false
}

func cmdString(c engine.Command) string {
	switch {
	case c.Verb == engine.Claim:
		return fmt.Sprintf("claim by %d of %s", c.By, c.Role)
	case c.Verb == engine.Report:
		return fmt.Sprintf("report by %d on %d: %s", c.By, c.Target, c.Result)
	case c.Verb == engine.AllVote:
		return fmt.Sprintf("all_vote by %d yes=%v", c.By, c.Yes)
	case c.Verb.HasTarget():
		return fmt.Sprintf("%s by %d on %d", c.Verb, c.By, c.Target)
	}
	return fmt.Sprintf("%s by %d", c.Verb, c.By)
}

func seats(s ...engine.Seat) []engine.Seat { return s }

func sameSeats(a, b []engine.Seat) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
