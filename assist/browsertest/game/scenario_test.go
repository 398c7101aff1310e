package game

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
)

// TestScenariosReplayedThroughTheHostsScreens plays the conformance examples
// (scenario/testdata/examples) on the host's screens (deal by hand, the scenario's
// house rules) and checks that the game ends where the scenario's does:
// the same step, the same players in the game, the same result. Each
// command the scenario says the engine refuses at night is tapped too: the
// page offers it as not choosable and says the engine's sentence.
func TestScenariosReplayedThroughTheHostsScreens(t *testing.T) {
	t.Parallel()
	names := []string{"04-tie-revote-all-leave.json", "05-mafia-wins-at-parity.json", "02-doctor-heals-each-player-once.json",
		"01-town-wins-by-vote.json", "03-maniac-two-shots-from-night-two.json", "06-maniac-wins-one-on-one.json"}
	if testing.Short() {
		names = names[:1]
	}
	ts := hosttest.StartServer(t)
	for _, name := range names {
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			t.Parallel() // each on its own page and game
			s := hosttest.LoadScript(t, name)
			h := hosttest.OpenHost(t, ts, name)
			spec := hosttest.GameSpec{Deal: record.DealManual, Roles: record.RoleNames(s.Sc.Roles), Options: s.Sc.Rules.Map()}
			for i := range s.Sc.Roles {
				spec.Names = append(spec.Names, fmt.Sprintf("P%d", i+1))
			}
			setup := engine.SetupOf(s.Sc.Roles)
			if p, err := engine.Preset(len(s.Sc.Roles)); err != nil || p != setup {
				spec.Custom = map[string]int{"don": setup.Don, "mafia": setup.Mafia, "maniac": setup.Maniac,
					"detective": setup.Detective, "doctor": setup.Doctor, "citizen": setup.Citizens}
			}
			id := h.Create(spec)
			d := s.Driver()
			checked := 0
			refused := d.Refused
			d.Refused = func(st record.State, w record.Wake) []hosttest.Refusal {
				r := refused(st, w)
				checked += len(r)
				return r
			}
			nominee := d.RefusedNominee
			d.RefusedNominee = func(st record.State) []hosttest.Refusal {
				r := nominee(st)
				checked += len(r)
				return r
			}
			h.Play(d)
			t.Logf("%d refusals shown with the engine's sentence", checked)
			st := h.State()
			want := s.Final
			if hosttest.AtState(st) != hosttest.AtOf(want) || st.Winner != want.Winner().String() {
				t.Fatalf("the host's game is at %+v (winner %q), the scenario's at %+v (winner %q)",
					hosttest.AtState(st), st.Winner, hosttest.AtOf(want), want.Winner())
			}
			var alive []int
			for _, a := range want.Alive().Seats() {
				alive = append(alive, int(a))
			}
			if !slices.Equal(st.Alive, alive) {
				t.Fatalf("in the game: host %v, scenario %v", st.Alive, alive)
			}
			// The server's engine agrees, once everything is sent.
			h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
			g, _ := ts.Replay(t, id)
			if hosttest.AtOf(g) != hosttest.AtOf(want) || g.Winner() != want.Winner() {
				t.Fatalf("the server's game is at %+v (%s)", hosttest.AtOf(g), g.Winner())
			}
			if want.Ended() {
				h.Shot("scenario-" + strings.TrimSuffix(name, ".json"))
			}
		})
	}
}
