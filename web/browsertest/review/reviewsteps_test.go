package review

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"mafia/engine"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web/internal/webtest"
)

// stepSeen is what one step of the review's stepper shows, read from its
// DOM.
type stepSeen struct {
	Step  int               `json:"step"`
	View  int               `json:"view"`
	Group string            `json:"group"`
	Pos   string            `json:"pos"`
	Kinds []string          `json:"kinds"` // the events' kinds
	Chat  []string          `json:"chat"`  // the chat lines' channels
	Cards map[string]string `json:"cards"` // seat → the card shown on the board
	Hash  string            `json:"hash"`
}

const readStep = `(() => {
  const st = document.querySelector('#rv-step');
  const cards = {};
  for (const li of document.querySelectorAll('#rv-board li')) cards[li.dataset.seat] = li.dataset.card;
  return {
    step: +st.dataset.step, view: +st.dataset.view, group: st.dataset.group,
    pos: document.querySelector('#rv-pos').textContent,
    kinds: [...st.querySelectorAll('li.ev')].map((li) => li.dataset.kind),
    chat: [...st.querySelectorAll('li.chat')].map((li) => li.dataset.channel),
    cards, hash: location.hash
  };
})()`

// walkSteps reads every step from the first to the last, tapping Forward
// (one evaluation: the stepper draws each step as it is tapped).
const walkSteps = `(() => {
  document.querySelector('#rv-first').click();
  const out = [];
  for (let k = 0; k < 1000; k++) {
    const st = document.querySelector('#rv-step');
    const cards = {};
    for (const li of document.querySelectorAll('#rv-board li')) cards[li.dataset.seat] = li.dataset.card;
    out.push({
      step: +st.dataset.step, view: +st.dataset.view, group: st.dataset.group,
      pos: document.querySelector('#rv-pos').textContent,
      kinds: [...st.querySelectorAll('li.ev')].map((li) => li.dataset.kind),
      chat: [...st.querySelectorAll('li.chat')].map((li) => li.dataset.channel),
      cards, hash: location.hash
    });
    const fwd = document.querySelector('#rv-forward');
    if (fwd.disabled) break;
    fwd.click();
  }
  return out;
})()`

// TestBrowserReviewStepsForwardBackAndByLink (issue 28, "What to build"
// item 2): the review of a finished bot game at 360x740 opens as steps:
// the first step with Back disabled; Forward, the arrow keys and Last move
// it, the hash follows (step and point of view), and a link with a hash
// opens that step from that seat's point of view. From everyone's view
// every card is on the board from the deal; a town seat's view never
// shows the mafia's choice or chat, another seat's check or night action,
// nor another seat's card before the end; a mafioso's view shows the
// mafia's choice and its team's cards. The whole record stays, behind a
// toggle. Screenshots in the three languages.
func TestBrowserReviewStepsForwardBackAndByLink(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	rt := webtest.NewReviewTable(ctx, t, ts, "Steps", true)
	rt.Leave()
	log := rt.WaitEnd(ctx)
	g, err := engine.Replay(log)
	if err != nil {
		t.Fatal(err)
	}
	var town, mafia engine.Seat
	for s := engine.Seat(1); s <= webtest.ReviewPlayers; s++ {
		r := g.Role(s)
		if r.IsMafia() && mafia == 0 {
			mafia = s
		}
		if r == engine.Citizen && town == 0 {
			town = s
		}
	}
	if town == 0 || mafia == 0 {
		t.Fatalf("no citizen or no mafioso in the deal")
	}
	roleOf := func(s int) string { return g.Role(engine.Seat(s)).String() }

	p := webtest.NewTab(t, "review-steps", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/t/"+rt.ID+"/review"), browsertest.WaitVisible(chromedp.CSS("#rv-stepper")))
	first := webtest.Eval[stepSeen](p, readStep)
	if first.Step != 0 || first.View != 0 || !webtest.Eval[bool](p, `document.querySelector('#rv-back').disabled && document.querySelector('#rv-first').disabled`) {
		t.Fatalf("the review does not open at its first step from everyone's view: %+v", first)
	}
	if webtest.Eval[bool](p, `getComputedStyle(document.querySelector('#rv-full')).display !== 'none'`) {
		t.Error("the whole record shows beside the steps before it is asked for")
	}

	// Forward, by the button and the key; back by the key.
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-forward")))
	p.WaitJS(5*time.Second, `document.querySelector('#rv-step').dataset.step === '1' && location.hash === '#step=1&view=0'`)
	p.Do(5*time.Second, chromedp.KeyEvent(kb.ArrowRight))
	p.WaitJS(5*time.Second, `document.querySelector('#rv-step').dataset.step === '2' && location.hash === '#step=2&view=0'`)
	p.Do(5*time.Second, chromedp.KeyEvent(kb.ArrowLeft))
	p.WaitJS(5*time.Second, `document.querySelector('#rv-step').dataset.step === '1'`)
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-last")))
	last := webtest.Eval[stepSeen](p, readStep)
	if last.Group != "end" || !webtest.Eval[bool](p, `document.querySelector('#rv-forward').disabled`) {
		t.Errorf("Last does not reach the end: %+v", last)
	}
	for s := 1; s <= webtest.ReviewPlayers; s++ {
		if last.Cards[fmt.Sprint(s)] != roleOf(s) {
			t.Errorf("the end's board shows seat %d as %q, dealt %s", s, last.Cards[fmt.Sprint(s)], roleOf(s))
		}
	}
	p.Do(5*time.Second, chromedp.KeyEvent(kb.Home))
	p.WaitJS(5*time.Second, `document.querySelector('#rv-step').dataset.step === '0'`)

	// Everyone's view: every card from the deal on; each step counted.
	all := webtest.Eval[[]stepSeen](p, walkSteps)
	if len(all) < 6 {
		t.Fatalf("only %d steps in a whole game", len(all))
	}
	deal, night := -1, -1
	for k, st := range all {
		if st.Step != k {
			t.Fatalf("step %d reads as %d", k, st.Step)
		}
		if st.Group == "deal" && deal < 0 {
			deal = k
		}
		if st.Group == "night" && night < 0 {
			night = k
		}
	}
	if deal < 0 || night < 0 {
		t.Fatalf("no deal or no night among the steps")
	}
	for s := 1; s <= webtest.ReviewPlayers; s++ {
		if all[deal].Cards[fmt.Sprint(s)] != roleOf(s) {
			t.Errorf("everyone's view of the deal shows seat %d as %q, dealt %s", s, all[deal].Cards[fmt.Sprint(s)], roleOf(s))
		}
	}

	// A link to a night from the town seat's view opens there.
	p.Do(15*time.Second, chromedp.Navigate(fmt.Sprintf("%s/t/%s/review#step=%d&view=%d", ts.URL, rt.ID, night, town)),
		browsertest.WaitVisible(chromedp.CSS("#rv-stepper")))
	p.WaitJS(10*time.Second, fmt.Sprintf(`document.querySelector('#rv-step').dataset.step === '%d' && document.querySelector('#rv-view').value === '%d'`, night, town))
	at := webtest.Eval[stepSeen](p, readStep)
	if at.Group != "night" || at.View != int(town) {
		t.Errorf("the link opened %+v, not the night from seat %d's view", at, town)
	}
	p.Shot("90-review-step-night-town-en-360")

	// The town seat saw nothing of the mafia's, nor another's night.
	sawMafia := false
	for _, st := range webtest.Eval[[]stepSeen](p, walkSteps) {
		if st.View != int(town) {
			t.Fatalf("the view changed while stepping: %+v", st)
		}
		for _, k := range st.Kinds {
			if k == "mafia_chose" {
				t.Errorf("step %d: the citizen's view shows the mafia's choice", st.Step)
			}
		}
		for _, c := range st.Chat {
			if c == "mafia" {
				t.Errorf("step %d: the citizen's view shows the mafia's chat", st.Step)
			}
		}
		if st.Group != "end" {
			for s, c := range st.Cards {
				if c != "" && s != fmt.Sprint(town) {
					t.Errorf("step %d: the citizen's view shows seat %s's card %q before the end", st.Step, s, c)
				}
			}
		}
	}
	// Nor any night action: a citizen has none of its own.
	if n := webtest.Eval[int](p, `(() => {
	  document.querySelector('#rv-first').click();
	  let n = 0;
	  for (let k = 0; k < 1000; k++) {
	    n += document.querySelectorAll('#rv-step li.ev[data-kind=checked], #rv-step li.ev[data-kind=healed], #rv-step li.ev[data-kind=shot]').length;
	    const f = document.querySelector('#rv-forward'); if (f.disabled) break; f.click();
	  }
	  return n;
	})()`); n > 0 {
		t.Errorf("the citizen's view shows %d night actions", n)
	}

	// The mafioso's view: the mafia's choice, and its team's cards.
	p.WaitJS(5*time.Second, fmt.Sprintf(`(() => { const s = document.querySelector('#rv-view'); s.value = '%d'; s.dispatchEvent(new Event('change')); return true; })()`, mafia))
	p.WaitJS(5*time.Second, fmt.Sprintf(`document.querySelector('#rv-step').dataset.view === '%d' && location.hash.endsWith('view=%d')`, mafia, mafia))
	chose := false
	for _, st := range webtest.Eval[[]stepSeen](p, walkSteps) {
		for _, k := range st.Kinds {
			chose = chose || k == "mafia_chose"
		}
		for _, c := range st.Chat {
			sawMafia = sawMafia || c == "mafia"
		}
		if st.Group == "deal" {
			for s := 1; s <= webtest.ReviewPlayers; s++ {
				want := ""
				if g.Role(engine.Seat(s)).IsMafia() {
					want = roleOf(s)
				}
				if got := st.Cards[fmt.Sprint(s)]; got != want {
					t.Errorf("the mafioso's deal shows seat %d as %q, want %q", s, got, want)
				}
			}
		}
	}
	if !chose {
		t.Error("the mafioso's view never shows the mafia's choice")
	}
	t.Logf("%d steps; the mafia's chat shown to the mafioso: %v", len(all), sawMafia)

	// The three languages, at a night from everyone's view; no sideways
	// scroll; then the whole record, behind its toggle.
	p.Do(15*time.Second, chromedp.Navigate(fmt.Sprintf("%s/t/%s/review#step=%d&view=0", ts.URL, rt.ID, night+1)),
		browsertest.WaitVisible(chromedp.CSS("#rv-stepper")))
	for _, lang := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		p.Do(5*time.Second, webtest.TapSetting(`button[data-lang="`+string(lang)+`"]`))
		p.WaitJS(10*time.Second, `document.documentElement.lang === '`+string(lang)+`' && window.__mafiaReview && window.__mafiaReview.lang === '`+string(lang)+`' && !window.__mafiaReview.asking && !!document.querySelector('#rv-step')`)
		if st := webtest.Eval[stepSeen](p, readStep); st.Step != night+1 {
			t.Errorf("%s: the language switch moved the step to %d", lang, st.Step)
		}
		want := locale.New(lang).T("web.review.step.position", map[string]any{"N": night + 2, "Count": len(all)})
		if pos := webtest.Eval[string](p, `document.querySelector('#rv-pos').textContent`); pos != want {
			t.Errorf("%s: the position reads %q, want %q", lang, pos, want)
		}
		if small := webtest.Eval[int](p, `[...document.querySelectorAll('#rv-stepper button, #rv-view')].filter((b) => { const r = b.getBoundingClientRect(); return r.height < 44 || r.width < 44; }).length`); small > 0 {
			t.Errorf("%s: %d of the stepper's controls are under 44 px", lang, small)
		}
		if lang != locale.En {
			webtest.NoEnglish(p, lang)
		}
		p.Shot("91-review-steps-" + string(lang) + "-360")
	}
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-mode")))
	p.WaitJS(5*time.Second, `getComputedStyle(document.querySelector('#rv-full')).display !== 'none' && document.querySelector('#rv-stepper').hidden`)
	p.Shot("92-review-whole-ru-360")
}
