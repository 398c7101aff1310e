package sqlite

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"mafia/store"
)

// elevenSeats is a full table: seat n is "P<n>", with a token.
func elevenSeats() []store.Seat {
	seats := make([]store.Seat, 11)
	for i := range seats {
		seats[i] = store.Seat{Seat: i + 1, Name: fmt.Sprintf("P%d", i+1), TokenHash: fmt.Sprintf("h%d", i+1)}
	}
	return seats
}

// totalChanges is the rows the writer's connection has inserted, updated
// or deleted since it opened.
func totalChanges(t *testing.T, db *DB) int {
	t.Helper()
	var n int
	if err := db.w.QueryRow(`SELECT total_changes()`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSaveSeats_WritesOnlyTheSeatsThatChange(t *testing.T) {
	cases := []struct {
		name   string
		change func([]store.Seat) []store.Seat
		rows   int // rows written
	}{
		{"the same seats write nothing", func(s []store.Seat) []store.Seat { return s }, 0},
		{"the same seats in another order write nothing", func(s []store.Seat) []store.Seat {
			slices.Reverse(s)
			return s
		}, 0},
		{"a player joining writes one row", func(s []store.Seat) []store.Seat {
			s[4] = store.Seat{Seat: 5, Name: "Nino", TokenHash: "new"}
			return s
		}, 1},
		{"a bot taking a seat writes one row", func(s []store.Seat) []store.Seat {
			s[10] = store.Seat{Seat: 11, Name: "Bot 11", Bot: true}
			return s
		}, 1},
		{"a seat left writes one row", func(s []store.Seat) []store.Seat { return s[:10] }, 1},
		{"a seat added writes one row", func(s []store.Seat) []store.Seat {
			return append(s, store.Seat{Seat: 12, Name: "P12", TokenHash: "h12"})
		}, 1},
		{"two seats changed write two rows", func(s []store.Seat) []store.Seat {
			s[0].Name, s[1].TokenHash = "Ann", "other"
			return s
		}, 2},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db, _ := openTest(t)
			ctx := context.Background()
			id := fmt.Sprintf("t%d", i)
			if err := db.CreateTable(ctx, store.Table{ID: id, Kind: store.KindOnline, Status: store.StatusLobby}, elevenSeats()); err != nil {
				t.Fatal(err)
			}
			want := c.change(elevenSeats())
			before := totalChanges(t, db)
			if err := db.SaveSeats(ctx, id, want); err != nil {
				t.Fatal(err)
			}
			if got := totalChanges(t, db) - before; got != c.rows {
				t.Errorf("%d rows written, want %d", got, c.rows)
			}
			_, got, err := db.Table(ctx, store.KindOnline, id)
			if err != nil {
				t.Fatal(err)
			}
			slices.SortFunc(want, func(a, b store.Seat) int { return a.Seat - b.Seat })
			if !slices.Equal(got, want) {
				t.Errorf("seats\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestSaveSeats_ASeatTwiceIsAConflictAndChangesNothing(t *testing.T) {
	db, _ := openTest(t)
	ctx := context.Background()
	if err := db.CreateTable(ctx, store.Table{ID: "t", Kind: store.KindOnline, Status: store.StatusLobby}, elevenSeats()); err != nil {
		t.Fatal(err)
	}
	bad := append(elevenSeats(), store.Seat{Seat: 3, Name: "again"})
	bad[0].Name = "changed"
	if err := db.SaveSeats(ctx, "t", bad); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("SaveSeats with seat 3 twice: %v, want a conflict", err)
	}
	_, got, err := db.Table(ctx, store.KindOnline, "t")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, elevenSeats()) {
		t.Errorf("seats after a refused save\n got %+v\nwant %+v", got, elevenSeats())
	}
}
