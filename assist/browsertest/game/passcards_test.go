package game

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/locale"
)

// TestThePhonePassedRoundShowsEachCardAsTheOnlineTableDoes (issue 28, item
// 3's leftover): at night 1 of a deal where the host's phone is passed
// round, each player's card, revealed, is the card as the online table
// draws it (rolecard.js): the card's name and side, what it does at night,
// how it wins and a tip, from the catalogs, in Georgian, English and
// Russian, on a 360x740 screen without sideways scrolling; hidden again,
// none of it stays on the screen. The deal holds all six cards.
func TestThePhonePassedRoundShowsEachCardAsTheOnlineTableDoes(t *testing.T) {
	t.Parallel()
	// One page deals the three languages' games, switched to each in place
	// from the home screen (a fresh page costs more than a deal's screens).
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "pass-cards")
	for _, lang := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		p := locale.New(lang)
		h.Home()
		h.SetValue(`[data-t="lang"]`, string(lang))
		h.WaitJS(5*time.Second, `document.documentElement.lang === '`+string(lang)+`'`)
		names := hosttest.Names11[:10]
		h.Create(hosttest.GameSpec{Names: names, Deal: record.DealPass,
			Custom: map[string]int{"citizen": 4, "detective": 1, "doctor": 1, "mafia": 2, "don": 1, "maniac": 1}})
		roles := hosttest.Eval[[]string](h.Tab, `window.__assistGame.rec.settings.roles`)
		if len(roles) != len(names) {
			t.Fatalf("%s: the deal has %d cards, want %d", lang, len(roles), len(names))
		}
		seen := map[string]bool{}
		for i, role := range roles {
			seat := i + 1
			h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="reveal"]')`)
			if h.Exists("side") || hosttest.Eval[bool](h.Tab, `!!document.querySelector('.rcard')`) {
				t.Fatalf("%s, seat %d: the card shows before it is revealed", lang, seat)
			}
			h.Tap("reveal")
			h.WaitJS(5*time.Second, `!!document.querySelector('.rcard')`)
			side := map[string]string{"mafia": "mafia", "don": "mafia", "maniac": "maniac"}[role]
			if side == "" {
				side = "town"
			}
			want := map[string]string{
				`[data-t="role"]`: p.T("role."+role, nil),
				`[data-t="side"]`: p.T("web.card.team", map[string]any{"Team": p.T("team."+side, nil)}),
				`.rcard-night`:    p.T("web.role_night."+role, nil),
				`.rcard-win`:      p.T("web.role_win."+role, nil),
				`.rcard-tip`:      p.T("web.role_help."+role, nil),
			}
			for sel, w := range want {
				got := hosttest.Eval[string](h.Tab, fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ''`, sel))
				if got != w {
					t.Errorf("%s, seat %d (%s), %s: %q, want %q", lang, seat, role, sel, got, w)
				}
			}
			if c := hosttest.Eval[string](h.Tab, `document.querySelector('.rcard').dataset.card`); c != role {
				t.Errorf("%s: seat %d holds %s; the card drawn is %q", lang, seat, role, c)
			}
			h.NoSideScroll(string(lang) + ", seat " + strconv.Itoa(seat) + "'s card")
			if !seen[role] {
				h.Shot("pass-card-" + string(lang) + "-" + role)
			}
			seen[role] = true
			h.Tap("hide")
		}
		if len(seen) != 6 {
			t.Errorf("%s: the deal showed %d kinds of card, want all six: %v", lang, len(seen), seen)
		}
		h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="start-night"]')`)
		if hosttest.Eval[bool](h.Tab, `!!document.querySelector('.rcard')`) {
			t.Errorf("%s: the last card stays on the screen after the round", lang)
		}
	}
}
