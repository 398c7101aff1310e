package tournament_test

import (
	"testing"

	"mafia/club"
	"mafia/engine"
	"mafia/seating"
	"mafia/tournament"
)

// TestNew_RefusesWhatCannotBeKept: each field out of range is refused with
// its code, and the Name of the field.
func TestNew_RefusesWhatCannotBeKept(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*tournament.Config)
		code   engine.Code
		field  string
	}{
		{"an empty name", func(c *tournament.Config) { c.Name = " " }, tournament.CodeBadTournament, "name"},
		{"dates out of order", func(c *tournament.Config) { c.To = "2026-12-04" }, tournament.CodeBadTournament, "dates"},
		{"a day that is none", func(c *tournament.Config) { c.From = "2026-13-01" }, tournament.CodeBadTournament, "dates"},
		{"a player twice", func(c *tournament.Config) { c.Players[1] = c.Players[0] }, tournament.CodeBadTournament, "players"},
		{"a player not on the roster", func(c *tournament.Config) { c.Players[0] = "zz" }, tournament.CodeNotPlayer, ""},
		{"a merged entry", func(c *tournament.Config) { c.Players[0] = "x01" }, tournament.CodeNotPlayer, ""},
		{"uneven rounds", func(c *tournament.Config) { c.Games = 3; c.Tables = 1; c.Players = c.Players[:15] }, seating.CodeSeatingUneven, ""},
		{"a pair to avoid off the event", func(c *tournament.Config) { c.Avoid = [][2]string{{"p01", "zz"}} }, seating.CodeBadAvoid, ""},
		{"a final larger than a table", func(c *tournament.Config) { c.Final = &tournament.Final{Size: 21, Games: 1, Factor: 150} },
			tournament.CodeBadTournament, "final"},
		{"a factor below one", func(c *tournament.Config) { c.Final = &tournament.Final{Size: 10, Games: 1, Factor: 50} },
			tournament.CodeBadTournament, "final"},
		{"an unknown tie-break", func(c *tournament.Config) { c.TieBreaks = []tournament.TieBreak{"luck"} },
			tournament.CodeBadTournament, "tie_breaks"},
		{"a tie-break twice", func(c *tournament.Config) { c.TieBreaks = []tournament.TieBreak{"wins", "wins"} },
			tournament.CodeBadTournament, "tie_breaks"},
		{"bad scoring", func(c *tournament.Config) { c.Scoring.Fouls = 10 }, club.CodeBadClub, "fouls"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := config20()
			c.change(&cfg)
			_, err := tournament.New(cfg, roster20())
			e, ok := err.(*engine.Error)
			if !ok || e.Code != c.code || (c.field != "" && e.Name != c.field) {
				t.Errorf("got %v, want %s %s", err, c.code, c.field)
			}
		})
	}
}

// TestLink_ATableIsPlayedOnceAndByItsPlayers: a second game for a table, a
// game linked to two tables, a seat held by someone else, a table that does
// not exist and rounds seated twice are refused; a guest seat is the
// table's player.
func TestLink_ATableIsPlayedOnceAndByItsPlayers(t *testing.T) {
	roster := roster20()
	tr, err := tournament.New(config20(), roster)
	if err != nil {
		t.Fatal(err)
	}
	game := func(id string, players []string) *club.Game {
		g := &club.Game{ID: id, Winner: "town"}
		for s, p := range players {
			g.Seats = append(g.Seats, club.Seat{Seat: s + 1, Person: p, Role: seatRole[s]})
		}
		return g
	}
	if err := tr.Link(1, 1, game("g0", nil), roster); codeOf(err) != tournament.CodeTournamentState {
		t.Fatalf("a link before the rounds are seated: %v", err)
	}
	if err := tr.SeatRounds(); err != nil {
		t.Fatal(err)
	}
	if err := tr.SeatRounds(); codeOf(err) != tournament.CodeTournamentState {
		t.Fatalf("seated twice: %v", err)
	}
	t1 := tr.Rounds[0].Tables[0].Players
	guest := append([]string{""}, t1[1:]...)
	if err := tr.Link(1, 1, game("g1", guest), roster); err != nil {
		t.Fatalf("a guest seat: %v", err)
	}
	for _, c := range []struct {
		name      string
		round, tb int
		g         *club.Game
		code      engine.Code
	}{
		{"the same table again", 1, 1, game("g2", t1), tournament.CodePlayedTwice},
		{"the same game at another table", 1, 2, game("g1", tr.Rounds[0].Tables[1].Players), tournament.CodePlayedTwice},
		{"another table's players", 1, 2, game("g3", t1), tournament.CodeNotPlayer},
		{"no such round", 11, 1, game("g4", t1), tournament.CodeBadTournament},
		{"no such table", 1, 3, game("g5", t1), tournament.CodeBadTournament},
		{"too few seats", 2, 1, game("g6", t1[:9]), tournament.CodeBadTournament},
	} {
		if err := tr.Link(c.round, c.tb, c.g, roster); codeOf(err) != c.code {
			t.Errorf("%s: got %v, want %s", c.name, err, c.code)
		}
	}
	// A merged entry's game counts as its entry's: x01 was merged into p01.
	r := -1
	for i, round := range tr.Rounds {
		for _, p := range round.Tables[0].Players {
			if p == pid(1) && i > 0 && r < 0 {
				r = i
			}
		}
	}
	ps := append([]string{}, tr.Rounds[r].Tables[0].Players...)
	for i, p := range ps {
		if p == pid(1) {
			ps[i] = "x01"
		}
	}
	if err := tr.Link(r+1, 1, game("g7", ps), roster); err != nil {
		t.Errorf("a merged entry's seat: %v", err)
	}
}

// TestUnlink_ATableFreedTakesAnotherGame: a game taken off its table lets
// another be linked there; a final seated freezes the rounds' tables; a
// final waits for every rounds' game to be finished, not only linked.
func TestUnlink_ATableFreedTakesAnotherGame(t *testing.T) {
	roster := roster20()
	tr, err := tournament.New(config20(), roster)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Unlink(1, 1); codeOf(err) != tournament.CodeTournamentState {
		t.Fatalf("unlink before the rounds: %v", err)
	}
	if err := tr.SeatRounds(); err != nil {
		t.Fatal(err)
	}
	games := playQualifying(t, &tr, roster, nil)
	g := games[tr.Rounds[0].Tables[0].Game]
	g.Winner = "" // abandoned at the table
	games[g.ID] = g
	if err := tr.SeatFinal(roster, games, nil); codeOf(err) != tournament.CodeTournamentState {
		t.Fatalf("a final with a game unfinished: %v", err)
	}
	if err := tr.Unlink(1, 1); err != nil {
		t.Fatal(err)
	}
	if err := tr.Unlink(1, 3); codeOf(err) != tournament.CodeBadTournament {
		t.Errorf("no such table: %v", err)
	}
	again := g
	again.ID, again.Winner = "again", "town"
	if err := tr.Link(1, 1, &again, roster); err != nil {
		t.Fatalf("another game at the freed table: %v", err)
	}
	games["again"] = again
	if err := tr.SeatFinal(roster, games, []string{pid(1), pid(2), pid(3), pid(4), pid(5), pid(6), pid(7), pid(8), pid(9), pid(10)}); err != nil {
		t.Fatal(err)
	}
	if err := tr.Unlink(1, 1); codeOf(err) != tournament.CodeTournamentState {
		t.Errorf("a round's table after the final is seated: %v", err)
	}
	if err := tr.Unlink(len(tr.Rounds), 1); err != nil {
		t.Errorf("the final's table: %v", err)
	}
}
