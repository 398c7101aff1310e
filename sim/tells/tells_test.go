package tells

import (
	"testing"

	"mafia/engine"
)

// Each tell moves the seat it names, from public events alone.

func say(by engine.Seat, verb engine.Verb, target engine.Seat, role engine.Role, res engine.Result) engine.Event {
	return engine.Event{Kind: engine.EvStatement, Round: 1, Phase: engine.PhaseSpeech, Actor: by, Verb: verb, Target: target, Role: role, Result: res}
}

func speech(s engine.Seat) engine.Event {
	return engine.Event{Kind: engine.EvSpeech, Round: 1, Target: s}
}

func read(evs ...engine.Event) *Reader {
	r := &Reader{}
	r.Reset(7, engine.DefaultRules())
	for i := range evs {
		r.See(&evs[i])
	}
	return r
}

func TestTells_EachRuleMovesItsSeat(t *testing.T) {
	claim := func(s engine.Seat) engine.Event { return say(s, engine.Claim, 0, engine.Detective, 0) }
	for _, tc := range []struct {
		name        string
		evs         []engine.Event
		above, than engine.Seat // above must score more than than
	}{
		{"the second Detective claimer is suspected", []engine.Event{claim(1), claim(2)}, 2, 3},
		{"the first Detective claimer is trusted", []engine.Event{claim(1)}, 3, 1},
		{"a seat that spoke and never suspected is suspected", []engine.Event{speech(1), speech(2), say(2, engine.Suspect, 4, 0, 0)}, 1, 2},
		{"the first claimer's mafia report is believed", []engine.Event{claim(1), say(1, engine.Report, 5, 0, engine.ResultMafia)}, 5, 4},
		{"a claimer whose reports are all mafia, and not first, is suspected", []engine.Event{claim(1), claim(2), say(2, engine.Report, 5, 0, engine.ResultMafia), claim(3)}, 2, 3},
		{"a report a revealed team contradicts marks a liar", []engine.Event{say(2, engine.Report, 5, 0, engine.ResultMafia), say(3, engine.Report, 5, 0, engine.ResultMafia),
			{Kind: engine.EvPlayerOut, Target: 5, Cause: engine.CauseVote, Team: engine.TeamTown}, {Kind: engine.EvPlayerOut, Target: 3, Cause: engine.CauseNight}}, 2, 4},
	} {
		r := read(tc.evs...)
		if a, b := r.Score(tc.above), r.Score(tc.than); a <= b {
			t.Errorf("%s: seat %d scores %d, seat %d %d", tc.name, tc.above, a, tc.than, b)
		}
	}
}

func TestTells_SecretEventsAreIgnored(t *testing.T) {
	evs := []engine.Event{
		{Kind: engine.EvChecked, Actor: 1, Target: 2, Result: engine.ResultMafia},
		{Kind: engine.EvMafiaChose, Actor: 2, Target: 3},
		{Kind: engine.EvVoteCast, Actor: 4, Target: 5},
	}
	r := read(evs...)
	for s := engine.Seat(1); s <= 7; s++ {
		if r.Score(s) != 0 {
			t.Fatalf("seat %d scores %d from secret events", s, r.Score(s))
		}
	}
}

func TestTells_RankListsTheLivingMostSuspiciousFirst(t *testing.T) {
	r := read(say(1, engine.Claim, 0, engine.Detective, 0), say(1, engine.Report, 6, 0, engine.ResultMafia),
		say(2, engine.Claim, 0, engine.Detective, 0), engine.Event{Kind: engine.EvPlayerOut, Target: 4, Cause: engine.CauseNight})
	var out [3]engine.Seat
	got := r.Rank(out[:])
	if len(got) != 3 || got[0] != 2 && got[0] != 6 || got[1] != 2 && got[1] != 6 {
		t.Fatalf("ranked %v: want 2 and 6 first", got)
	}
	for _, s := range got {
		if s == 4 {
			t.Fatalf("ranked the dead seat 4: %v", got)
		}
	}
	var all [10]engine.Seat
	if n := len(r.Rank(all[:])); n != 6 {
		t.Fatalf("ranked %d of 6 living seats", n)
	}
}
