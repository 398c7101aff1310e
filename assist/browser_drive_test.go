package assist_test

import (
	"slices"
	"strconv"
	"time"

	"mafia/assist/record"
)

// driver decides what the host enters on each screen; a nil func takes the
// default (no target: the skip button; no nomination; no hands).
type driver struct {
	// night returns the seat a waking card names, or 0 to skip.
	night func(st record.State, w record.Wake) int
	// nominate returns whom the speaker nominates, or 0.
	nominate func(st record.State) int
	// hands returns the voters who raise their hands for a candidate (not
	// the last).
	hands func(st record.State, cand int) []int
	// yes returns who answers yes to "shall all of them leave?".
	yes func(st record.State) []int
	// fouls returns the seats to give a foul before this screen's step.
	fouls func(st record.State, screen string) []int
	// each is called on every screen before anything is entered.
	each func(screen string, st record.State)
	// stop ends the play before the result (a scenario that ends mid-game).
	stop func(st record.State) bool
	// refused lists seats a waking card may not name, each with the
	// engine's sentence the page must show when the host taps it.
	refused func(st record.State, w record.Wake) []refusal
	// refusedNominee lists seats the speaker may not nominate, with the
	// engine's sentences.
	refusedNominee func(st record.State) []refusal
	// answer is the answer a check must show (default: checkAnswer).
	answer func(st record.State, w record.Wake, target int) string
}

// refusal is a seat the page must refuse, and the sentence it must say.
type refusal struct {
	Seat     int
	Sentence string
}

// votes is what the host entered in one vote round.
type votes struct {
	Round      int
	Phase      string
	Candidates []int
	Hands      map[int][]int // candidate → the hands tapped for them
	AllYes     []int
}

// play drives the host's screens until the result shows; it returns the
// votes entered.
func (h *host) play(d driver) []votes {
	h.t.Helper()
	var out []votes
	for step := 0; step < 2000; step++ {
		sc := h.screen()
		if sc == "result" {
			return out
		}
		st := h.state()
		if d.stop != nil && sc != "announce" && d.stop(st) {
			return out
		}
		if d.each != nil {
			d.each(sc, st)
		}
		if d.fouls != nil && sc != "announce" && sc != "deal" {
			if fs := d.fouls(st, sc); len(fs) > 0 {
				for _, s := range fs {
					h.giveFoul(s)
				}
				continue
			}
		}
		switch {
		case sc == "announce":
			h.tap("continue")
		case sc == "deal":
			h.deal()
		case sc == "morning":
			h.tap("morning")
		case len(sc) > 5 && sc[:5] == "wake:":
			h.wake(d, st)
		case sc == "speech":
			if d.refusedNominee != nil && !st.Nominated {
				if rs := d.refusedNominee(st); len(rs) > 0 {
					h.tap("nominate")
					for _, r := range rs {
						h.refusedSeat(r)
					}
					h.tap("cancel")
				}
			}
			if d.nominate != nil && !st.Nominated {
				if n := d.nominate(st); n != 0 {
					h.tap("nominate")
					h.pickSeat(n)
					h.waitJS(5*time.Second, `!!document.querySelector('[data-t="nominated"]')`)
					continue
				}
			}
			h.tap("end")
		case sc == "last_words" || sc == "defence" || sc == "tie_speech":
			h.tap("end")
		case sc == "vote" || sc == "revote":
			out = append(out, h.vote(d, st))
		case sc == "all_vote":
			v := votes{Round: st.Round, Phase: "all_vote", Candidates: st.Candidates}
			if d.yes != nil {
				v.AllYes = d.yes(st)
			}
			for _, s := range v.AllYes {
				h.pickSeat(s)
			}
			h.tap("confirm-yes")
			out = append(out, v)
		default:
			h.t.Fatalf("step %d: unknown screen %q:\n%s", step, sc, h.text())
		}
		h.settle()
	}
	h.t.Fatalf("the game did not end")
	return nil
}

// settle waits for the page to draw after a tap: the engine answers at
// once, and the screen changes once the tap's entries are saved on the
// phone (body[data-saving] is gone), within a frame.
func (h *host) settle() {
	h.t.Helper()
	h.waitJS(10*time.Second, `!document.body.dataset.saving && new Promise((r) => requestAnimationFrame(() => r(true)))`)
}

// deal walks the deal screen: pass-the-phone reveals and hides every card.
func (h *host) deal() {
	h.t.Helper()
	for i := 0; i < 50; i++ {
		switch {
		case h.exists("reveal"):
			h.tap("reveal")
		case h.exists("hide"):
			h.tap("hide")
		case h.exists("start-night"):
			h.tap("start-night")
			return
		default:
			return
		}
	}
}

func (h *host) exists(testid string) bool {
	return eval[bool](h.tab, `!!document.querySelector('[data-t="`+testid+`"]')`)
}

// wake handles one wake screen.
func (h *host) wake(d driver, st record.State) {
	h.t.Helper()
	step := eval[int](h.tab, `window.__assistGame.rec.ui.night.step`)
	w := st.Night.Wakes[step]
	if !w.Alive && !st.Night.Meeting {
		// A card out of the game is woken all the same; the screen says so.
		if !h.exists("out") || h.exists("confirm") {
			h.t.Fatalf("night %d: the %s is out, and the screen does not say so:\n%s", st.Round, w.Role, h.text())
		}
		h.deadWakes++
	}
	if h.exists("next") { // out of the game, acquaintance night, or done
		h.tap("next")
		return
	}
	if d.refused != nil {
		for _, r := range d.refused(st, w) {
			h.refusedSeat(r)
		}
	}
	target := 0
	if d.night != nil {
		target = d.night(st, w)
	}
	if target == 0 {
		h.tap("skip")
		return
	}
	if !slices.Contains(w.Targets, target) {
		h.t.Fatalf("night %d: %s may not name %d (legal: %v)", st.Round, w.Role, target, w.Targets)
	}
	h.pickSeat(target)
	h.tap("confirm")
	if w.Verb == "check" {
		h.waitJS(5*time.Second, `!!document.querySelector('[data-t="answer"]')`)
		got := eval[string](h.tab, `document.querySelector('[data-t="answer"]').dataset.result`)
		want := checkAnswer(st, w.Role, target)
		if d.answer != nil {
			want = d.answer(st, w, target)
		}
		if got != want {
			h.t.Fatalf("night %d: %s checked %d: the page shows %q, want %q", st.Round, w.Role, target, got, want)
		}
		h.tap("next")
	}
}

// checkAnswer is what a check must answer under the default rules.
func checkAnswer(st record.State, role string, target int) string {
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

// vote enters one vote round: hands for each candidate but the last, then
// closes it.
func (h *host) vote(d driver, st record.State) votes {
	h.t.Helper()
	v := votes{Round: st.Round, Phase: st.Phase, Candidates: st.Candidates, Hands: map[int][]int{}}
	for i, c := range st.Candidates {
		if i == len(st.Candidates)-1 {
			break
		}
		h.waitJS(5*time.Second, `!!document.querySelector('[data-t="candidate"][data-seat="`+strconv.Itoa(c)+`"]')`)
		var hands []int
		if d.hands != nil {
			hands = d.hands(h.state(), c)
		}
		for _, s := range hands {
			h.pickSeat(s)
		}
		if n := eval[string](h.tab, `document.querySelector('[data-t="hands"]').textContent`); n != strconv.Itoa(len(hands)) {
			h.t.Fatalf("the hand count shows %s after %d taps", n, len(hands))
		}
		v.Hands[c] = hands
		h.tap("confirm-hands")
		h.settle()
	}
	h.tap("close-vote")
	return v
}

// giveFoul gives a foul through the fouls panel: one tap on the seat, and
// a second to confirm the foul that removes the player.
func (h *host) giveFoul(s int) {
	h.t.Helper()
	h.tap("fouls")
	before := eval[int](h.tab, `window.__assistGame.rec.commands.length`)
	h.pickSeat(s)
	h.settle()
	if h.exists("give-foul") {
		h.tap("give-foul")
		h.settle()
	} else if h.exists("back") {
		h.tap("back") // one tap gave it; the panel stays open for more
		h.settle()
	}
	if after := eval[int](h.tab, `window.__assistGame.rec.commands.length`); after != before+1 {
		h.t.Fatalf("a foul to %d made %d entries", s, after-before)
	}
}

// refusedSeat taps a seat the page offers as not choosable and checks that
// it says the engine's sentence and changes nothing.
func (h *host) refusedSeat(r refusal) {
	h.t.Helper()
	sel := `.seats [data-seat="` + strconv.Itoa(r.Seat) + `"]`
	if !eval[bool](h.tab, `document.querySelector('`+sel+`').classList.contains('off')`) {
		h.t.Fatalf("seat %d is offered, but the engine refuses it (%s)", r.Seat, r.Sentence)
	}
	before := eval[int](h.tab, `window.__assistGame.rec.commands.length`)
	eval[bool](h.tab, `(() => { const t = document.getElementById('toast'); if (t) t.textContent = ''; return true; })()`)
	h.click(sel)
	h.waitJS(5*time.Second, `(document.getElementById('toast') || {}).textContent === `+strconv.Quote(r.Sentence))
	if after := eval[int](h.tab, `window.__assistGame.rec.commands.length`); after != before {
		h.t.Fatalf("a refused seat was entered")
	}
}

// syncWait is how long a page may take to send what waits.
const syncWait = 30 * time.Second

// townDriver plays the town's way: the mafia kill the first town player,
// the others act on the first seat they may, and day 1 votes out a mafioso.
func townDriver() driver {
	bad := func(st record.State, s int) bool { return st.Roles[s] == "mafia" || st.Roles[s] == "don" }
	return driver{
		night: func(st record.State, w record.Wake) int {
			for _, s := range w.Targets {
				if w.Role == "mafia" || !bad(st, s) {
					return s
				}
			}
			return 0
		},
		nominate: func(st record.State) int {
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
		hands: func(st record.State, cand int) []int { return st.Pending },
	}
}
