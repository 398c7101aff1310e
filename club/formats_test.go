package club

import (
	"encoding/json"
	"testing"
)

// formatsGame is a 7-seat game (seven(): 1 don, 2 mafia, 3 maniac, 4
// detective, 5 doctor, 6 and 7 citizens) the town won: seat 4 killed on
// night 1 naming 1 2 6 (two mafia right), seat 2 voted out on day 2, seat
// 7 removed by fouls in round 2.
func formatsGame() Game {
	g := seven("g1", "2026-12-01", "town", Seat{Seat: 4, Out: "night", OutOrder: 1, OutRound: 1},
		Seat{Seat: 7, Out: "fouls", OutOrder: 2, OutRound: 2}, Seat{Seat: 2, Out: "vote", OutOrder: 3, OutRound: 2})
	g.Name, g.Table, g.Number, g.Referee = "Friday", "2", 3, "Eka"
	g.BestMove = &BestMove{Seat: 4, Guess: []int{1, 2, 6}}
	return g
}

// TestMafiaRatings_TheGameAsTheirGamesAPIWritesIt pins each field.
func TestMafiaRatings_TheGameAsTheirGamesAPIWritesIt(t *testing.T) {
	g := formatsGame()
	b, _ := json.Marshal(MafiaRatings(&g, "c1"))
	want := `{"id":"g1","club_id":"c1","winner":"civ","players":[` +
		`{"nick_name":"P1","role":"don"},` +
		`{"nick_name":"P2","role":"maf","death_round":1,"death_type":"day"},` +
		`{"nick_name":"P3"},` + // the maniac: no role of theirs
		`{"nick_name":"P4","role":"srf","death_round":0,"death_type":"night","mafs_guessed":2},` +
		`{"nick_name":"P5","role":"civ"},` + // the doctor: a town card
		`{"nick_name":"P6","role":"civ"},` +
		`{"nick_name":"P7","role":"civ","death_round":1,"death_type":"warning"}]}`
	if string(b) != want {
		t.Errorf("mafiaratings:\n%s\nwant\n%s", b, want)
	}
	g.Winner = "maniac"
	if m := MafiaRatings(&g, "c1"); m.Winner != "" {
		t.Errorf("a maniac's win written as %q; theirs knows civ and maf only", m.Winner)
	}
}

// TestPolemica_TheGameAsPolemicasGameJSON pins each field.
func TestPolemica_TheGameAsPolemicasGameJSON(t *testing.T) {
	g := formatsGame()
	b, _ := json.Marshal(Polemica(&g))
	want := `{"name":"Friday","num":3,"table":2,"started":"2026-12-01T00:00:00.000","referee":{"username":"Eka"},"players":[` +
		`{"position":1,"username":"P1","role":0},{"position":2,"username":"P2","role":1},{"position":3,"username":"P3"},` +
		`{"position":4,"username":"P4","role":3,"guess":{"mafs":[1,2,6]}},{"position":5,"username":"P5","role":2},` +
		`{"position":6,"username":"P6","role":2},{"position":7,"username":"P7","role":2}],"result":0}`
	if string(b) != want {
		t.Errorf("polemica:\n%s\nwant\n%s", b, want)
	}
	g.Table, g.Winner = "A", "draw"
	if p := Polemica(&g); p.Table != 0 || p.Result != nil {
		t.Errorf("table A and a draw: table %d, result %v; want both left out", p.Table, p.Result)
	}
}
