package game

import (
	"html"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/locale"
)

// The deal of the counting game: the mafia kill seat 1 on night 1; day 1
// ties twice between seats 3 and 7, who leave together; seats 10 and 11
// lose day 1's speech for fouls; on night 2 the mafia kill seat 10 and the
// maniac shoots a mafioso (seat 8), so the morning has two victims.
var rolesCount = []string{"citizen", "don", "citizen", "mafia", "detective", "doctor", "citizen", "mafia", "maniac", "citizen", "citizen"}

// TestTheAnnouncementsAndTheProtocolCountThePlayersTheyName plays, in
// Russian (one, few and many differ), a night with one victim, a day on
// which two tied candidates leave together and two players lose their
// speech, and a night with two victims. What the host reads aloud says how
// many players it names, in the form the number takes, and so does the
// printable protocol.
func TestTheAnnouncementsAndTheProtocolCountThePlayersTheyName(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host-count")
	h.SetValue(`[data-t="lang"]`, "ru")
	h.WaitJS(5*time.Second, `document.documentElement.lang === 'ru'`)
	p := locale.New(locale.Ru)
	id := h.Create(hosttest.GameSpec{Names: hosttest.Names11, Roles: rolesCount, Deal: record.DealManual})
	token := hosttest.Eval[string](h.Tab, `window.__assistGame.rec.token`)

	fouled := map[int]int{}
	var announced [][]string
	d := hosttest.Driver{
		Night: func(st record.State, w record.Wake) int {
			want := map[string][2]int{"mafia": {1, 10}, "doctor": {5, 11}, "maniac": {0, 8}}[w.Role]
			if s := want[st.Round-1]; s != 0 && slices.Contains(w.Targets, s) {
				return s
			}
			return 0
		},
		Nominate: func(st record.State) int {
			for _, s := range []int{3, 7} {
				if !slices.Contains(st.Candidates, s) && slices.Contains(st.Nominate, s) {
					return s
				}
			}
			return 0
		},
		Hands: func(st record.State, cand int) []int { return st.Pending[:len(st.Alive)/2] },
		Yes:   func(st record.State) []int { return st.Alive[:len(st.Alive)/2+1] },
		Fouls: func(st record.State, screen string) []int {
			if screen != "speech" || st.Round != 1 {
				return nil
			}
			for _, s := range []int{10, 11} {
				if fouled[s] < 3 {
					fouled[s]++
					return []int{s}
				}
			}
			return nil
		},
		Each: func(screen string, st record.State) {
			if screen == "announce" {
				announced = append(announced, hosttest.Eval[[]string](h.Tab,
					`[...document.querySelectorAll('[data-t="announce"] p.say')].map((p) => p.textContent)`))
			}
		},
		Stop: func(st record.State) bool { return st.Round == 2 && st.Phase != "night" },
	}
	h.Play(d)

	said := func(line string) bool {
		for _, a := range announced {
			if slices.Contains(a, line) {
				return true
			}
		}
		return false
	}
	for _, want := range []string{
		p.Plural("assist.ann.killed", 1, nil),
		p.Plural("assist.ann.all_leave", 2, nil),
		p.Plural("assist.ann.killed", 2, nil),
	} {
		if !said(want) {
			t.Errorf("the host was never shown %q; the announcements:\n%q", want, announced)
		}
	}
	for _, plain := range []string{"Этой ночью убит 1 игрок.", "уходят все 2 кандидата", "Этой ночью убиты 2 игрока."} {
		if !strings.Contains(strings.Join(slices.Concat(announced...), "\n"), plain) {
			t.Errorf("the announcements do not say %q", plain)
		}
	}

	// The printable protocol, once the server holds every entry.
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	req, _ := http.NewRequest("GET", ts.URL+"/host/games/"+id+"?lang=ru", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	page := html.UnescapeString(string(b))
	who := func(seats ...int) string {
		parts := make([]string, len(seats))
		for i, s := range seats {
			parts[i] = p.T("assist.who", map[string]any{"Seat": s, "Name": hosttest.Names11[s-1]})
		}
		return strings.Join(parts, ", ")
	}
	for _, want := range []string{
		p.Plural("assist.print.killed", 1, map[string]any{"Count": 1, "Who": who(1)}),
		p.Plural("assist.print.killed", 2, map[string]any{"Count": 2, "Who": who(8, 10)}),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the printable protocol lacks %q", want)
		}
	}
	// The lost speeches in the order they were lost (the day's queue).
	lost := func(seats ...int) string {
		return p.Plural("assist.print.lost_speech", 2, map[string]any{"Count": 2, "Who": who(seats...)})
	}
	if !strings.Contains(page, lost(10, 11)) && !strings.Contains(page, lost(11, 10)) {
		t.Errorf("the printable protocol lacks %q", lost(10, 11))
	}
	if !strings.Contains(page, "Ночью убиты 2 игрока") || !strings.Contains(page, "потеряли 2 игрока") {
		t.Errorf("the printable protocol does not count its players in Russian")
	}
}
