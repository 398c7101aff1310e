package assist_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/locale"
)

// clean fails when the page shows a message id (a message missing from the
// catalog) or a template's leftovers.
func (h *host) clean(where string) {
	h.t.Helper()
	txt := h.text()
	for _, bad := range []string{"assist.", "{{", "}}", "<no value>", "undefined", "NaN", "[object"} {
		if strings.Contains(txt, bad) {
			h.t.Fatalf("%s: the page shows %q:\n%s", where, bad, txt)
		}
	}
}

// TestEveryScreenSpeaksGeorgianEnglishAndRussian plays a game in each
// language, the cards dealt by links: the setup, the card links with their
// QR codes, a player's card page, every screen of the night and the day,
// the result and the printable protocol, each free of message ids and
// drawn in the chosen language.
func TestEveryScreenSpeaksGeorgianEnglishAndRussian(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	for _, lang := range []string{"ka", "ru", "en"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel() // each on its own page and game
			p := locale.New(locale.Lang(lang))
			h := openHost(t, ts, "host-"+lang)
			h.setValue(`[data-t="lang"]`, lang)
			h.waitJS(5*time.Second, fmt.Sprintf(`document.documentElement.lang === %q`, lang))
			if got := eval[string](h.tab, `document.querySelector('.brand').textContent`); got != p.T("assist.title", nil) {
				t.Fatalf("title %q", got)
			}
			h.clean("home")
			h.tap("new-game")
			h.waitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
			h.tap("size-7")
			eval[bool](h.tab, `(() => { document.querySelectorAll('details').forEach((d) => d.open = true); return true; })()`)
			h.clean("setup")
			h.shot("lang-" + lang + "-setup")
			names := []string{"ნინო", "Гиорги", "Tamar", "ლევანი", "Анна", "Dato", "ეკა"}
			id := h.createFromHere(names, record.DealLinks)

			// The card links: a QR code per seat; a player opens theirs.
			h.waitJS(10*time.Second, `document.querySelectorAll('img.qr').length === 7`)
			h.waitJS(10*time.Second, `[...document.querySelectorAll('img.qr')].every((i) => i.complete && i.naturalWidth > 0)`)
			h.clean("deal")
			h.shot("lang-" + lang + "-deal-links")
			link := eval[string](h.tab, `document.querySelector('[data-seat="2"] a.link').href`)
			ph := newTab(t, "phone-"+lang, 360, 740)
			ph.do(20*time.Second, chromedp.Navigate(link+""))
			ph.waitJS(10*time.Second, `document.getElementById('who').textContent.includes('Гиорги')`)
			ph.shot("lang-" + lang + "-card-hidden")
			ph.click("#face")
			role := eval[string](h.tab, `window.__assistGame.state.roles[2]`)
			r, _ := engine.ParseRole(role)
			ph.waitJS(5*time.Second, fmt.Sprintf(`document.querySelector('#face .role-name').textContent === %q`, p.Role(r)))
			ph.shot("lang-" + lang + "-card-shown")
			ph.click("#face")
			ph.waitJS(5*time.Second, `document.getElementById('face').classList.contains('hidden-card')`)
			// The host sees that seat 2 has seen their card.
			h.waitJS(10*time.Second, `!!document.querySelector('.cards li.seen[data-seat="2"]')`)

			shots := map[string]bool{}
			d := driver{
				night: func(st record.State, w record.Wake) int {
					if len(w.Targets) == 0 {
						return 0
					}
					return w.Targets[0]
				},
				nominate: func(st record.State) int {
					if len(st.Candidates) < 2 && len(st.Nominate) > 0 {
						return st.Nominate[len(st.Nominate)-1]
					}
					return 0
				},
				hands: func(st record.State, cand int) []int { return st.Pending[:len(st.Pending)/2] },
				yes:   func(st record.State) []int { return st.Alive },
				each: func(screen string, st record.State) {
					h.clean(screen)
					if !shots[screen] {
						shots[screen] = true
						h.shot("lang-" + lang + "-" + strings.ReplaceAll(screen, ":", "-"))
					}
				},
			}
			h.play(d)
			h.clean("result")
			h.shot("lang-" + lang + "-result")
			h.waitJS(syncWait, `document.getElementById('sync').dataset.waiting === '0'`)
			h.printPage(id, "lang-"+lang+"-protocol")
			if got := eval[string](h.tab, `document.documentElement.lang`); got != lang {
				t.Errorf("the protocol page is in %q", got)
			}
			h.clean("protocol")
		})
	}
}

// createFromHere fills the names on an open setup screen (its size chosen)
// and creates the game.
func (h *host) createFromHere(names []string, deal string) string {
	h.t.Helper()
	h.click(`[data-t="deal-` + deal + `"]`)
	for i, n := range names {
		h.setValue(fmt.Sprintf(`[data-t="name-%d"]`, i+1), n)
	}
	h.tap("create")
	h.waitJS(10*time.Second, `location.hash.startsWith('#/game/')`)
	return strings.TrimPrefix(eval[string](h.tab, `location.hash`), "#/game/")
}
