package bot

import (
	"testing"

	"mafia/engine"
	"mafia/rng"
)

// The world model holds every team-world consistent with what a seat knows,
// and a fact drops the worlds that contradict it.

func TestExpertWorlds_ATownSeatOfElevenHoldsEveryTeamWorld(t *testing.T) {
	var m model
	src := rng.New(1)
	me := engine.SetOf(3)
	m.reset(11, 3, 3, 1, 0, me, 0, me, &src)
	if m.cnt != 840 || m.sampled {
		t.Fatalf("%d worlds (sampled %v), want C(10,3)·7 = 840 enumerated", m.cnt, m.sampled)
	}
	if p := m.pBad(3); p != 0 {
		t.Fatalf("the seat itself is bad with probability %v", p)
	}
	for s := engine.Seat(1); s <= 11; s++ {
		if s == 3 {
			continue
		}
		if p := m.pBad(s); p < 0.39 || p > 0.41 {
			t.Fatalf("seat %d bad with probability %v, want 4/10", s, p)
		}
	}
	m.knowTeam(5, engine.TeamMafia, &src)
	if m.cnt != 36*7 || m.pMafia(5) != 1 {
		t.Fatalf("after seat 5 is known mafia: %d worlds, P(mafia 5) %v", m.cnt, m.pMafia(5))
	}
}

func TestExpertWorlds_ABigCustomTableIsSampledConsistentWithTheFacts(t *testing.T) {
	var m model
	src := rng.New(7)
	team := engine.SetOf(2, 9, 14, 20)
	all := engine.SeatSet(uint32(1)<<21 - 2)
	m.reset(20, 4, 6, -1, 0, engine.SetOf(1), 0, engine.SetOf(1), &src)
	if !m.sampled || m.cnt == 0 {
		t.Fatalf("a 20-seat table with unknown counts: %d worlds, sampled %v", m.cnt, m.sampled)
	}
	for _, s := range team.Seats() {
		m.knowTeam(s, engine.TeamMafia, &src)
	}
	m.knowTeam(5, engine.TeamTown, &src)
	if m.cnt < maxWorlds/8 {
		t.Fatalf("only %d worlds after the facts: the sample was not drawn again", m.cnt)
	}
	for i := 0; i < m.cnt; i++ {
		w := m.ws[i]
		if w.mafia&team != team || w.bad().Has(5) || w.bad().Has(1) || w.mafia&^all != 0 {
			t.Fatalf("world %+v contradicts the facts", w)
		}
	}
}

func TestExpertWorlds_AGameThatGoesOnDropsTheWorldsThatWouldHaveEnded(t *testing.T) {
	var m model
	src := rng.New(1)
	m.reset(7, 2, 2, 0, 0, engine.SetOf(1), 0, engine.SetOf(1), &src)
	// seats 2 and 3 were voted out and the game goes on: they were not the
	// whole mafia
	alive := engine.SetOf(1, 4, 5, 6, 7)
	m.goesOn(alive, &src)
	for i := 0; i < m.cnt; i++ {
		if m.ws[i].mafia == engine.SetOf(2, 3) {
			t.Fatal("the world where the whole mafia left is kept")
		}
	}
}
