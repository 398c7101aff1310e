package club

import (
	"strconv"
	"testing"
)

// BenchmarkStandings counts a season of 1,000 games of 11 seats from a
// roster of 200 people.
func BenchmarkStandings(b *testing.B) {
	roles := []string{"don", "mafia", "mafia", "maniac", "detective", "doctor", "citizen", "citizen", "citizen", "citizen", "citizen"}
	var people []Person
	for i := range 200 {
		people = append(people, Person{ID: "p" + strconv.Itoa(i), Name: "ნინო " + strconv.Itoa(i)})
	}
	roster := NewRoster(people)
	games := make([]Game, 1000)
	for i := range games {
		g := Game{ID: strconv.Itoa(i), Date: "2026-12-01", Winner: []string{"town", "mafia", "maniac"}[i%3]}
		for s := 1; s <= 11; s++ {
			g.Seats = append(g.Seats, Seat{Seat: s, Person: people[(i*7+s)%200].ID, Role: roles[s-1]})
		}
		g.Seats[6].Out, g.Seats[6].OutOrder, g.Seats[6].OutRound = "night", 1, 1
		g.BestMove = &BestMove{Seat: 7, Guess: []int{1, 2, 5}}
		games[i] = g
	}
	s, season := DefaultScoring(), Season{Name: "s", From: "2026-01-01", To: "2026-12-31"}
	b.ReportAllocs()
	for b.Loop() {
		if st := s.Standings(season, roster, games); len(st) != 200 {
			b.Fatal(len(st))
		}
	}
}

// BenchmarkSearch searches a roster of 1,000 names in three scripts.
func BenchmarkSearch(b *testing.B) {
	var people []Person
	for i := range 1000 {
		people = append(people, Person{ID: strconv.Itoa(i), Name: []string{"ნინო ბერიძე", "Нино Беридзе", "Giorgi Kapanadze"}[i%3] + " " + strconv.Itoa(i)})
	}
	r := NewRoster(people)
	b.ReportAllocs()
	for b.Loop() {
		if len(r.Search("nino")) == 0 {
			b.Fatal("none")
		}
	}
}
