package hosttest

import (
	"errors"
	"fmt"
	"mafia/assist/record"
	"mafia/engine"
	"mafia/locale"
	"mafia/scenario"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// Driver decides what the host enters on each screen; a nil func takes the
// default (no target: the skip button; no nomination; no hands).
type Driver struct {
	// night returns the seat a waking card names, or 0 to skip.
	Night func(st record.State, w record.Wake) int
	// nominate returns whom the speaker nominates, or 0.
	Nominate func(st record.State) int
	// hands returns the voters who raise their hands for a candidate (not
	// the last).
	Hands func(st record.State, cand int) []int
	// yes returns who answers yes to "shall all of them leave?".
	Yes func(st record.State) []int
	// fouls returns the seats to give a foul before this screen's step.
	Fouls func(st record.State, screen string) []int
	// each is called on every screen before anything is entered.
	Each func(screen string, st record.State)
	// stop ends the play before the result (a scenario that ends mid-game).
	Stop func(st record.State) bool
	// refused lists seats a waking card may not name, each with the
	// engine's sentence the page must show when the host taps it.
	Refused func(st record.State, w record.Wake) []Refusal
	// refusedNominee lists seats the speaker may not nominate, with the
	// engine's sentences.
	RefusedNominee func(st record.State) []Refusal
	// answer is the answer a check must show (default: checkAnswer).
	answer func(st record.State, w record.Wake, target int) string
}

// Refusal is a seat the page must refuse, and the sentence it must say.
type Refusal struct {
	Seat     int
	Sentence string
}

// Votes is what the host entered in one vote round.
type Votes struct {
	Round      int
	Phase      string
	Candidates []int
	Hands      map[int][]int // candidate → the hands tapped for them
	AllYes     []int
}

// Play drives the host's screens until the result shows; it returns the
// votes entered.
func (h *Host) Play(d Driver) []Votes {
	h.t.Helper()
	var out []Votes
	for step := 0; step < 2000; step++ {
		sc, st := h.ScreenAndState()
		if sc == "result" {
			return out
		}
		if d.Stop != nil && sc != "announce" && d.Stop(st) {
			return out
		}
		if d.Each != nil {
			d.Each(sc, st)
		}
		if d.Fouls != nil && sc != "announce" && sc != "deal" {
			if fs := d.Fouls(st, sc); len(fs) > 0 {
				for _, s := range fs {
					h.GiveFoul(s)
				}
				continue
			}
		}
		switch {
		case sc == "announce":
			h.Tap("continue")
		case sc == "deal":
			h.Deal()
		case sc == "morning":
			h.Tap("morning")
		case len(sc) > 5 && sc[:5] == "wake:":
			h.wake(d, st)
		case sc == "speech":
			if d.RefusedNominee != nil && !st.Nominated {
				if rs := d.RefusedNominee(st); len(rs) > 0 {
					h.Tap("nominate")
					for _, r := range rs {
						h.refusedSeat(r)
					}
					h.Tap("cancel")
				}
			}
			if d.Nominate != nil && !st.Nominated {
				if n := d.Nominate(st); n != 0 {
					h.Tap("nominate")
					h.PickSeat(n)
					h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="nominated"]')`)
					continue
				}
			}
			h.Tap("end")
		case sc == "last_words" || sc == "defence" || sc == "tie_speech":
			h.Tap("end")
		case sc == "vote" || sc == "revote":
			out = append(out, h.vote(d, st))
		case sc == "all_vote":
			v := Votes{Round: st.Round, Phase: "all_vote", Candidates: st.Candidates}
			if d.Yes != nil {
				v.AllYes = d.Yes(st)
			}
			for _, s := range v.AllYes {
				h.PickSeat(s)
			}
			h.Tap("confirm-yes")
			out = append(out, v)
		default:
			h.t.Fatalf("step %d: unknown screen %q:\n%s", step, sc, h.Text())
		}
		h.Settle()
	}
	h.t.Fatalf("the game did not end")
	return nil
}

// Settle waits for the page to draw after a tap: the engine answers at
// once, and the screen changes once the tap's entries are saved on the
// phone (body[data-saving] is gone), within a frame.
func (h *Host) Settle() {
	h.t.Helper()
	h.WaitJS(10*time.Second, `!document.body.dataset.saving && new Promise((r) => requestAnimationFrame(() => r(true)))`)
}

// Deal walks the deal screen: pass-the-phone reveals and hides every card.
func (h *Host) Deal() {
	h.t.Helper()
	for i := 0; i < 50; i++ {
		switch {
		case h.Exists("reveal"):
			h.Tap("reveal")
		case h.Exists("hide"):
			h.Tap("hide")
		case h.Exists("start-night"):
			h.Tap("start-night")
			return
		default:
			return
		}
	}
}

// Exists reports whether the page shows an element of data-t testid.
func (h *Host) Exists(testid string) bool {
	return Eval[bool](h.Tab, `!!document.querySelector('[data-t="`+testid+`"]')`)
}

// Wake handles one wake screen.
func (h *Host) wake(d Driver, st record.State) {
	h.t.Helper()
	step := Eval[int](h.Tab, `window.__assistGame.rec.ui.night.step`)
	w := st.Night.Wakes[step]
	if !w.Alive && !st.Night.Meeting {
		// A card out of the game is woken all the same; the screen says so.
		if !h.Exists("out") || h.Exists("confirm") {
			h.t.Fatalf("night %d: the %s is out, and the screen does not say so:\n%s", st.Round, w.Role, h.Text())
		}
		h.DeadWakes++
	}
	if h.Exists("next") { // out of the game, acquaintance night, or done
		h.Tap("next")
		return
	}
	if d.Refused != nil {
		for _, r := range d.Refused(st, w) {
			h.refusedSeat(r)
		}
	}
	target := 0
	if d.Night != nil {
		target = d.Night(st, w)
	}
	if target == 0 {
		h.Tap("skip")
		return
	}
	if !slices.Contains(w.Targets, target) {
		h.t.Fatalf("night %d: %s may not name %d (legal: %v)", st.Round, w.Role, target, w.Targets)
	}
	h.PickSeat(target)
	h.Tap("confirm")
	if w.Verb == "check" {
		h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="answer"]')`)
		got := Eval[string](h.Tab, `document.querySelector('[data-t="answer"]').dataset.result`)
		want := CheckAnswer(st, w.Role, target)
		if d.answer != nil {
			want = d.answer(st, w, target)
		}
		if got != want {
			h.t.Fatalf("night %d: %s checked %d: the page shows %q, want %q", st.Round, w.Role, target, got, want)
		}
		h.Tap("next")
	}
}

// CheckAnswer is what a check must answer under the default rules.
func CheckAnswer(st record.State, role string, target int) string {
	r := st.Roles[target]
	if role == "don" {
		if r == "detective" {
			return "detective"
		}
		return "not_detective"
	}
	if r == "mafia" || r == "don" {
		return "mafia"
	}
	return "not_mafia"
}

// Vote enters one vote round: hands for each candidate but the last, then
// closes it.
func (h *Host) vote(d Driver, st record.State) Votes {
	h.t.Helper()
	v := Votes{Round: st.Round, Phase: st.Phase, Candidates: st.Candidates, Hands: map[int][]int{}}
	for i, c := range st.Candidates {
		if i == len(st.Candidates)-1 {
			break
		}
		h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="candidate"][data-seat="`+strconv.Itoa(c)+`"]')`)
		var hands []int
		if d.Hands != nil {
			hands = d.Hands(h.State(), c)
		}
		for _, s := range hands {
			h.PickSeat(s)
		}
		if n := Eval[string](h.Tab, `document.querySelector('[data-t="hands"]').textContent`); n != strconv.Itoa(len(hands)) {
			h.t.Fatalf("the hand count shows %s after %d taps", n, len(hands))
		}
		v.Hands[c] = hands
		h.Tap("confirm-hands")
		h.Settle()
	}
	h.Tap("close-vote")
	return v
}

// GiveFoul gives a foul through the fouls panel: one tap on the seat, and
// a second to confirm the foul that removes the player.
func (h *Host) GiveFoul(s int) {
	h.t.Helper()
	h.Tap("fouls")
	before := Eval[int](h.Tab, `window.__assistGame.rec.commands.length`)
	h.PickSeat(s)
	h.Settle()
	if h.Exists("give-foul") {
		h.Tap("give-foul")
		h.Settle()
	} else if h.Exists("back") {
		h.Tap("back") // one tap gave it; the panel stays open for more
		h.Settle()
	}
	if after := Eval[int](h.Tab, `window.__assistGame.rec.commands.length`); after != before+1 {
		h.t.Fatalf("a foul to %d made %d entries", s, after-before)
	}
}

// RefusedSeat taps a seat the page offers as not choosable and checks that
// it says the engine's sentence and changes nothing.
func (h *Host) refusedSeat(r Refusal) {
	h.t.Helper()
	sel := `.seats [data-seat="` + strconv.Itoa(r.Seat) + `"]`
	if !Eval[bool](h.Tab, `document.querySelector('`+sel+`').classList.contains('off')`) {
		h.t.Fatalf("seat %d is offered, but the engine refuses it (%s)", r.Seat, r.Sentence)
	}
	before := Eval[int](h.Tab, `window.__assistGame.rec.commands.length`)
	Eval[bool](h.Tab, `(() => { const t = document.getElementById('toast'); if (t) t.textContent = ''; return true; })()`)
	h.Click(sel)
	h.WaitJS(5*time.Second, `(document.getElementById('toast') || {}).textContent === `+strconv.Quote(r.Sentence))
	if after := Eval[int](h.Tab, `window.__assistGame.rec.commands.length`); after != before {
		h.t.Fatalf("a refused seat was entered")
	}
}

// SyncWait is how long a page may take to send what waits.
const SyncWait = 30 * time.Second

// TownDriver plays the town's way: the mafia kill the first town player,
// the others act on the first seat they may, and day 1 votes out a mafioso.
func TownDriver() Driver {
	bad := func(st record.State, s int) bool { return st.Roles[s] == "mafia" || st.Roles[s] == "don" }
	return Driver{
		Night: func(st record.State, w record.Wake) int {
			for _, s := range w.Targets {
				if w.Role == "mafia" || !bad(st, s) {
					return s
				}
			}
			return 0
		},
		Nominate: func(st record.State) int {
			if len(st.Candidates) > 0 {
				return 0
			}
			for _, s := range st.Nominate {
				if bad(st, s) {
					return s
				}
			}
			return 0
		},
		Hands: func(st record.State, cand int) []int { return st.Pending },
	}
}

// At is where a game stands: a step of the day (with its speaker) or a
// night, as the host's state names it.
type At struct {
	Phase   string
	Round   int
	Speaker int
}

// AtOf returns where game g stands.
func AtOf(g *engine.Game) At {
	return At{Phase: g.Phase().String(), Round: g.Round(), Speaker: int(g.Speaker())}
}

// AtState returns where the host's state says the game stands.
func AtState(st record.State) At { return At{Phase: st.Phase, Round: st.Round, Speaker: st.Speaker} }

// Script is a scenario laid out for the host's screens: the commands of
// each step of the game, the commands the engine must refuse there, and
// the answers of the checks.
type Script struct {
	Sc      *scenario.Scenario
	cmds    map[At][]engine.Command
	refused map[At][]engine.Command
	answers map[string]string // "round/seat" → the check's answer
	sent    map[At][]string   // refusal sentences, in English
	Final   *engine.Game
}

// LoadScript lays out scenario example name (scenario/testdata/examples)
// for the host's screens.
func LoadScript(t *testing.T, name string) *Script {
	t.Helper()
	sc, err := scenario.Load(filepath.Join(Root(t), "scenario", "testdata", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := engine.New(sc.Rules, sc.Roles, sc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	s := &Script{Sc: sc, cmds: map[At][]engine.Command{}, refused: map[At][]engine.Command{}, answers: map[string]string{}, sent: map[At][]string{}}
	p := locale.New(locale.En)
	for _, st := range sc.Steps {
		switch st.Kind {
		case scenario.StepAction:
			k := AtOf(g)
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
	s.Final = g
	return s
}

// Driver plays the scenario's commands on the host's screens.
func (s *Script) Driver() Driver {
	fouled := map[At]int{}
	verbOf := map[string]engine.Verb{"mafia": engine.Kill, "don": engine.Check, "detective": engine.Check,
		"maniac": engine.Shoot, "doctor": engine.Heal}
	return Driver{
		Night: func(st record.State, w record.Wake) int {
			target := 0
			for _, c := range s.cmds[AtState(st)] {
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
		Refused: func(st record.State, w record.Wake) []Refusal {
			var out []Refusal
			for i, c := range s.refused[AtState(st)] {
				if slices.Contains(w.Seats, int(c.By)) && c.Verb == verbOf[w.Role] && c.Target != 0 {
					out = append(out, Refusal{Seat: int(c.Target), Sentence: s.sent[AtState(st)][i]})
				}
			}
			return out
		},
		RefusedNominee: func(st record.State) []Refusal {
			var out []Refusal
			for i, c := range s.refused[AtState(st)] {
				if c.Verb == engine.Nominate && int(c.By) == st.Speaker {
					out = append(out, Refusal{Seat: int(c.Target), Sentence: s.sent[AtState(st)][i]})
				}
			}
			return out
		},
		answer: func(st record.State, w record.Wake, target int) string {
			return s.answers[fmt.Sprintf("%d/%d", st.Round, w.Actor)]
		},
		Nominate: func(st record.State) int {
			for _, c := range s.cmds[AtState(st)] {
				if c.Verb == engine.Nominate && int(c.By) == st.Speaker {
					return int(c.Target)
				}
			}
			return 0
		},
		Hands: func(st record.State, cand int) []int {
			var out []int
			for _, c := range s.cmds[At{Phase: st.Phase, Round: st.Round}] {
				if c.Verb == engine.Vote && int(c.Target) == cand {
					out = append(out, int(c.By))
				}
			}
			return out
		},
		Yes: func(st record.State) []int {
			var out []int
			for _, c := range s.cmds[At{Phase: st.Phase, Round: st.Round}] {
				if c.Verb == engine.AllVote && c.Yes {
					out = append(out, int(c.By))
				}
			}
			return out
		},
		Fouls: func(st record.State, screen string) []int {
			k := AtState(st)
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
		Stop: func(st record.State) bool {
			return !s.Final.Ended() && AtState(st) == AtOf(s.Final)
		},
	}
}
