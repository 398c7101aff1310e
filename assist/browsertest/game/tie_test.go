package game

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/locale"
)

// TestHostReadsATieAgainAsATieAgain plays the conformance example of a tie,
// a tie again in the repeat vote and "shall all of them leave?" (04) on the
// host's screens, in every language, and reads what the host is given to
// announce: after the vote, the first tie's sentence (the tied speak again,
// then the town votes again); after the repeat vote, that the repeat vote
// is tied too and the question, never the first tie's sentence again.
func TestHostReadsATieAgainAsATieAgain(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	const name = "04-tie-revote-all-leave.json"
	// One page plays the three games, switched to each language in place
	// from the home screen (a fresh page costs more than a game's screens).
	h := hosttest.OpenHost(t, ts, "tie")
	for _, lang := range []string{"ka", "en", "ru"} {
		p := locale.New(locale.Lang(lang))
		s := hosttest.LoadScript(t, name)
		h.Home()
		h.SetValue(`[data-t="lang"]`, lang)
		h.WaitJS(5*time.Second, fmt.Sprintf(`document.documentElement.lang === %q`, lang))
		spec := hosttest.GameSpec{Deal: record.DealManual, Roles: record.RoleNames(s.Sc.Roles), Options: s.Sc.Rules.Map()}
		for i := range s.Sc.Roles {
			spec.Names = append(spec.Names, fmt.Sprintf("P%d", i+1))
		}
		h.Create(spec)
		var said [][]string // each announcement's lines
		d := s.Driver()
		d.Each = func(screen string, _ record.State) {
			if screen == "announce" {
				said = append(said, hosttest.Lines(hosttest.Eval[string](h.Tab,
					`[...document.querySelectorAll('[data-t="announce"] p.say')].map((p) => p.textContent).join('\n')`)))
			}
		}
		h.Play(d)
		who := func(seats ...int) string {
			var out []string
			for _, s := range seats {
				out = append(out, p.T("assist.who", map[string]any{"Seat": s, "Name": fmt.Sprintf("P%d", s)}))
			}
			return strings.Join(out, ", ")
		}
		first := p.T("assist.ann.tie", map[string]any{"Who": who(4, 1)})
		again := p.T("assist.ann.tie_again", map[string]any{"Who": who(4, 1)})
		allVote := p.T("assist.ann.all_vote", nil)
		var ties []string
		for _, a := range said {
			for i, l := range a {
				if l == first || l == again {
					ties = append(ties, l)
				}
				if l == again && (i+1 == len(a) || a[i+1] != allVote) {
					t.Errorf("%q is not followed by %q: %q", again, allVote, a)
				}
			}
		}
		if len(ties) != 2 || ties[0] != first || ties[1] != again {
			t.Errorf("%s: the host announced the ties as %q, want %q then %q\nall announcements: %q", lang, ties, first, again, said)
		}
	}
}
