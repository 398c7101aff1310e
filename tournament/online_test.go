package tournament_test

import (
	"strings"
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

// TestSetExtra_AnOnlineTablesSeatsOnceItIsOver: the organiser's extra
// points go to the seats of a table played online only once its game is
// linked, each seat once and within the tournament's scoring (the refusal
// names the seat), and replace those given before; nothing changes on a
// refusal; a closed tournament's extras change no more.
func TestSetExtra_AnOnlineTablesSeatsOnceItIsOver(t *testing.T) {
	tr := tournament.Tournament{Scoring: club.DefaultScoring(), Rounds: []tournament.Round{{Tables: []tournament.Table{
		{Players: []string{"a", "b", "c"}, Online: "T1"}, {Players: []string{"d", "e", "f"}}}}}}
	g := &club.Game{Winner: "town", Seats: []club.Seat{{Seat: 1}, {Seat: 2}, {Seat: 3}}}
	code := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	if err := tr.SetExtra(1, 1, g, []club.Extra{{Seat: 1, Points: 30}}); err == nil || !strings.Contains(code(err), string(tournament.CodeTableNotOver)) {
		t.Fatalf("extras before the game is linked: %v", err)
	}
	if err := tr.LinkOnline(1, 1, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		r, n  int
		extra []club.Extra
		want  string
	}{
		{"a real table with no game linked", 1, 2, []club.Extra{{Seat: 1, Points: 30}}, string(tournament.CodeTableNotOver)},
		{"no such round", 2, 1, nil, string(tournament.CodeBadTournament)},
		{"a seat off the table", 1, 1, []club.Extra{{Seat: 4, Points: 30}}, "bad_extra seat=4"},
		{"past the club's range", 1, 1, []club.Extra{{Seat: 2, Points: 80}}, "bad_extra seat=2"},
		{"a seat twice", 1, 1, []club.Extra{{Seat: 3, Points: 10}, {Seat: 3, Points: 10}}, "bad_extra seat=3"},
	} {
		if err := tr.SetExtra(c.r, c.n, g, c.extra); err == nil || !strings.Contains(code(err), c.want) {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
		if len(tr.Rounds[0].Tables[0].Extra) != 0 {
			t.Fatalf("%s: a refusal kept %v", c.name, tr.Rounds[0].Tables[0].Extra)
		}
	}
	if err := tr.SetExtra(1, 1, g, []club.Extra{{Seat: 3, Points: -20}, {Seat: 1, Points: 30}, {Seat: 2}}); err != nil {
		t.Fatal(err)
	}
	if got := tr.Rounds[0].Tables[0].Extra; len(got) != 2 || got[0] != (club.Extra{Seat: 1, Points: 30}) || got[1] != (club.Extra{Seat: 3, Points: -20}) {
		t.Fatalf("kept %v, want seats 1 and 3 in order, none for 0 points", got)
	}
	if err := tr.SetExtra(1, 1, g, nil); err != nil || len(tr.Rounds[0].Tables[0].Extra) != 0 {
		t.Fatalf("no extras replace them: %v %v", err, tr.Rounds[0].Tables[0].Extra)
	}
	// Closed, the standings are final: no extras change any more.
	tr.State = tournament.StateClosed
	if err := tr.SetExtra(1, 1, g, []club.Extra{{Seat: 1, Points: 30}}); err == nil || !strings.Contains(code(err), string(tournament.CodeTournamentState)) {
		t.Errorf("extras of a closed tournament: %v, want %s", err, tournament.CodeTournamentState)
	}
	if len(tr.Rounds[0].Tables[0].Extra) != 0 {
		t.Errorf("a closed tournament's extras changed to %v", tr.Rounds[0].Tables[0].Extra)
	}
}

// TestSetExtra_ARealTablesExtrasReplaceItsHostsOnceGiven: at a real table
// the host's extras (the game's) count until the organiser's or the
// referee's are given; then theirs count for the whole table, none given
// included; a table not linked is not over; unlinking the game drops
// them, and the host's count again.
func TestSetExtra_ARealTablesExtrasReplaceItsHostsOnceGiven(t *testing.T) {
	tr := tournament.Tournament{Scoring: club.DefaultScoring(), State: tournament.StateRounds,
		Rounds: []tournament.Round{{Tables: []tournament.Table{{Players: []string{"a", "b", "c"}}}}}}
	g := club.Game{Winner: "town", Seats: []club.Seat{{Seat: 1}, {Seat: 2}, {Seat: 3}}, Extra: []club.Extra{{Seat: 1, Points: 30}}}
	if err := tr.SetExtra(1, 1, &g, []club.Extra{{Seat: 2, Points: 10}}); err == nil || !strings.Contains(err.Error(), string(tournament.CodeTableNotOver)) {
		t.Fatalf("extras of a table with no game: %v", err)
	}
	tb := &tr.Rounds[0].Tables[0]
	tb.Game = "g1"
	if got := tb.Extras(g); len(got) != 1 || got[0] != g.Extra[0] {
		t.Fatalf("before any given: %v, want the host's", got)
	}
	if err := tr.SetExtra(1, 1, &g, []club.Extra{{Seat: 2, Points: 10}}); err != nil {
		t.Fatal(err)
	}
	if got := tb.Extras(g); !tb.Given || len(got) != 1 || got[0] != (club.Extra{Seat: 2, Points: 10}) {
		t.Fatalf("given: %v (given %v), want seat 2's only", got, tb.Given)
	}
	if err := tr.SetExtra(1, 1, &g, nil); err != nil || len(tb.Extras(g)) != 0 || !tb.Given {
		t.Fatalf("none given: %v %v, want none counted (not the host's)", err, tb.Extras(g))
	}
	if err := tr.Unlink(1, 1); err != nil {
		t.Fatal(err)
	}
	if tb.Given || tb.Extra != nil || len(tb.Extras(g)) != 1 {
		t.Fatalf("after the unlink: given %v, extras %v, want the host's again", tb.Given, tb.Extra)
	}
}
