package storetest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"mafia/rating"
	"mafia/store"
)

// OpenB opens a fresh, empty store for a benchmark, closed when it ends.
type OpenB func(b *testing.B) store.Store

// gameOf is the i-th game of a population of players: ten of them, chosen
// by i, so that games share players as a site's do.
func gameOf(i, players int) store.RatedGame {
	seats := make([]rating.Seat, 10)
	for s := range seats {
		seats[s] = rating.Seat{Player: fmt.Sprintf("p%d", (i*7+s*(players/10+1))%players), Side: rating.Town}
		if s == 2 || s == 5 || s == 9 {
			seats[s].Side = rating.Mafia
		}
	}
	return store.RatedGame{Game: fmt.Sprintf("g%d", i), At: time.Unix(int64(1_700_000_000+i), 0),
		Seats: seats, Result: rating.Result{Winner: rating.Side(i % 2)}}
}

// BenchRateGame rates ten-player games of a population of 1000 players,
// from parallel goroutines (4 per GOMAXPROCS, as rooms ending at once).
func BenchRateGame(b *testing.B, open OpenB) {
	s, ok := open(b).(store.Ratings)
	if !ok {
		b.Fatal("the store keeps no ratings")
	}
	var n atomic.Int64
	b.SetParallelism(4)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.RateGame(context.Background(), gameOf(int(n.Add(1)), 1000)); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchLeaderboard reads the first page (100 rows) of the overall
// leaderboard of 1000 players rated in 2000 games: of the ratings now
// (now), or of a season of half the games (season).
func BenchLeaderboard(b *testing.B, open OpenB) {
	s, ok := open(b).(store.Ratings)
	if !ok {
		b.Fatal("the store keeps no ratings")
	}
	ctx := context.Background()
	const games = 2000
	for i := range games {
		if _, err := s.RateGame(ctx, gameOf(i, 1000)); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		q    store.LeaderboardQuery
	}{
		{"now", store.LeaderboardQuery{Kind: rating.Overall}},
		{"season", store.LeaderboardQuery{Kind: rating.Overall, From: time.Unix(1_700_000_000+games/2, 0)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				rows, err := s.Leaderboard(ctx, c.q)
				if err != nil || len(rows) != 100 {
					b.Fatalf("%d rows, %v", len(rows), err)
				}
			}
		})
	}
}
