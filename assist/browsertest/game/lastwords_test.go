package game

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/locale"
)

// TestTheNightVictimsLastWordsAreRecorded plays night 1 (the mafia kill
// seat 7, nobody heals) and the victim's last words in the morning through
// the host's screens: the protocol keeps them under the night, and the
// printable protocol says so.
func TestTheNightVictimsLastWordsAreRecorded(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	id := h.Create(hosttest.GameSpec{Names: hosttest.Names11[:7], Roles: hosttest.Roles7, Deal: record.DealManual})
	sawLastWords := false
	d := hosttest.Driver{
		Night: func(st record.State, w record.Wake) int {
			if w.Role == "mafia" {
				return 7
			}
			return 0
		},
		Each: func(screen string, st record.State) {
			if screen == "last_words" && st.Speaker == 7 {
				sawLastWords = true
			}
		},
		Stop: func(st record.State) bool { return st.Phase == "speech" },
	}
	h.Play(d)
	if !sawLastWords {
		t.Fatal("the night's victim had no last words on the host's screens")
	}
	h.WaitJS(hosttest.SyncWait, `window.__assistGame.syncer.waiting() === 0`)
	p := ts.Protocol(t, h, id)
	if n := p.Rounds[0].Night; n == nil || !slices.Equal(n.LastWords, []int{7}) {
		t.Fatalf("night 1's last words in the protocol: %+v", n)
	}
	if got := p.Rounds[0].Day.LastWords; len(got) != 0 {
		t.Errorf("the day's last words hold %v", got)
	}
	for _, l := range locale.Langs() {
		req, _ := http.NewRequest("GET", ts.URL+"/host/games/"+id+"?lang="+string(l), nil)
		req.Header.Set("Authorization", "Bearer "+h.Token(id))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		pr := locale.New(l)
		want := pr.T("assist.print.last_words", map[string]any{"Who": pr.T("assist.who", map[string]any{"Seat": 7, "Name": hosttest.Names11[6]})})
		if !strings.Contains(string(b), want) {
			t.Errorf("%s: the printable protocol does not say %q", l, want)
		}
	}
}
