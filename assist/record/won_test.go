package record_test

import (
	"slices"
	"testing"

	"mafia/assist/record"
	"mafia/engine"
)

// TestProtocol_APlayerRemovedByFoulsIsNoWinner: the town wins, and the
// citizen the host removed by fouls is not marked as a winner (nor in the
// printable protocol, which reads SeatRecord.Won); the rules' code and the
// seats' roster ids are in the protocol.
func TestProtocol_APlayerRemovedByFoulsIsNoWinner(t *testing.T) {
	roles := []engine.Role{engine.Don, engine.Citizen, engine.Citizen, engine.Citizen, engine.Detective}
	s := &record.Settings{Names: []string{"A", "B", "C", "D", "E"}, Roles: record.RoleNames(roles), Seed: "0",
		Options: map[string]string{"second_tie": "nobody"}, Timings: record.DefaultTimings(), Deal: record.DealManual,
		Club: &record.ClubInfo{Club: "c1", Host: "Host", People: []string{"p1", "p2", "p3", "", "p5"}}}
	rules, _, _, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	g, start, err := engine.New(rules, roles, 0)
	if err != nil {
		t.Fatal(err)
	}
	log := append([]engine.Event(nil), start...)
	do := func(c engine.Command) {
		t.Helper()
		evs, err := g.Handle(c)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		log = append(log, evs...)
	}
	for range 4 {
		do(engine.Command{Verb: engine.Foul, Target: 3})
	}
	for step := 0; !g.Ended() && step < 500; step++ {
		st := record.Snapshot(g)
		if st.Phase == "speech" && !st.Nominated && slices.Contains(st.Nominate, 1) {
			do(engine.Command{Verb: engine.Nominate, By: engine.Seat(st.Speaker), Target: 1})
			continue
		}
		do(engine.Command{Verb: engine.Next})
	}
	p := record.Build(s, log)
	if !p.Ended || p.Winner != "town" {
		t.Fatalf("the game: ended %v, winner %q", p.Ended, p.Winner)
	}
	for _, st := range p.Seats {
		want := st.Role != "don" && st.Seat != 3
		if st.Won != want {
			t.Errorf("seat %d (%s, out %+v): won %v; want %v", st.Seat, st.Role, st.Out, st.Won, want)
		}
	}
	if p.Seats[2].Out == nil || p.Seats[2].Out.Cause != "fouls" {
		t.Errorf("seat 3: %+v; want removed by fouls", p.Seats[2])
	}
	if p.RulesCode != "f1" || p.Club == nil || p.Club.Host != "Host" || p.Seats[1].Person != "p2" || p.Seats[3].Person != "" {
		t.Errorf("club fields: code %q, club %+v, seats %+v", p.RulesCode, p.Club, p.Seats)
	}
	rows := record.CSV(s, log)
	for _, r := range rows {
		if r[4] == "2" && r[16] != "p2" {
			t.Errorf("a row of seat 2 without its roster id: %v", r)
			break
		}
	}
}

// TestSettings_ClubFieldsAreChecked.
func TestSettings_ClubFieldsAreChecked(t *testing.T) {
	base := func(c *record.ClubInfo) *record.Settings {
		return &record.Settings{Names: []string{"A", "B", "C", "D", "E"}, Roles: []string{"don", "citizen", "citizen", "citizen", "detective"},
			Seed: "0", Timings: record.DefaultTimings(), Deal: record.DealManual, Club: c}
	}
	for _, c := range []struct {
		c  *record.ClubInfo
		ok bool
	}{
		{nil, true},
		{&record.ClubInfo{Host: "H", Table: "A", Number: 3, Day: "2026-12-01", People: []string{"a", "", "", "b", ""}}, true},
		{&record.ClubInfo{People: []string{"a"}}, false},
		{&record.ClubInfo{People: []string{"a", "a", "", "", ""}}, false},
		{&record.ClubInfo{Number: 100}, false},
		{&record.ClubInfo{Day: "2026-13-01"}, false},
		{&record.ClubInfo{Host: "0123456789012345678901234567890123"}, false},
	} {
		if _, _, _, err := base(c.c).Check(); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c.c, err)
		}
	}
}
