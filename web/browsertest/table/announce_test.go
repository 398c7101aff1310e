package table

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web"
	"mafia/web/internal/webtest"
)

// TestBrowserAnnouncementsAndCues runs the page's announcements and cues
// (static/js/announce.js) in the browser over the events of a day and a
// night (issue 13, "What to build" 2): the morning says who died; the
// vote's result says the count and who leaves; a tie says who is tied and
// what follows (they speak again; a tie again, the question to all); the
// player who left is told so; each stays until the next vote begins; and
// the moments that call for a sound are the night, the morning, being
// nominated and one's own floor.
func TestBrowserAnnouncementsAndCues(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	ev := func(kind string, f map[string]any) map[string]any {
		e := map[string]any{"kind": kind, "round": 1}
		for k, v := range f {
			e[k] = v
		}
		return e
	}
	// around is what the English sentence id says around its list of seats.
	around := func(id string) []string {
		var out []string
		for _, part := range strings.Split(locale.New(locale.En).T(id, map[string]any{"Seats": "\x00"}), "\x00") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
		return out
	}
	cases := []struct {
		name   string
		events []map[string]any
		kind   string // "" for none
		says   []string
		you    bool
	}{
		{"the morning", []map[string]any{ev("night_began", nil), ev("night_ended", map[string]any{"seats": []int{4}}),
			ev("player_out", map[string]any{"target": 4, "cause": "night"})}, "morning", []string{"Seat 4"}, false},
		{"the morning that kills this seat", []map[string]any{ev("night_ended", map[string]any{"seats": []int{2}}),
			ev("player_out", map[string]any{"target": 2, "cause": "night"})}, "morning", []string{locale.New(locale.En).T("event.out_night_you", nil)}, true},
		{"a vote's result", []map[string]any{ev("vote_began", map[string]any{"candidates": []int{3, 5}}),
			ev("vote_closed", map[string]any{"ballot": []int{3, 3, 3, 5, 3, 5, 3}}), ev("player_out", map[string]any{"target": 3, "cause": "vote"})},
			"vote", []string{"Seat 3"}, false},
		{"a tie and what follows", []map[string]any{ev("vote_began", map[string]any{"candidates": []int{3, 5}}),
			ev("vote_closed", map[string]any{"ballot": []int{3, 3, 3, 5, 5, 5, 0}}), ev("tie", map[string]any{"phase": "vote", "candidates": []int{3, 5}})},
			"vote", append(around("event.tie"), "Seat 3", "Seat 5"), false},
		{"a tie again", []map[string]any{ev("vote_began", map[string]any{"phase": "revote", "candidates": []int{3, 5}}),
			ev("vote_closed", map[string]any{"ballot": []int{3, 3, 3, 5, 5, 5, 0}}), ev("tie", map[string]any{"phase": "revote", "candidates": []int{3, 5}})},
			"vote", append(around("event.tie_again"), "Seat 3", "Seat 5"), false},
		{"gone at the next vote", []map[string]any{ev("night_ended", map[string]any{"seats": []int{4}}),
			ev("player_out", map[string]any{"target": 4, "cause": "night"}), ev("vote_began", map[string]any{"candidates": []int{1}})}, "", nil, false},
	}
	type jsCase struct {
		Events []map[string]any `json:"events"`
	}
	var in []jsCase
	for _, c := range cases {
		in = append(in, jsCase{c.events})
	}
	cueEvents := []map[string]any{ev("night_began", nil), ev("night_ended", nil), ev("nominated", map[string]any{"actor": 5, "target": 2}),
		ev("nominated", map[string]any{"actor": 2, "target": 6}), ev("speech", map[string]any{"target": 2}), ev("speech", map[string]any{"target": 3})}
	data, _ := json.Marshal(map[string]any{"cases": in, "cues": cueEvents})
	p := webtest.NewTab(t, "announce", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/"), browsertest.WaitVisible(chromedp.CSS("#create")))
	p.Do(5*time.Second, webtest.TapSetting(`button[data-lang="en"]`))
	p.WaitJS(5*time.Second, `document.documentElement.lang === 'en'`)
	base := "/static/" + web.Version() + "/js/"
	script := fmt.Sprintf(`(async () => {
		const { announcementOf, cues } = await import(%q);
		const d = %s;
		const label = (s) => 'Seat ' + s;
		return JSON.stringify({
			anns: d.cases.map((c) => announcementOf(c.events, 2, label)),
			cues: cues(d.cues, 2),
		});
	})()`, base+"announce.js", data)
	ctx, cancel := webtest.ContextWithTimeout(p, 20*time.Second)
	defer cancel()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Anns []*struct {
			Kind  string   `json:"kind"`
			Lines []string `json:"lines"`
			You   bool     `json:"you"`
		} `json:"anns"`
		Cues []string `json:"cues"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		a := got.Anns[i]
		if c.kind == "" {
			if a != nil {
				t.Errorf("%s: an announcement %+v, want none", c.name, a)
			}
			continue
		}
		if a == nil || a.Kind != c.kind || a.You != c.you {
			t.Errorf("%s: %+v, want a %s announcement (you: %v)", c.name, a, c.kind, c.you)
			continue
		}
		text := strings.Join(a.Lines, "\n")
		for _, w := range c.says {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q does not say %q", c.name, text, w)
			}
		}
	}
	if want := []string{"night", "morning", "nominated", "turn"}; fmt.Sprint(got.Cues) != fmt.Sprint(want) {
		t.Errorf("the cues are %v, want %v", got.Cues, want)
	}
}
