package review

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/bot"
	"mafia/engine"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/rng"
	"mafia/scenario"
	"mafia/web"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// narrationCase is one event as a seat received it, and how package locale
// tells it in each language.
type narrationCase struct {
	Event  wire.Event        `json:"e"`
	Viewer int               `json:"v"`
	Want   map[string]string `json:"want"`
}

// sampleGames plays bot games under several house rules, with fouls
// given now and then, and returns every event of each.
func sampleGames(t *testing.T) [][]engine.Event {
	t.Helper()
	variants := []struct {
		players int
		opts    map[string]string
	}{
		{11, nil},
		{11, map[string]string{"reveal_on_death": "role", "foul_limit": "2"}},
		{9, map[string]string{"reveal_on_death": "team", "second_tie": "ask", "last_words": "off"}},
		{7, map[string]string{"first_night": "meeting", "maniac_check": "maniac", "foul_limit": "3"}},
		{5, map[string]string{"second_tie": "all"}},
	}
	var games [][]engine.Event
	for i, v := range variants {
		for seed := uint64(1); seed <= 3; seed++ {
			rules, err := engine.ParseRules(v.opts)
			if err != nil {
				t.Fatal(err)
			}
			setup, _ := engine.Preset(v.players)
			if i == 0 && seed == 3 {
				setup = engine.Setup{Don: 1, Mafia: 2, Maniac: 1, Detective: 1, Doctor: 1, Citizens: 4}
			}
			g, evs, err := engine.New(rules, setup.Deal(seed*7+uint64(i), nil), seed)
			if err != nil {
				t.Fatal(err)
			}
			all := append([]engine.Event(nil), evs...)
			bots := make([]bot.Bot, g.Players()+1)
			for s := 1; s <= g.Players(); s++ {
				bots[s] = bot.NewRandom(rng.Derive(seed, uint64(s)))
			}
			tbl := &bot.Table{Game: g, Bots: bots, OnEvents: func(_ engine.Command, e []engine.Event) { all = append(all, e...) }}
			src := rng.New(seed + 100)
			for step := 0; step < 400 && tbl.Step(); step++ {
				if src.Intn(4) == 0 {
					target := engine.Seat(1 + src.Intn(g.Players()))
					if e, err := g.Handle(engine.Command{Verb: engine.Foul, Target: target}); err == nil {
						all = append(all, e...)
					}
				}
			}
			games = append(games, all)
		}
	}
	// Two games of players who talk (statements on their floors), one under
	// maniac_check=maniac (a report may say "the maniac" there).
	for i, opts := range []map[string]string{nil, {"maniac_check": "maniac", "reveal_on_death": "role"}} {
		rules, _ := engine.ParseRules(opts)
		setup, _ := engine.Preset(11)
		seed := uint64(40 + i)
		g, evs, err := engine.New(rules, setup.Deal(seed, nil), seed)
		if err != nil {
			t.Fatal(err)
		}
		all := append([]engine.Event(nil), evs...)
		bots := make([]bot.Bot, g.Players()+1)
		for s := 1; s <= g.Players(); s++ {
			bots[s] = bot.NewTalker(rng.Derive(seed, uint64(s)))
		}
		tbl := &bot.Table{Game: g, Bots: bots, OnEvents: func(_ engine.Command, e []engine.Event) { all = append(all, e...) }}
		tbl.Play(400)
		games = append(games, all)
	}
	// Two games that reach "shall all of them leave?" (found by seed).
	for _, seed := range []uint64{2, 4} {
		rules, _ := engine.ParseRules(map[string]string{"second_tie": "ask"})
		setup, _ := engine.Preset(11)
		g, evs, err := engine.New(rules, setup.Deal(seed, nil), seed)
		if err != nil {
			t.Fatal(err)
		}
		all := append([]engine.Event(nil), evs...)
		bots := make([]bot.Bot, g.Players()+1)
		for s := 1; s <= g.Players(); s++ {
			bots[s] = bot.NewRandom(rng.Derive(seed, uint64(s)))
		}
		tbl := &bot.Table{Game: g, Bots: bots, OnEvents: func(_ engine.Command, e []engine.Event) { all = append(all, e...) }}
		tbl.Play(400)
		games = append(games, all)
	}
	return games
}

// TestBrowserNarrationMatchesTheServer: the page tells every event of real
// games, for every seat and a spectator, in every language, exactly as
// package locale does (static/js/narrate.js mirrors locale/event.go).
func TestBrowserNarrationMatchesTheServer(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	printers := map[string]*locale.Printer{}
	for _, l := range locale.Langs() {
		printers[string(l)] = locale.New(l)
	}
	var cases []narrationCase
	seen := map[string]bool{}
	kinds := map[string]bool{}
	victims := map[int]bool{} // the mornings' counts of victims (the sentence counts them)
	for _, log := range sampleGames(t) {
		g, err := engine.Replay(log)
		if err != nil {
			t.Fatal(err)
		}
		n := g.Players()
		for viewer := 0; viewer <= n; viewer++ {
			for _, e := range log {
				ev, ok := g.EventFor(e, engine.Seat(viewer))
				if !ok {
					continue
				}
				w := wire.FromEvent(ev, n)
				key, _ := json.Marshal(struct {
					E wire.Event
					V int
				}{w, viewer})
				if seen[string(key)] {
					continue
				}
				seen[string(key)] = true
				kinds[w.Kind] = true
				if w.Kind == "night_ended" {
					victims[len(w.Seats)] = true
				}
				if w.Kind == "tie" {
					kinds["tie/"+w.Phase] = true
				}
				if w.Kind == "statement" {
					kinds["statement/"+w.Verb] = true
				}
				c := narrationCase{Event: w, Viewer: viewer, Want: map[string]string{}}
				for l, p := range printers {
					c.Want[l] = p.Event(ev, engine.Seat(viewer))
				}
				cases = append(cases, c)
			}
		}
	}
	for k := engine.EvGameStarted; k.String() != "?"; k++ {
		if !kinds[k.String()] {
			t.Errorf("the sample games have no %s event", k)
		}
	}
	for _, n := range []int{0, 1, 2} {
		if !victims[n] {
			t.Errorf("the sample games have no morning with %d victims", n)
		}
	}
	for _, k := range []string{"tie/vote", "tie/revote", "statement/claim", "statement/report", "statement/suspect", "statement/vouch", "statement/will_nominate"} {
		if !kinds[k] {
			t.Errorf("the sample games have no %s (a tie in the vote, and a tie again in the revote)", k)
		}
	}
	data, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	p := webtest.NewTab(t, "narration", 800, 600)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/"), browsertest.WaitVisible(chromedp.CSS("#create")))
	base := "/static/" + web.Version() + "/js/"
	script := fmt.Sprintf(`(async () => {
		const i18n = await import(%q);
		const { narrate } = await import(%q);
		const cases = %s;
		const bad = [];
		for (const lang of ['en', 'ka', 'ru']) {
			await i18n.load(lang);
			for (const c of cases) {
				const got = narrate(c.e, c.v);
				if (got !== c.want[lang] && bad.length < 20) bad.push({ lang, kind: c.e.kind, viewer: c.v, got, want: c.want[lang] });
			}
		}
		await i18n.load('en');
		return JSON.stringify({ n: cases.length, bad });
	})()`, base+"i18n.js", base+"narrate.js", data)
	ctx, cancel := webtest.ContextWithTimeout(p, 60*time.Second)
	defer cancel()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		N   int `json:"n"`
		Bad []struct {
			Lang, Kind, Got, Want string
			Viewer                int
		} `json:"bad"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	for _, b := range res.Bad {
		t.Errorf("%s %s for seat %d:\n got: %q\nwant: %q", b.Lang, b.Kind, b.Viewer, b.Got, b.Want)
	}
	if res.N != len(cases) {
		t.Errorf("the page checked %d cases of %d", res.N, len(cases))
	}
	t.Logf("%d events told alike in en, ka and ru (%d kinds)", len(cases), len(kinds))
}

// exampleLog plays a conformance example of scenario/testdata/examples
// (its actions and nexts; refusals and assertions left out) and returns
// every event.
func exampleLog(t *testing.T, name string) []engine.Event {
	t.Helper()
	sc, err := scenario.Load(filepath.Join("..", "..", "..", "scenario", "testdata", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	g, evs, err := engine.New(sc.Rules, sc.Roles, sc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	log := append([]engine.Event(nil), evs...)
	do := func(c engine.Command) {
		evs, err := g.Handle(c)
		if err != nil {
			t.Fatalf("%s: %+v: %v", name, c, err)
		}
		log = append(log, evs...)
	}
	for _, st := range sc.Steps {
		switch {
		case st.Kind == scenario.StepAction && !st.Reject:
			do(st.Cmd)
		case st.Kind == scenario.StepNext:
			for range st.Times {
				do(engine.Command{Verb: engine.Next})
			}
		}
	}
	return log
}

// TestBrowserTimelineTellsATieAgain renders the game-over timeline
// (static/js/gameover.js) of a game with a tie, a tie again in the repeat
// vote and "shall all of them leave?" (example 04), in every language: the
// first tie says the tied speak once more; the second says the repeat vote
// is tied too and is followed by the question, never by the first tie's
// sentence.
func TestBrowserTimelineTellsATieAgain(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	log := exampleLog(t, "04-tie-revote-all-leave.json")
	g, err := engine.Replay(log)
	if err != nil {
		t.Fatal(err)
	}
	var events []wire.Event
	for _, e := range log {
		if ev, ok := g.EventFor(e, 0); ok {
			events = append(events, wire.FromEvent(ev, g.Players()))
		}
	}
	data, err := json.Marshal(events)
	if err != nil {
		t.Fatal(err)
	}
	p := webtest.NewTab(t, "timeline-tie", 800, 600)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/"), browsertest.WaitVisible(chromedp.CSS("#create")))
	base := "/static/" + web.Version() + "/js/"
	script := fmt.Sprintf(`(async () => {
		const i18n = await import(%q);
		const { renderOver } = await import(%q);
		const events = %s;
		const out = {};
		for (const lang of ['en', 'ka', 'ru']) {
			await i18n.load(lang);
			const st = { view: { phase: 'ended', winner: 'town' }, events, fullLog: events, seat: 0, lobby: null };
			const tl = renderOver(st, {}).find((n) => n.id === 'timeline');
			out[lang] = [...tl.querySelectorAll('li.ev')].map((li) =>
				[...li.querySelectorAll('.line')].map((l) => l.textContent).join('\n'));
		}
		await i18n.load('en');
		return JSON.stringify(out);
	})()`, base+"i18n.js", base+"gameover.js", data)
	ctx, cancel := webtest.ContextWithTimeout(p, 60*time.Second)
	defer cancel()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var items map[string][]string
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatal(err)
	}
	for _, l := range locale.Langs() {
		pr := locale.New(l)
		seats := map[string]any{"Seats": pr.Seats([]engine.Seat{4, 1})}
		first, again := pr.T("event.tie", seats), pr.T("event.tie_again", seats)
		allVote := pr.T("event.all_vote_began", nil)
		var ties []string
		got := items[string(l)]
		for i, item := range got {
			if item == first || item == again {
				ties = append(ties, item)
			}
			if item == again && (i+1 == len(got) || got[i+1] != allVote) {
				t.Errorf("%s: the timeline's %q is not followed by %q", l, again, allVote)
			}
		}
		if len(ties) != 2 || ties[0] != first || ties[1] != again {
			t.Errorf("%s: the timeline's ties read %q, want %q then %q\n%s", l, ties, first, again, strings.Join(got, "\n"))
		}
	}
}
