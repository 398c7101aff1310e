package table

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/web"
	"mafia/web/internal/webtest"
)

// stateFrame is one frame received by the page, at the page's time now.
type stateFrame struct {
	M   map[string]any `json:"m"`
	Now int64          `json:"now"`
}

// stateCase folds frames into a new state (after setup, fields of the
// state set first) and wants the fields of want in the state and, of the
// last frame's effects, the fields of fx.
type stateCase struct {
	Name   string         `json:"name"`
	Setup  map[string]any `json:"setup,omitempty"`
	Frames []stateFrame   `json:"frames"`
	Want   map[string]any `json:"want"`
	Fx     map[string]any `json:"fx"`
}

func speechView(round, speaker int) map[string]any {
	return map[string]any{"round": round, "phase": "speech", "speaker": speaker, "step": round*10 + speaker}
}

func ev(kind string) map[string]any { return map[string]any{"kind": kind} }

// stateCases are the rules of web/static/js/state.js: how the server's
// frames make the table's state (docs/protocol.md: welcome, update,
// warning, chat, error) and what the screen is told to do.
var stateCases = []stateCase{
	{Name: "a welcome seats the page and takes the view, the events and the clock",
		Frames: []stateFrame{{M: map[string]any{"type": "welcome", "seat": 3, "host": true, "seq": 2,
			"events": []any{ev("game_started"), ev("night_began")}, "view": map[string]any{"phase": "night", "round": 1},
			"deadline": 5000, "now": 1000}, Now: 900}},
		Want: map[string]any{"seat": 3, "host": true, "seq": 2, "events.length": 2, "view.phase": "night", "deadline": 5000, "offset": 100},
		Fx:   map[string]any{"tell": nil, "reconnect": false}},
	{Name: "a welcome without a view is a lobby: no view and no events",
		Setup:  map[string]any{"seq": 4},
		Frames: []stateFrame{{M: map[string]any{"type": "welcome", "seat": 2, "lobby": map[string]any{"name": "T"}}}},
		Want:   map[string]any{"seat": 2, "view": nil, "events.length": 0, "seq": 0, "lobby.name": "T"}},
	{Name: "a welcome after a reconnect keeps the events the page has and tells the new ones",
		Frames: []stateFrame{
			{M: map[string]any{"type": "welcome", "seat": 1, "seq": 2, "events": []any{ev("game_started"), ev("night_began")}, "view": speechView(1, 1)}},
			{M: map[string]any{"type": "welcome", "seat": 1, "seq": 3, "events": []any{ev("speech")}, "view": speechView(1, 2)}},
		},
		Want: map[string]any{"events.length": 3, "seq": 3, "view.speaker": 2},
		Fx:   map[string]any{"tell.length": 1}},
	{Name: "an update appends its events and tells them",
		Frames: []stateFrame{
			{M: map[string]any{"type": "welcome", "seat": 1, "seq": 1, "events": []any{ev("game_started")}, "view": speechView(1, 1)}},
			{M: map[string]any{"type": "update", "seq": 3, "events": []any{ev("speech"), ev("nominated")}, "view": speechView(1, 2), "deadline": 9000}},
		},
		Want: map[string]any{"events.length": 3, "seq": 3, "deadline": 9000},
		Fx:   map[string]any{"tell.length": 2, "reconnect": false}},
	{Name: "a gap in the events empties them and asks for a reconnect, taking nothing of the frame",
		Frames: []stateFrame{
			{M: map[string]any{"type": "welcome", "seat": 1, "seq": 1, "events": []any{ev("game_started")}, "view": speechView(1, 1)}},
			{M: map[string]any{"type": "update", "seq": 5, "events": []any{ev("speech")}, "view": speechView(1, 3)}},
		},
		Want: map[string]any{"events.length": 0, "view.speaker": 1},
		Fx:   map[string]any{"reconnect": true, "tell": nil}},
	{Name: "a view ends the wait for a held move's view",
		Setup:  map[string]any{"waitView": true, "busy": true, "sent": map[string]any{"verb": "vote"}},
		Frames: []stateFrame{{M: map[string]any{"type": "update", "view": map[string]any{"phase": "night", "round": 1}}}},
		Want:   map[string]any{"waitView": false, "busy": false, "sent": nil}},
	{Name: "an update with no view keeps the wait",
		Setup:  map[string]any{"waitView": true, "busy": true},
		Frames: []stateFrame{{M: map[string]any{"type": "update", "lobby": map[string]any{"name": "T"}}}},
		Want:   map[string]any{"waitView": true, "busy": true}},
	{Name: "a warning in a speech signals its last seconds",
		Frames: []stateFrame{
			{M: map[string]any{"type": "welcome", "seat": 1, "seq": 0, "view": speechView(1, 1)}},
			{M: map[string]any{"type": "warning", "deadline": 4000}},
		},
		Want: map[string]any{"deadline": 4000},
		Fx:   map[string]any{"signal": "warn"}},
	{Name: "a warning out of a speech signals nothing",
		Frames: []stateFrame{
			{M: map[string]any{"type": "welcome", "seat": 1, "view": map[string]any{"phase": "vote", "round": 1}}},
			{M: map[string]any{"type": "warning", "deadline": 4000}},
		},
		Fx: map[string]any{"signal": ""}},
	{Name: "a speech whose step changes at its deadline ran out: the end signal",
		Frames: []stateFrame{
			{M: map[string]any{"type": "welcome", "seat": 1, "view": speechView(1, 1), "deadline": 10000}, Now: 0},
			{M: map[string]any{"type": "update", "view": speechView(1, 2), "deadline": 20000}, Now: 9800},
		},
		Fx: map[string]any{"signal": "end"}},
	{Name: "a speech passed early ends with no signal",
		Frames: []stateFrame{
			{M: map[string]any{"type": "welcome", "seat": 1, "view": speechView(1, 1), "deadline": 10000}, Now: 0},
			{M: map[string]any{"type": "update", "view": speechView(1, 2), "deadline": 20000}, Now: 3000},
		},
		Fx: map[string]any{"signal": ""}},
	{Name: "the server's clock is the page's with its offset",
		Frames: []stateFrame{
			{M: map[string]any{"type": "welcome", "seat": 1, "view": speechView(1, 1), "deadline": 10000, "now": 5000}, Now: 0},
			{M: map[string]any{"type": "update", "view": speechView(1, 2), "deadline": 20000}, Now: 4900},
		},
		Want: map[string]any{"offset": 5000},
		Fx:   map[string]any{"signal": "end"}},
	{Name: "a pause is kept until a frame without it",
		Frames: []stateFrame{
			{M: map[string]any{"type": "welcome", "seat": 1, "view": speechView(1, 1), "paused": true}},
		},
		Want: map[string]any{"paused": true, "deadline": 0}},
	{Name: "a chat line goes to the chat and changes no state",
		Frames: []stateFrame{{M: map[string]any{"type": "chat", "channel": "town", "text": "hi"}}},
		Want:   map[string]any{"seat": 0, "events.length": 0},
		Fx:     map[string]any{"chat.text": "hi"}},
	{Name: "an error that answers no request is shown; one that answers a request is its caller's",
		Frames: []stateFrame{{M: map[string]any{"type": "error", "code": "paused", "message": "The game is paused"}}},
		Fx:     map[string]any{"alert": "The game is paused"}},
	{Name: "an error answering a request shows nothing here",
		Frames: []stateFrame{{M: map[string]any{"type": "error", "id": 4, "code": "not_your_turn", "message": "no"}}},
		Fx:     map[string]any{"alert": ""}},
}

// TestTheTableStateFollowsTheProtocol runs state.js, the page's pure
// state module, in Chromium over the cases above.
func TestTheTableStateFollowsTheProtocol(t *testing.T) {
	ts := webtest.StartServer(t)
	data, err := json.Marshal(stateCases)
	if err != nil {
		t.Fatal(err)
	}
	p := webtest.NewTab(t, "state", 800, 600)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/"), browsertest.WaitVisible(chromedp.CSS("#create")))
	script := fmt.Sprintf(`(async () => {
		const { newState, receive } = await import(%q);
		const get = (o, path) => path.split('.').reduce((v, k) => (v == null ? undefined : v[k]), o);
		const same = (a, b) => JSON.stringify(a === undefined ? null : a) === JSON.stringify(b === undefined ? null : b);
		const out = {};
		for (const c of %s) {
			const st = Object.assign(newState('t1', false), c.setup || {});
			let fx = null;
			for (const f of c.frames) fx = receive(st, f.m, f.now || 0);
			const bad = [];
			for (const [k, v] of Object.entries(c.want || {})) if (!same(get(st, k), v)) bad.push('state.' + k + ' = ' + JSON.stringify(get(st, k)) + ', want ' + JSON.stringify(v));
			for (const [k, v] of Object.entries(c.fx || {})) if (!same(get(fx, k), v)) bad.push('fx.' + k + ' = ' + JSON.stringify(get(fx, k)) + ', want ' + JSON.stringify(v));
			out[c.name] = bad;
		}
		return JSON.stringify(out);
	})()`, "/static/"+web.Version()+"/js/state.js", data)
	ctx, cancel := webtest.ContextWithTimeout(p, 30*time.Second)
	defer cancel()
	res, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string][]string
	if err := json.Unmarshal([]byte(res), &got); err != nil {
		t.Fatal(err)
	}
	for _, c := range stateCases {
		t.Run(c.Name, func(t *testing.T) {
			bad, ok := got[c.Name]
			if !ok {
				t.Fatal("the page did not run this case")
			}
			for _, b := range bad {
				t.Error(b)
			}
		})
	}
}
