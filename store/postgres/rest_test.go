package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"mafia/rating"
	"mafia/store"
)

// tenSeats is a ten-seat game of the players p<prefix>a..j: seats 3, 6 and
// 10 the mafia.
func tenSeats(prefix string) []rating.Seat {
	var out []rating.Seat
	for i := 1; i <= 10; i++ {
		s := rating.Seat{Player: prefix + string(rune('a'+i-1)), Side: rating.Town}
		if i == 3 || i == 6 || i == 10 {
			s.Side = rating.Mafia
		}
		out = append(out, s)
	}
	return out
}

// nodes opens n stores on one database, as n servers of a cluster do: each
// its own pool, nothing shared but the database (opened Shared, as a
// cluster's nodes will be).
func nodes(t *testing.T, n int) []*DB {
	t.Helper()
	url := migratedURL(t)
	var out []*DB
	for range n {
		db, err := Open(context.Background(), url, Shared()) // nodes of a cluster share the database
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		out = append(out, db)
	}
	return out
}

// TestNodes_TwoStoresOnOneDatabaseKeepTheRules: two stores on one
// database (two nodes) creating one name at once make one account; games
// of the same players rated from both at once all count, each change
// starting where another ended; and of two owners stepping down at once,
// one on each node, one stays.
func TestNodes_TwoStoresOnOneDatabaseKeepTheRules(t *testing.T) {
	ctx := context.Background()
	ns := nodes(t, 2)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = ns[i%2].CreateAccount(ctx, store.Account{Name: "Nino", Key: "nino", PasswordHash: "h", Created: time.Unix(1, 0)})
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
		} else if !errors.Is(err, store.ErrConflict) {
			t.Errorf("a losing create: %v", err)
		}
	}
	if won != 1 {
		t.Errorf("%d nodes created the account, want 1", won)
	}

	const games = 10
	errs = make([]error, games)
	for i := range games {
		wg.Go(func() {
			_, errs[i] = ns[i%2].RateGame(ctx, store.RatedGame{Game: fmt.Sprintf("g%d", i), At: time.Unix(int64(1000+i), 0),
				Seats: tenSeats("p"), Result: rating.Result{Winner: rating.Side(i % 2)}})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	h, err := ns[1].RatingHistory(ctx, "pa", 0)
	if err != nil || len(h) != 2*games {
		t.Fatalf("pa's history: %d changes, %v; want %d", len(h), err, 2*games)
	}
	afters := map[rating.Rating]int{}
	for _, c := range h {
		afters[c.After]++
	}
	fresh := 0
	for _, c := range h {
		if afters[c.Before] == 0 {
			fresh++
		}
	}
	if fresh != 2 {
		t.Errorf("%d changes start from no change's end, want 2 (pa's first overall and town)", fresh)
	}

	if err := ns[0].CreateClub(ctx, store.Club{ID: "c", Name: "club", CreatedAt: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
	var owners []int64
	for _, name := range []string{"a", "b"} {
		id, err := ns[0].CreateAccount(ctx, store.Account{Name: name, Key: name, PasswordHash: "h", Created: time.Unix(1, 0)})
		if err != nil {
			t.Fatal(err)
		}
		if err := ns[0].SetMember(ctx, store.ClubMembership{Club: "c", Account: id, Role: store.ClubOwner, Added: time.Unix(1, 0)}); err != nil {
			t.Fatal(err)
		}
		owners = append(owners, id)
	}
	errs = make([]error, 2)
	for i := range 2 {
		wg.Go(func() { errs[i] = ns[i].RemoveMember(ctx, "c", owners[i]) })
	}
	wg.Wait()
	ms, _ := ns[0].ClubMembers(ctx, "c")
	if len(ms) != 1 || ms[0].Role != store.ClubOwner || (errs[0] == nil) == (errs[1] == nil) {
		t.Errorf("after both owners left at once from two nodes: %+v, errors %v; want one owner left", ms, errs)
	}
}

// TestWriteHealth_ARefusalIsNoFailure: a name taken, a game rated again, a
// merge refused and a login of no account are the caller's mistakes, not
// the store's: its health stays good, and the writes that committed count.
func TestWriteHealth_ARefusalIsNoFailure(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	before := db.WriteStats().Commits
	id, err := db.CreateAccount(ctx, store.Account{Name: "Nino", Key: "nino", PasswordHash: "h", Created: time.Unix(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateAccount(ctx, store.Account{Name: "NINO", Key: "nino", PasswordHash: "h", Created: time.Unix(1, 0)}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a key taken: %v", err)
	}
	g := store.RatedGame{Game: "g", At: time.Unix(1, 0), Seats: tenSeats("p")}
	if _, err := db.RateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RateGame(ctx, g); !errors.Is(err, store.ErrAlreadyRated) {
		t.Fatalf("a game rated again: %v", err)
	}
	if err := db.CreateSession(ctx, store.Session{TokenHash: "s", Account: id + 1, Created: time.Unix(1, 0), Expires: time.Unix(2, 0)}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a login of no account: %v", err)
	}
	if err := db.CreateClub(ctx, store.Club{ID: "c", Name: "club", CreatedAt: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergePeople(ctx, "c", "x", "y", time.Unix(1, 0)); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a merge of no entries: %v", err)
	}
	if h := db.WriteHealth(); !h.LastFail.IsZero() || h.LastOK.IsZero() {
		t.Errorf("health after refusals: %+v; want no failure", h)
	}
	if n := db.WriteStats().Commits - before; n != 3 {
		t.Errorf("%d commits counted, want 3 (the account, the rating, the club)", n)
	}
}

// TestMigration_AccountsClubsRatingsComeAndGo: a database with games and
// accounts, clubs, members and ratings migrated down to the core (00001)
// keeps every table, seat and event, the later tables gone; opened again it
// comes back up and takes accounts, clubs and ratings anew.
func TestMigration_AccountsClubsRatingsComeAndGo(t *testing.T) {
	ctx := context.Background()
	url := migratedURL(t)
	db, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	seats := []store.Seat{{Seat: 1, Name: "Nino", TokenHash: "a"}, {Seat: 2, Name: "Bot 2", Bot: true}}
	if err := db.CreateTable(ctx, store.Table{ID: "t1", Kind: store.KindOnline, Name: "Friday", Status: store.StatusEnded, Winner: "town"}, seats); err != nil {
		t.Fatal(err)
	}
	id, err := db.CreateAccount(ctx, store.Account{Name: "Nino", Key: "nino", PasswordHash: "h", Created: time.Unix(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.KeepSeat(ctx, "t1", "a", id); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateClub(ctx, store.Club{ID: "c", Name: "club", CreatedAt: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetMember(ctx, store.ClubMembership{Club: "c", Account: id, Role: store.ClubOwner, Added: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RateGame(ctx, store.RatedGame{Game: "t1", At: time.Unix(1, 0), Seats: tenSeats("p")}); err != nil {
		t.Fatal(err)
	}
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	sqldb := stdlib.OpenDBFromPool(db.pool)
	p, err := goose.NewProvider(goose.DialectPostgres, sqldb, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 1); err != nil {
		t.Fatalf("down to 00001: %v", err)
	}
	var n int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename IN
		('accounts', 'sessions', 'clubs', 'club_people', 'club_merges', 'club_seasons', 'club_games', 'club_members',
		 'ratings', 'rated_games', 'rating_changes')`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("after the migration down: %d of the later tables left, %v", n, err)
	}
	sqldb.Close()
	db.Close()

	db, err = Open(ctx, url)
	if err != nil {
		t.Fatalf("up again: %v", err)
	}
	defer db.Close()
	tb, got, err := db.Table(ctx, store.KindOnline, "t1")
	if err != nil || tb.Name != "Friday" || len(got) != 2 || got[0].Account != id || got[1] != seats[1] {
		t.Errorf("the table after down and up: %+v %+v, %v", tb, got, err)
	}
	if _, err := db.AccountByKey(ctx, "nino"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an account after down and up: %v, want none", err)
	}
	if _, err := db.CreateAccount(ctx, store.Account{Name: "Nino", Key: "nino", PasswordHash: "h", Created: time.Unix(1, 0)}); err != nil {
		t.Errorf("an account after down and up: %v", err)
	}
	if _, err := db.RateGame(ctx, store.RatedGame{Game: "t1", At: time.Unix(1, 0), Seats: tenSeats("p")}); err != nil {
		t.Errorf("rating after down and up: %v", err)
	}
}
