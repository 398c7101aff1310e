package wire

import (
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// TestEvent_RoundTripIsExact plays seeded bot games under random rules and
// sizes and checks every event survives JSON unchanged, and that the game
// replayed from the decoded log equals the live one.
func TestEvent_RoundTripIsExact(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 50
	}
	for i := 0; i < games; i++ {
		seed := rng.Derive(7, uint64(i))
		src := rng.New(seed)
		players := engine.PresetMin + src.Intn(engine.PresetMax-engine.PresetMin+1)
		setup, _ := engine.Preset(players)
		rules := engine.DefaultRules()
		for _, o := range engine.Options {
			if o.Values != nil {
				_ = rules.Set(o.Name, o.Values[src.Intn(len(o.Values))])
			}
		}
		roles := setup.Deal(seed, nil)
		g, start, err := engine.New(rules, roles, seed)
		if err != nil {
			t.Fatal(err)
		}
		log := append([]engine.Event(nil), start...)
		bots := make([]bot.Bot, players+1)
		for s := 1; s <= players; s++ {
			bots[s] = newTalker(rng.Derive(seed, uint64(s)))
		}
		tb := &bot.Table{Game: g, Bots: bots, OnEvents: func(_ engine.Command, evs []engine.Event) {
			log = append(log, evs...)
		}}
		if !tb.Play(10000) {
			t.Fatalf("game %d did not end", i)
		}
		decoded := make([]engine.Event, 0, len(log))
		for j, e := range log {
			data, err := MarshalEvent(e, players)
			if err != nil {
				t.Fatal(err)
			}
			back, err := UnmarshalEvent(data)
			if err != nil {
				t.Fatalf("game %d event %d %s: %v", i, j, data, err)
			}
			if back != e {
				t.Fatalf("game %d event %d changed in JSON:\n%+v\n%+v\n%s", i, j, e, back, data)
			}
			decoded = append(decoded, back)
		}
		r, err := engine.Replay(decoded)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Equal(g) {
			t.Fatalf("game %d: replay of the decoded log differs from the live game", i)
		}
	}
}

func TestUnmarshalEvent_RefusesNonsense(t *testing.T) {
	for _, bad := range []string{
		`{"kind":"no_such"}`,
		`{"kind":"checked","actor":99}`,
		`{"kind":"checked","result":"maybe"}`,
		`{"kind":"player_out","cause":"boredom"}`,
		`{"kind":"game_started","players":2}`,
		`{"kind":"game_started","players":5,"rules":{"no_such":"x"}}`,
		`{"kind":"night_ended","seats":[0]}`,
		`{"kind":"tie","candidates":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,1]}`,
		`not json`,
	} {
		if _, err := UnmarshalEvent([]byte(bad)); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}

// TestEvent_TieSaysWhichVoteItEnds pins the tie's phase on the wire: the
// first tie is "vote", a tie again in the revote is "revote", and a tie of
// a log recorded before ties carried their phase has none (and reads back
// as none).
func TestEvent_TieSaysWhichVoteItEnds(t *testing.T) {
	for _, tc := range []struct {
		phase engine.Phase
		want  string
	}{
		{engine.PhaseVote, `{"kind":"tie","round":2,"phase":"vote","candidates":[3,5]}`},
		{engine.PhaseRevote, `{"kind":"tie","round":2,"phase":"revote","candidates":[3,5]}`},
		{engine.PhaseNone, `{"kind":"tie","round":2,"candidates":[3,5]}`},
	} {
		e := engine.Event{Kind: engine.EvTie, Phase: tc.phase, Round: 2, Count: 2}
		e.PerSeat[0], e.PerSeat[1] = 3, 5
		data, err := MarshalEvent(e, 7)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != tc.want {
			t.Errorf("%s tie: %s, want %s", tc.phase, data, tc.want)
		}
		back, err := UnmarshalEvent(data)
		if err != nil || back != e {
			t.Errorf("%s tie back from %s: %+v, %v", tc.phase, data, back, err)
		}
	}
}
