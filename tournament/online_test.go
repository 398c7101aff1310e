package tournament_test

import (
	"testing"

	"mafia/club"
	"mafia/tournament"
)

// online10 is a tournament of ten players at one table for two rounds,
// played online under the no-show rule rule.
func online10(t *testing.T, rule string) (tournament.Tournament, *club.Roster) {
	t.Helper()
	c := config20()
	c.Players, c.Tables, c.Games = c.Players[:10], 1, 2
	c.Final = &tournament.Final{}
	c.Online = &tournament.Online{NoShow: rule}
	roster := roster20()
	tr, err := tournament.New(c, roster)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SeatRounds(); err != nil {
		t.Fatal(err)
	}
	return tr, roster
}

// townWins is a game of a table won by the town: seats 1-7 the town, 8-10
// the mafia.
func townWins(id string) club.Game {
	g := club.Game{ID: id, Winner: "town"}
	for s := 1; s <= 10; s++ {
		role := "citizen"
		if s > 7 {
			role = "mafia"
		}
		g.Seats = append(g.Seats, club.Seat{Seat: s, Role: role})
	}
	return g
}

// TestOnline_ANoShowScoresByTheOrganisersRule: a player who did not come
// to round 1 (seat 2, the town's: the town won) scores nothing from that
// game under the stand-in rule (its result is the bot's: no game, no win),
// and under the forfeit rule a game for the forfeit penalty (the club's
// removal by fouls, -0.50, when none is given); the others score as ever.
// Round 2 opens only once round 1 has its game, and once only.
func TestOnline_ANoShowScoresByTheOrganisersRule(t *testing.T) {
	for _, c := range []struct {
		rule        string
		points      club.Points
		games, wins int
	}{
		{tournament.NoShowStandIn, 100, 1, 1},
		{tournament.NoShowForfeit, 50, 2, 1},
	} {
		t.Run(c.rule, func(t *testing.T) {
			tr, roster := online10(t, c.rule)
			if err := tr.Open(2, []string{"t2"}); codeOf(err) != tournament.CodeRoundWaits {
				t.Fatalf("round 2 before round 1: %v", err)
			}
			if err := tr.Open(1, []string{"t1"}); err != nil {
				t.Fatal(err)
			}
			if err := tr.Open(1, []string{"t1b"}); codeOf(err) != tournament.CodeRoundOpen {
				t.Fatalf("round 1 twice: %v", err)
			}
			if r, n, s, ok := tr.Seat(tr.Rounds[0].Tables[0].Players[3]); !ok || r != 1 || n != 1 || s != 4 {
				t.Fatalf("the player of seat 4 finds %d/%d/%d %v", r, n, s, ok)
			}
			if err := tr.LinkOnline(1, 1, []int{2}); err != nil {
				t.Fatal(err)
			}
			if err := tr.Open(2, []string{"t2"}); err != nil {
				t.Fatal(err)
			}
			if err := tr.LinkOnline(2, 1, nil); err != nil {
				t.Fatal(err)
			}
			absent := tr.Rounds[0].Tables[0].Players[1]
			second := tr.Rounds[1].Tables[0]
			won := map[string]bool{}
			for i, p := range second.Players {
				won[p] = i < 7
			}
			games := map[string]club.Game{"t1": townWins("t1"), "t2": townWins("t2")}
			st := tr.Standings(roster, games)
			for _, s := range st {
				if s.Person != absent {
					continue
				}
				want := c.points
				if !won[absent] {
					want -= 100
				}
				wins := c.wins
				if !won[absent] {
					wins--
				}
				if s.Points != want || s.Games != c.games || s.Wins != wins {
					t.Fatalf("the absent player: %+v, want points %v games %d wins %d", s, want, c.games, wins)
				}
			}
			for _, s := range st {
				if s.Person != absent && s.Games != 2 {
					t.Fatalf("%s played %d games, want 2", s.Person, s.Games)
				}
			}
		})
	}
}

// TestOnline_ATournamentAtRealTablesIsNotOpenedOnline: without online
// rules a round is not opened online (tournament_offline); bad online
// rules are refused at the making.
func TestOnline_ATournamentAtRealTablesIsNotOpenedOnline(t *testing.T) {
	c := config20()
	roster := roster20()
	tr, err := tournament.New(c, roster)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SeatRounds(); err != nil {
		t.Fatal(err)
	}
	if err := tr.Open(1, []string{"a", "b"}); codeOf(err) != tournament.CodeOffline {
		t.Fatalf("opened online: %v", err)
	}
	for _, o := range []tournament.Online{{NoShow: "wait"}, {NoShow: "forfeit", Wait: tournament.MaxWait + 1}, {NoShow: "forfeit", Forfeit: 10}} {
		c.Online = &o
		if _, err := tournament.New(c, roster); codeOf(err) != tournament.CodeBadTournament {
			t.Fatalf("online rules %+v: %v", o, err)
		}
	}
}

// TestOnline_TheFinalIsOpenedOnlineAfterTheRounds: once the qualifying
// rounds' games are linked and the final seated, the final's table opens
// online like a round's (and no qualifying round does any more); a
// forfeit there is not multiplied by the final's factor.
func TestOnline_TheFinalIsOpenedOnlineAfterTheRounds(t *testing.T) {
	c := config20()
	c.Players, c.Tables, c.Games = c.Players[:10], 1, 2
	c.Final = &tournament.Final{Size: 10, Games: 1, Factor: 200}
	c.Online = &tournament.Online{NoShow: tournament.NoShowForfeit, Forfeit: -100}
	roster := roster20()
	tr, err := tournament.New(c, roster)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SeatRounds(); err != nil {
		t.Fatal(err)
	}
	games := map[string]club.Game{}
	for r := 1; r <= 2; r++ {
		id := "q" + string(rune('0'+r))
		if err := tr.Open(r, []string{id}); err != nil {
			t.Fatal(err)
		}
		if err := tr.LinkOnline(r, 1, nil); err != nil {
			t.Fatal(err)
		}
		games[id] = townWins(id)
	}
	if err := tr.SeatFinal(roster, games, nil); err != nil {
		t.Fatal(err)
	}
	if err := tr.Open(1, []string{"again"}); codeOf(err) != tournament.CodeTournamentState {
		t.Fatalf("a qualifying round again: %v", err)
	}
	if err := tr.Open(3, []string{"f"}); err != nil {
		t.Fatal(err)
	}
	absent := tr.Rounds[2].Tables[0].Players[0]
	if err := tr.LinkOnline(3, 1, []int{1}); err != nil {
		t.Fatal(err)
	}
	games["f"] = townWins("f")
	for _, s := range tr.Standings(roster, games) {
		if s.Person == absent && (s.FinalPoints != -100 || s.Games != 3) {
			t.Fatalf("the finalist who did not come: %+v", s)
		}
	}
}
