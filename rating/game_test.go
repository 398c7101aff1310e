package rating

import (
	"testing"
)

func table(sides string, left ...int) []Seat {
	seats := make([]Seat, len(sides))
	for i, c := range sides {
		s := Town
		switch c {
		case 'm':
			s = Mafia
		case 'x':
			s = Maniac
		}
		seats[i] = Seat{Player: string(rune('A' + i)), Side: s}
	}
	for _, i := range left {
		seats[i-1].Left = true
	}
	return seats
}

func byKey(us []Update) map[Key]Update {
	m := make(map[Key]Update, len(us))
	for _, u := range us {
		m[Key{u.Player, u.Kind}] = u
	}
	return m
}

func TestGameWinnersUpLosersDownOverallAndBySide(t *testing.T) {
	seats := table("ttmttmtttm")
	us, err := Game(ForMafia(), seats, Result{Winner: Mafia}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(us) != 20 {
		t.Fatalf("%d updates, want 10 overall and 10 by side", len(us))
	}
	m := byKey(us)
	for _, s := range seats {
		o, side := m[Key{s.Player, Overall}], m[Key{s.Player, KindOf(s.Side)}]
		if s.Side == Mafia {
			if !o.Won || o.After.Mu <= 25 || side.After.Mu <= 25 {
				t.Errorf("%s (mafia, won): %+v %+v", s.Player, o, side)
			}
		} else if o.Won || o.After.Mu >= 25 || side.After.Mu >= 25 {
			t.Errorf("%s (town, lost): %+v %+v", s.Player, o, side)
		}
		if o.After.Sigma >= o.Before.Sigma {
			t.Errorf("%s: sigma %v → %v, want it to shrink", s.Player, o.Before.Sigma, o.After.Sigma)
		}
	}
}

func TestGameManiacCountsToOverallOnlyAndTheLosersTie(t *testing.T) {
	seats := table("ttmttmtxtt")
	us, err := Game(ForMafia(), seats, Result{Winner: Town}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := byKey(us)
	if len(us) != 19 {
		t.Fatalf("%d updates, want 10 overall and 9 by side", len(us))
	}
	x := m[Key{"H", Overall}]
	if x.Side != Maniac || x.Won || x.After.Mu >= 25 {
		t.Fatalf("the Maniac: %+v", x)
	}
	for _, k := range []Kind{AsTown, AsMafia} {
		if _, ok := m[Key{"H", k}]; ok {
			t.Fatalf("the Maniac has a %s update", k)
		}
	}
	// Tied behind the town, the mafia and the Maniac both lose.
	if a, b := 25-m[Key{"C", Overall}].After.Mu, 25-x.After.Mu; a <= 0 || b <= 0 {
		t.Fatalf("the losers: mafia -%v, Maniac -%v", a, b)
	}
}

func TestGameDrawOfEvenSidesMovesNoMean(t *testing.T) {
	us, err := Game(ForMafia(), table("tmtmxt"), Result{Draw: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range us {
		if !near(u.After.Mu, 25) || u.Won {
			t.Fatalf("%+v", u)
		}
	}
}

func TestGameLeaverLosesAndTheOthersAreNotPunished(t *testing.T) {
	p := ForMafia()
	// Seat 3, mafia, leaves; the mafia win anyway.
	seats := table("ttmttmtttm", 3)
	us, err := Game(p, seats, Result{Winner: Mafia}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := byKey(us)
	for _, k := range []Kind{Overall, AsMafia} {
		l := m[Key{"C", k}]
		if !l.Left || l.Won || l.After.Mu >= 25 {
			t.Fatalf("the leaver's %s: %+v, want a loss", k, l)
		}
	}
	// Everyone else is rated as at a table without seat 3.
	var without []Seat
	for _, s := range seats {
		if s.Player != "C" {
			without = append(without, s)
		}
	}
	ref, err := Game(p, without, Result{Winner: Mafia}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ref {
		if got := m[Key{r.Player, r.Kind}]; got != r {
			t.Errorf("%s %s: %+v, want %+v", r.Player, r.Kind, got, r)
		}
	}
	// A leaver whose side loses loses as the side does: the update of a
	// loss at the full table.
	seats = table("ttmttmtttm", 1)
	us, _ = Game(p, seats, Result{Winner: Mafia}, nil)
	seats[0].Left = false
	full, _ := Game(p, seats, Result{Winner: Mafia}, nil)
	if a, b := byKey(us)[Key{"A", Overall}], byKey(full)[Key{"A", Overall}]; a.After != b.After || !a.Left {
		t.Fatalf("leaver of the losing side %+v, a loss %+v", a, b)
	}
}

func TestGameReadsCurrentRatingsBySide(t *testing.T) {
	cur := map[Key]Rating{
		{"A", Overall}: {Mu: 30, Sigma: 4},
		{"A", AsTown}:  {Mu: 20, Sigma: 5},
		{"C", AsMafia}: {Mu: 28, Sigma: 6},
	}
	us, err := Game(ForMafia(), table("ttm"), Result{Winner: Town}, cur)
	if err != nil {
		t.Fatal(err)
	}
	m := byKey(us)
	if m[Key{"A", Overall}].Before != cur[Key{"A", Overall}] || m[Key{"A", AsTown}].Before != cur[Key{"A", AsTown}] ||
		m[Key{"C", AsMafia}].Before != cur[Key{"C", AsMafia}] || m[Key{"B", AsTown}].Before != ForMafia().New() {
		t.Fatalf("before: %+v", us)
	}
}

func TestGameRefusesBadSeats(t *testing.T) {
	p := ForMafia()
	dup := table("tm")
	dup[1].Player = "A"
	empty := table("tm")
	empty[0].Player = ""
	bad := table("tm")
	bad[0].Side = 7
	for name, seats := range map[string][]Seat{"one seat": table("t"), "a player twice": dup, "no id": empty, "no such side": bad} {
		if _, err := Game(p, seats, Result{Winner: Town}, nil); err != ErrBadInput {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Game(p, table("tm"), Result{Winner: 9}, nil); err != ErrBadInput {
		t.Errorf("no such winner: %v", err)
	}
}
