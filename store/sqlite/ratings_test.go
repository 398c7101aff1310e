package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"mafia/store/storetest"
	"math"
	"testing"
	"time"

	"mafia/rating"
	"mafia/store"
)

// seats10 is a ten-seat game: seats 3, 6 and 10 the mafia, the others the
// town; the players are named by the letters, with the prefix.
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

func closeTo(a, b rating.Rating) bool {
	return math.Abs(a.Mu-b.Mu) < 1e-12 && math.Abs(a.Sigma-b.Sigma) < 1e-12
}

func TestRateGameKeepsWhatTheMethodComputesAcrossGames(t *testing.T) {
	db, path := openTest(t)
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	games := []store.RatedGame{
		{Game: "g1", At: t0, Seats: seats10("p", 3), Result: rating.Result{Winner: rating.Mafia}},
		{Game: "g2", At: t0.Add(time.Hour), Seats: seats10("p"), Result: rating.Result{Winner: rating.Town}},
	}
	// The same games computed by hand, the second from the first's ratings.
	want := map[rating.Key]rating.Rating{}
	wins := map[rating.Key]int{}
	for _, g := range games {
		us, err := rating.Game(rating.ForMafia(), g.Seats, g.Result, want)
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.RateGame(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(us) {
			t.Fatalf("%s: %d updates, want %d", g.Game, len(got), len(us))
		}
		for i := range us {
			if got[i] != us[i] {
				t.Fatalf("%s: update %d = %+v, want %+v", g.Game, i, got[i], us[i])
			}
			k := rating.Key{Player: us[i].Player, Kind: us[i].Kind}
			want[k] = us[i].After
			if us[i].Won {
				wins[k]++
			}
		}
	}
	if _, err := db.RateGame(ctx, games[0]); !errors.Is(err, store.ErrAlreadyRated) {
		t.Fatalf("rating g1 again: %v, want ErrAlreadyRated", err)
	}
	db.Close()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, p := range []string{"pa", "pc", "pf"} {
		rs, err := db.PlayerRatings(ctx, p)
		if err != nil || len(rs) != 2 || rs[0].Kind != rating.Overall {
			t.Fatalf("%s: %+v, %v", p, rs, err)
		}
		for _, r := range rs {
			k := rating.Key{Player: p, Kind: r.Kind}
			if !closeTo(r.Rating, want[k]) || r.Games != 2 || r.Wins != wins[k] || !r.At.Equal(t0.Add(time.Hour)) {
				t.Errorf("%s %s: %+v, want %v after 2 games, %d wins", p, r.Kind, r, want[k], wins[k])
			}
		}
	}
	h, err := db.RatingHistory(ctx, "pc", 0)
	if err != nil || len(h) != 4 {
		t.Fatalf("history of pc: %+v, %v", h, err)
	}
	if h[0].Game != "g2" || h[0].Kind != rating.Overall || h[2].Game != "g1" || !h[2].Left || h[2].Won || h[2].Side != rating.Mafia {
		t.Fatalf("history of pc: %+v", h)
	}
	if !closeTo(h[0].Before, h[2].After) {
		t.Fatalf("g2 began at %v, g1 ended at %v", h[0].Before, h[2].After)
	}
	if last, _ := db.RatingHistory(ctx, "pc", 1); len(last) != 1 || last[0] != h[0] {
		t.Fatalf("the last change: %+v", last)
	}
	if none, err := db.PlayerRatings(ctx, "nobody"); err != nil || len(none) != 0 {
		t.Fatalf("a player never rated: %+v, %v", none, err)
	}
}

func TestRateGameRefusesBadSeatsAndChangesNothing(t *testing.T) {
	db, _ := openTest(t)
	ctx := context.Background()
	dup := seats10("p")
	dup[1].Player = dup[0].Player
	for name, g := range map[string]store.RatedGame{
		"no id":          {Seats: seats10("p"), At: time.Unix(1, 0)},
		"a player twice": {Game: "g", Seats: dup, At: time.Unix(1, 0)},
		"one seat":       {Game: "g", Seats: seats10("p")[:1], At: time.Unix(1, 0)},
	} {
		if _, err := db.RateGame(ctx, g); !errors.Is(err, rating.ErrBadInput) {
			t.Errorf("%s: %v, want rating.ErrBadInput", name, err)
		}
	}
	if b, err := db.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall}); err != nil || len(b) != 0 {
		t.Fatalf("after refusals: %+v, %v", b, err)
	}
	// A refused game may be rated once right.
	if _, err := db.RateGame(ctx, store.RatedGame{Game: "g", Seats: seats10("p"), At: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
}

func TestLeaderboardByKindAndSeason(t *testing.T) {
	db, _ := openTest(t)
	ctx := context.Background()
	nov := time.Date(2026, 11, 10, 20, 0, 0, 0, time.UTC)
	dec := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	// November: the mafia (pc, pf, pj) win. December: other players; the
	// town wins, and pa of November plays again, for the mafia.
	if _, err := db.RateGame(ctx, store.RatedGame{Game: "n1", At: nov, Seats: seats10("p"), Result: rating.Result{Winner: rating.Mafia}}); err != nil {
		t.Fatal(err)
	}
	dseats := seats10("q")
	dseats[2].Player = "pa"
	if _, err := db.RateGame(ctx, store.RatedGame{Game: "d1", At: dec, Seats: dseats, Result: rating.Result{Winner: rating.Town}}); err != nil {
		t.Fatal(err)
	}
	all, err := db.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall})
	if err != nil || len(all) != 19 {
		t.Fatalf("overall: %d rows, %v", len(all), err)
	}
	for i := 1; i < len(all); i++ {
		if all[i].Rating.Ordinal() > all[i-1].Rating.Ordinal() || all[i].Rank != i+1 {
			t.Fatalf("overall out of order at %d: %+v", i, all)
		}
	}
	if all[0].Player != "pc" && all[0].Player != "pf" && all[0].Player != "pj" {
		t.Fatalf("overall top: %+v, want a November mafioso", all[0])
	}
	// Equal ratings: by the player's id.
	if all[0].Player != "pc" || all[1].Player != "pf" || all[2].Player != "pj" || all[0].Wins != 1 {
		t.Fatalf("overall top three: %+v", all[:3])
	}
	page, _ := db.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, Limit: 2, Offset: 1})
	if len(page) != 2 || page[0] != all[1] || page[1] != all[2] {
		t.Fatalf("page 2 of 2: %+v", page)
	}
	town, _ := db.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.AsTown})
	mafia, _ := db.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.AsMafia})
	if len(town) != 14 || len(mafia) != 6 { // pa played both sides
		t.Fatalf("town %d rows, mafia %d", len(town), len(mafia))
	}
	// December's season: its ten players; pa with the rating after d1 and
	// one game; November's winners are not in it.
	season, err := db.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, From: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		To: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil || len(season) != 10 {
		t.Fatalf("December: %+v, %v", season, err)
	}
	now, _ := db.PlayerRatings(ctx, "pa")
	for _, s := range season {
		if s.Player == "pc" {
			t.Fatalf("November's pc in December: %+v", s)
		}
		if s.Player == "pa" && (s.Games != 1 || s.Wins != 0 || !closeTo(s.Rating, now[0].Rating)) {
			t.Fatalf("pa in December: %+v, rating now %+v", s, now[0])
		}
	}
	nseason, _ := db.Leaderboard(ctx, store.LeaderboardQuery{Kind: rating.Overall, To: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
	if len(nseason) != 10 || nseason[0].Player != "pc" {
		t.Fatalf("until December: %+v", nseason)
	}
	for _, s := range nseason {
		if s.Player == "pa" && (s.Games != 1 || closeTo(s.Rating, now[0].Rating)) {
			t.Fatalf("pa until December: %+v, want the rating after n1", s)
		}
	}
}

// TestMigration_RatingsComeAndGoAndKeepEveryGame: a file of the release
// before ratings (every migration before 00008) opens, keeps its tables and
// their games, and rates; the migration goes down (the ratings' tables go,
// the games stay) and up again.
func TestMigration_RatingsComeAndGoAndKeepEveryGame(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	if err := db.CreateTable(ctx, store.Table{ID: "old-1", Kind: store.KindOnline, Status: store.StatusEnded}, nil); err != nil {
		t.Fatal(err)
	}
	log, _ := storetest.BotGame(t, 11)
	if err := db.AppendEvents(ctx, "old-1", 0, log); err != nil {
		t.Fatal(err)
	}
	db.Close()
	down := func() {
		c, err := sql.Open("sqlite", path+"?"+pragmas)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		p := provider(t, c)
		var before int64
		srcs := p.ListSources()
		for _, s := range srcs {
			if s.Version < 8 && s.Version > before {
				before = s.Version
			}
		}
		if _, err := p.DownTo(ctx, before); err != nil {
			t.Fatalf("down to %d: %v", before, err)
		}
		var n int
		if err := c.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name IN ('ratings', 'rating_changes', 'rated_games')`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("after the migration down: %d ratings tables, %v", n, err)
		}
	}
	down()
	for round := 0; round < 2; round++ {
		db, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.Events(ctx, "old-1")
		if err != nil || len(got) != len(log) {
			t.Fatalf("the old game: %d events of %d, %v", len(got), len(log), err)
		}
		if _, err := db.RateGame(ctx, store.RatedGame{Game: "old-1", At: time.Unix(1, 0), Seats: seats10("p")}); err != nil {
			t.Fatalf("rating after the upgrade: %v", err)
		}
		db.Close()
		if round == 0 {
			down()
		}
	}
}
