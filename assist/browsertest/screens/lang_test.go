package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
	"mafia/locale"
)

// TestEveryScreenSpeaksGeorgianEnglishAndRussian plays a game in each
// language, the cards dealt by links: the setup, the card links with their
// QR codes, a player's card page, every screen of the night and the day,
// the result and the printable protocol, each free of message ids and
// drawn in the chosen language.
func TestEveryScreenSpeaksGeorgianEnglishAndRussian(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	for _, lang := range []string{"ka", "ru", "en"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel() // each on its own page and game
			p := locale.New(locale.Lang(lang))
			h := hosttest.OpenHost(t, ts, "host-"+lang)
			h.SetValue(`[data-t="lang"]`, lang)
			h.WaitJS(5*time.Second, fmt.Sprintf(`document.documentElement.lang === %q`, lang))
			if got := hosttest.Eval[string](h.Tab, `document.querySelector('.brand').textContent`); got != p.T("assist.title", nil) {
				t.Fatalf("title %q", got)
			}
			h.Clean("home")
			h.Tap("new-game")
			h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
			h.Tap("size-7")
			hosttest.Eval[bool](h.Tab, `(() => { document.querySelectorAll('details').forEach((d) => d.open = true); return true; })()`)
			h.Clean("setup")
			h.Shot("lang-" + lang + "-setup")
			names := []string{"ნინო", "Гиорги", "Tamar", "ლევანი", "Анна", "Dato", "ეკა"}
			id := h.CreateFromHere(names, record.DealLinks)

			// The card links: a QR code per seat; a player opens theirs.
			h.WaitJS(10*time.Second, `document.querySelectorAll('img.qr').length === 7`)
			h.WaitJS(10*time.Second, `[...document.querySelectorAll('img.qr')].every((i) => i.complete && i.naturalWidth > 0)`)
			h.Clean("deal")
			h.Shot("lang-" + lang + "-deal-links")
			link := hosttest.Eval[string](h.Tab, `document.querySelector('[data-seat="2"] a.link').href`)
			ph := hosttest.NewTab(t, "phone-"+lang, 360, 740)
			ph.Do(20*time.Second, chromedp.Navigate(link+""))
			ph.WaitJS(10*time.Second, `document.getElementById('who').textContent.includes('Гиорги')`)
			ph.Shot("lang-" + lang + "-card-hidden")
			ph.Click("#face")
			role := hosttest.Eval[string](h.Tab, `window.__assistGame.state.roles[2]`)
			r, _ := engine.ParseRole(role)
			ph.WaitJS(5*time.Second, fmt.Sprintf(`document.querySelector('#face .role-name').textContent === %q`, p.Role(r)))
			ph.Shot("lang-" + lang + "-card-shown")
			ph.Click("#face")
			ph.WaitJS(5*time.Second, `document.getElementById('face').classList.contains('hidden-card')`)
			// The host sees that seat 2 has seen their card.
			h.WaitJS(10*time.Second, `!!document.querySelector('.cards li.seen[data-seat="2"]')`)

			shots := map[string]bool{}
			d := hosttest.Driver{
				Night: func(st record.State, w record.Wake) int {
					if len(w.Targets) == 0 {
						return 0
					}
					return w.Targets[0]
				},
				Nominate: func(st record.State) int {
					if len(st.Candidates) < 2 && len(st.Nominate) > 0 {
						return st.Nominate[len(st.Nominate)-1]
					}
					return 0
				},
				Hands: func(st record.State, cand int) []int { return st.Pending[:len(st.Pending)/2] },
				Yes:   func(st record.State) []int { return st.Alive },
				Each: func(screen string, st record.State) {
					h.Clean(screen)
					if !shots[screen] {
						shots[screen] = true
						h.Shot("lang-" + lang + "-" + strings.ReplaceAll(screen, ":", "-"))
					}
				},
			}
			h.Play(d)
			h.Clean("result")
			h.Shot("lang-" + lang + "-result")
			h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
			h.PrintPage(id, "lang-"+lang+"-protocol")
			if got := hosttest.Eval[string](h.Tab, `document.documentElement.lang`); got != lang {
				t.Errorf("the protocol page is in %q", got)
			}
			h.Clean("protocol")
		})
	}
}
