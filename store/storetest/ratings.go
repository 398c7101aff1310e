package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"mafia/rating"
	"mafia/store"
)

// RatingsStore is a Store that keeps ratings.
type RatingsStore interface {
	store.Store
	store.Ratings
}

// seats10 is a ten-seat game: seats 3, 6 and 10 the mafia, the others the
// town; the players are named by the letters, with the prefix; the seats
// in left left early.
func seats10(prefix string, left ...int) []rating.Seat {
	var out []rating.Seat
	for i := 1; i <= 10; i++ {
		s := rating.Seat{Player: prefix + string(rune('a'+i-1)), Side: rating.Town}
		if i == 3 || i == 6 || i == 10 {
			s.Side = rating.Mafia
		}
		for _, l := range left {
			s.Left = s.Left || l == i
		}
		out = append(out, s)
	}
	return out
}

// closeTo compares ratings to within a store's float rounding.
func closeTo(a, b rating.Rating) bool {
	return math.Abs(a.Mu-b.Mu) < 1e-9 && math.Abs(a.Sigma-b.Sigma) < 1e-9
}

// rate rates a game, failing the test if the store refuses it.
func rate(t *testing.T, s store.Ratings, g store.RatedGame) []rating.Update {
	t.Helper()
	us, err := s.RateGame(context.Background(), g)
	if err != nil {
		t.Fatalf("rate %s: %v", g.Game, err)
	}
	return us
}

// RunRatings pins store.Ratings: a game rated once as package rating
// computes it, the players' ratings and history, and the leaderboards by
// kind and season, with ranks, offsets and ties.
func RunRatings(t *testing.T, open Open) {
	ctx := context.Background()

	t.Run("ratings are what the method computes, game after game", func(t *testing.T) {
		s := openAs[RatingsStore](t, open)
		games := []store.RatedGame{
			{Game: "g1", At: t0, Seats: seats10("p", 3), Result: rating.Result{Winner: rating.Mafia}},
			{Game: "g2", At: t0.Add(time.Hour), Seats: seats10("p"), Result: rating.Result{Winner: rating.Town}},
		}
		want := map[rating.Key]rating.Rating{}
		wins := map[rating.Key]int{}
		for _, g := range games {
			us, err := rating.Game(rating.ForMafia(), g.Seats, g.Result, want)
			if err != nil {
				t.Fatal(err)
			}
			got := rate(t, s, g)
			if len(got) != len(us) {
				t.Fatalf("%s: %d updates, want %d", g.Game, len(got), len(us))
			}
			for i := range us {
				if got[i].Player != us[i].Player || got[i].Kind != us[i].Kind || !closeTo(got[i].After, us[i].After) || got[i].Won != us[i].Won {
					t.Fatalf("%s: update %d = %+v, want %+v", g.Game, i, got[i], us[i])
				}
				k := rating.Key{Player: us[i].Player, Kind: us[i].Kind}
				want[k] = us[i].After
				if us[i].Won {
					wins[k]++
				}
			}
		}
		for _, p := range []string{"pa", "pc", "pf"} {
			rs, err := s.PlayerRatings(ctx, p)
			if err != nil || len(rs) != 2 || rs[0].Kind != rating.Overall {
				t.Fatalf("%s: %+v, %v", p, rs, err)
			}
			for _, r := range rs {
				k := rating.Key{Player: p, Kind: r.Kind}
				if r.Player != p || !closeTo(r.Rating, want[k]) || r.Games != 2 || r.Wins != wins[k] || !r.At.Equal(t0.Add(time.Hour)) {
					t.Errorf("%s %s: %+v, want %v after 2 games, %d wins", p, r.Kind, r, want[k], wins[k])
				}
			}
		}
		if none, err := s.PlayerRatings(ctx, "nobody"); err != nil || len(none) != 0 {
			t.Errorf("a player never rated: %+v, %v", none, err)
		}
	})

	t.Run("a game is rated once", func(t *testing.T) {
		s := openAs[RatingsStore](t, open)
		g := store.RatedGame{Game: "g1", At: t0, Seats: seats10("p"), Result: rating.Result{Winner: rating.Mafia}}
		rate(t, s, g)
		before, _ := s.PlayerRatings(ctx, "pa")
		again := g
		again.Result.Winner, again.At = rating.Town, t0.Add(time.Hour)
		if _, err := s.RateGame(ctx, again); !errors.Is(err, store.ErrAlreadyRated) {
			t.Fatalf("rating g1 again: %v, want ErrAlreadyRated", err)
		}
		after, _ := s.PlayerRatings(ctx, "pa")
		if len(after) != len(before) || after[0] != before[0] {
			t.Errorf("a refused second rating changed pa: %+v, was %+v", after, before)
		}
		if h, _ := s.RatingHistory(ctx, "pa", 0); len(h) != 2 {
			t.Errorf("pa's history after the refusal: %d changes, want 2", len(h))
		}
	})

	t.Run("of callers rating one game at once exactly one rates it", func(t *testing.T) {
		s := openAs[RatingsStore](t, open)
		const n = 6
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				_, errs[i] = s.RateGame(ctx, store.RatedGame{Game: "g", At: t0, Seats: seats10("p"), Result: rating.Result{Winner: rating.Town}})
			})
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, store.ErrAlreadyRated):
				t.Errorf("a losing caller: %v, want ErrAlreadyRated", err)
			}
		}
		if rs, _ := s.PlayerRatings(ctx, "pa"); won != 1 || len(rs) != 2 || rs[0].Games != 1 {
			t.Errorf("%d callers rated the game; pa %+v", won, rs)
		}
	})

	t.Run("bad seats are refused and change nothing", func(t *testing.T) {
		s := openAs[RatingsStore](t, open)
		dup := seats10("p")
		dup[1].Player = dup[0].Player
		for name, g := range map[string]store.RatedGame{
			"no id":          {Seats: seats10("p"), At: t0},
			"a player twice": {Game: "g", Seats: dup, At: t0},
			"one seat":       {Game: "g", Seats: seats10("p")[:1], At: t0},
		} {
			if _, err := s.RateGame(ctx, g); !errors.Is(err, rating.ErrBadInput) {
				t.Errorf("%s: %v, want rating.ErrBadInput", name, err)
			}
		}
		if b, err := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall}); err != nil || len(b) != 0 {
			t.Fatalf("after refusals: %+v, %v", b, err)
		}
		// A refused game may be rated once right.
		rate(t, s, store.RatedGame{Game: "g", Seats: seats10("p"), At: t0})
	})

	t.Run("the history is the latest first, each change starting where the last ended", func(t *testing.T) {
		s := openAs[RatingsStore](t, open)
		rate(t, s, store.RatedGame{Game: "g1", At: t0, Seats: seats10("p", 3), Result: rating.Result{Winner: rating.Mafia}})
		rate(t, s, store.RatedGame{Game: "g2", At: t0.Add(time.Hour), Seats: seats10("p"), Result: rating.Result{Winner: rating.Town}})
		h, err := s.RatingHistory(ctx, "pc", 0)
		if err != nil || len(h) != 4 {
			t.Fatalf("history of pc: %+v, %v", h, err)
		}
		if h[0].Game != "g2" || h[0].Kind != rating.Overall || h[1].Kind != rating.AsMafia || h[0].Player != "pc" ||
			!h[0].At.Equal(t0.Add(time.Hour)) || h[0].Won || h[0].Left {
			t.Errorf("pc's last change: %+v", h[:2])
		}
		if h[2].Game != "g1" || !h[2].Left || h[2].Won || h[2].Side != rating.Mafia || h[2].Before != rating.ForMafia().New() {
			t.Errorf("pc's first change (left early, rated as losing): %+v", h[2])
		}
		if !closeTo(h[0].Before, h[2].After) || !closeTo(h[1].Before, h[3].After) {
			t.Errorf("g2 began at %v, g1 ended at %v", h[0].Before, h[2].After)
		}
		if last, _ := s.RatingHistory(ctx, "pc", 1); len(last) != 1 || last[0] != h[0] {
			t.Errorf("the last change: %+v, want %+v", last, h[0])
		}
		if h, err := s.RatingHistory(ctx, "nobody", 0); err != nil || len(h) != 0 {
			t.Errorf("a player never rated: %+v, %v", h, err)
		}
	})

	t.Run("games of the same players rated at once both count", func(t *testing.T) {
		s := openAs[RatingsStore](t, open)
		const n = 8
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				_, errs[i] = s.RateGame(ctx, store.RatedGame{Game: fmt.Sprintf("g%d", i), At: t0.Add(time.Duration(i) * time.Second),
					Seats: seats10("p"), Result: rating.Result{Winner: rating.Side(i % 2)}})
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		rs, err := s.PlayerRatings(ctx, "pa")
		if err != nil || len(rs) != 2 || rs[0].Games != n || rs[1].Games != n {
			t.Fatalf("pa after %d games: %+v, %v", n, rs, err)
		}
		h, _ := s.RatingHistory(ctx, "pa", 0)
		if len(h) != 2*n {
			t.Fatalf("pa's history: %d changes, want %d", len(h), 2*n)
		}
		// Chained in the order they were written: every before is some
		// change's after, but the first's (a new player's).
		afters := map[rating.Rating]bool{}
		for _, c := range h {
			afters[c.After] = true
		}
		fresh := 0
		for _, c := range h {
			if !afters[c.Before] {
				if c.Before != rating.ForMafia().New() {
					t.Errorf("a change from %v, which no change ended at", c.Before)
				}
				fresh++
			}
		}
		if fresh != 2 { // the first overall and the first town change
			t.Errorf("%d changes start from a new rating, want 2", fresh)
		}
		for _, r := range rs {
			if !afters[r.Rating] {
				t.Errorf("the %s rating %v is no change's end", r.Kind, r.Rating)
			}
		}
	})

	t.Run("leaderboards by kind rank by ordinal, ties by games then id, with offsets", func(t *testing.T) {
		s := openAs[RatingsStore](t, open)
		nov := time.Date(2026, 11, 10, 20, 0, 0, 0, time.UTC)
		dec := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
		// November: the mafia (pc, pf, pj) win. December: other players;
		// the town wins, and pa of November plays again, for the mafia.
		rate(t, s, store.RatedGame{Game: "n1", At: nov, Seats: seats10("p"), Result: rating.Result{Winner: rating.Mafia}})
		dseats := seats10("q")
		dseats[2].Player = "pa"
		rate(t, s, store.RatedGame{Game: "d1", At: dec, Seats: dseats, Result: rating.Result{Winner: rating.Town}})
		all, err := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall})
		if err != nil || len(all) != 19 {
			t.Fatalf("overall: %d rows, %v", len(all), err)
		}
		for i := 1; i < len(all); i++ {
			if all[i].Rating.Ordinal() > all[i-1].Rating.Ordinal() || all[i].Rank != i+1 {
				t.Fatalf("overall out of order at %d: %+v", i, all)
			}
		}
		// Equal ratings: by the player's id.
		if all[0].Player != "pc" || all[1].Player != "pf" || all[2].Player != "pj" || all[0].Wins != 1 || all[0].Games != 1 || all[0].Rank != 1 {
			t.Fatalf("overall top three: %+v", all[:3])
		}
		page, _ := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, Limit: 2, Offset: 1})
		if len(page) != 2 || page[0] != all[1] || page[1] != all[2] {
			t.Fatalf("page 2 of 2: %+v, want %+v", page, all[1:3])
		}
		if past, err := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, Offset: 100}); err != nil || len(past) != 0 {
			t.Errorf("an offset past the end: %+v, %v", past, err)
		}
		town, _ := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.AsTown})
		mafia, _ := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.AsMafia})
		if len(town) != 14 || len(mafia) != 6 { // pa played both sides
			t.Fatalf("town %d rows, mafia %d", len(town), len(mafia))
		}
		// Ties in ordinal: more games first, then the player's id.
		for i := 1; i < len(all); i++ {
			a, b := all[i-1], all[i]
			if a.Rating.Ordinal() == b.Rating.Ordinal() && (a.Games < b.Games || (a.Games == b.Games && a.Player > b.Player)) {
				t.Errorf("a tie out of order: %+v before %+v", a, b)
			}
		}
	})

	t.Run("a season's leaderboard counts its games only, with the rating after the last", func(t *testing.T) {
		s := openAs[RatingsStore](t, open)
		nov := time.Date(2026, 11, 10, 20, 0, 0, 0, time.UTC)
		dec := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
		rate(t, s, store.RatedGame{Game: "n1", At: nov, Seats: seats10("p"), Result: rating.Result{Winner: rating.Mafia}})
		dseats := seats10("q")
		dseats[2].Player = "pa"
		rate(t, s, store.RatedGame{Game: "d1", At: dec, Seats: dseats, Result: rating.Result{Winner: rating.Town}})
		decFrom, janFrom := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
		season, err := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, From: decFrom, To: janFrom})
		if err != nil || len(season) != 10 {
			t.Fatalf("December: %+v, %v", season, err)
		}
		now, _ := s.PlayerRatings(ctx, "pa")
		for i, st := range season {
			if st.Rank != i+1 || st.Player == "pc" {
				t.Errorf("December's row %d: %+v", i, st)
			}
			if st.Player == "pa" && (st.Games != 1 || st.Wins != 0 || !closeTo(st.Rating, now[0].Rating)) {
				t.Errorf("pa in December: %+v, rating now %+v", st, now[0])
			}
		}
		until, _ := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, To: decFrom})
		if len(until) != 10 || until[0].Player != "pc" {
			t.Fatalf("until December: %+v", until)
		}
		for _, st := range until {
			if st.Player == "pa" && (st.Games != 1 || closeTo(st.Rating, now[0].Rating)) {
				t.Errorf("pa until December: %+v, want the rating after n1", st)
			}
		}
		// From is included, To is not.
		if at, _ := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, From: dec, To: dec.Add(time.Millisecond)}); len(at) != 10 {
			t.Errorf("a season from d1's time: %d rows, want 10", len(at))
		}
		if before, _ := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, From: nov.Add(time.Millisecond), To: dec}); len(before) != 0 {
			t.Errorf("a season ending at d1's time: %+v, want none", before)
		}
		page, _ := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.AsMafia, From: decFrom, Limit: 1, Offset: 2})
		mafia, _ := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.AsMafia, From: decFrom})
		if len(mafia) != 3 || len(page) != 1 || page[0] != mafia[2] || page[0].Rank != 3 {
			t.Errorf("December's mafia, from the third: %+v of %+v", page, mafia)
		}
	})

	t.Run("a board of some players ranks them among themselves, now and in a season", func(t *testing.T) {
		s := openAs[RatingsStore](t, open)
		nov := time.Date(2026, 11, 10, 20, 0, 0, 0, time.UTC)
		dec := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
		rate(t, s, store.RatedGame{Game: "n1", At: nov, Seats: seats10("p"), Result: rating.Result{Winner: rating.Mafia}})
		dseats := seats10("q")
		dseats[2].Player = "pa"
		rate(t, s, store.RatedGame{Game: "d1", At: dec, Seats: dseats, Result: rating.Result{Winner: rating.Town}})
		all, err := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall})
		if err != nil {
			t.Fatal(err)
		}
		// Every third player of the whole board, and one nobody rated.
		var some []string
		var want []store.Standing
		for i := 0; i < len(all); i += 3 {
			some = append(some, all[i].Player)
			row := all[i]
			row.Rank = len(want) + 1
			want = append(want, row)
		}
		some = append(some, "nobody")
		got, err := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, Players: some})
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("the board of %v:\n got %+v, %v\nwant %+v", some, got, err, want)
		}
		if page, _ := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, Players: some, Limit: 2, Offset: 1}); !slices.Equal(page, want[1:3]) {
			t.Errorf("its second page of two: %+v, want %+v", page, want[1:3])
		}
		if none, err := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, Players: []string{}}); err != nil || len(none) != 0 {
			t.Errorf("the board of nobody: %+v, %v", none, err)
		}
		// A season: December's players among pa, pb and qa; pb played in
		// November only.
		decFrom := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
		season, err := s.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, From: decFrom, Players: []string{"pa", "pb", "qa"}})
		if err != nil || len(season) != 2 || season[0].Rank != 1 || season[1].Rank != 2 {
			t.Fatalf("December's board of pa, pb, qa: %+v, %v", season, err)
		}
		for _, st := range season {
			if st.Player != "pa" && st.Player != "qa" {
				t.Errorf("December's board lists %s, who did not play in it", st.Player)
			}
		}
	})
}
