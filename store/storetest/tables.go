package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"mafia/store"
)

// tableRoundTrip: a table comes back as recorded (its seed a whole uint64,
// its times to the nanosecond), UpdateTable saves status, seed, winner,
// data and the update time only, SaveSeats replaces the seats, an ID twice
// is ErrConflict and a missing table ErrNotFound everywhere.
func tableRoundTrip(t *testing.T, open Open) {
	db := open(t)
	created := time.Date(2025, 3, 4, 5, 6, 7, 891011121, time.FixedZone("x", 3600))
	tb := store.Table{
		ID: "abc", Kind: store.KindOnline, Name: "Friday night", Public: false, Invite: "inv-123", Status: store.StatusLobby,
		Data: []byte(`{"setup":"classic"}`), HostToken: "hash-of-host", Seed: 1<<64 - 1,
		CreatedAt: created, UpdatedAt: created.Add(time.Second),
	}
	seats := []store.Seat{
		{Seat: 1, Name: "Ann", TokenHash: "h1"},
		{Seat: 2, Name: "Bot Bob", Bot: true},
		{Seat: 3, Name: "Nino", TokenHash: "h3", Account: 42},
		{Seat: 4, Name: "Nino's bot", Bot: true, Account: 42, BotAccount: true},
	}
	if err := db.CreateTable(bg, tb, seats); err != nil {
		t.Fatal(err)
	}
	got, gotSeats, err := db.Table(bg, store.KindOnline, "abc")
	if err != nil {
		t.Fatal(err)
	}
	if !sameTable(got, tb) {
		t.Errorf("table\n got %+v\nwant %+v", got, tb)
	}
	if !slices.Equal(gotSeats, seats) {
		t.Errorf("seats %+v, want %+v", gotSeats, seats)
	}
	if err := db.CreateTable(bg, tb, nil); !errors.Is(err, store.ErrConflict) {
		t.Errorf("CreateTable of an existing ID: %v, want ErrConflict", err)
	}

	up := tb
	up.Name, up.Invite = "renamed", "other"
	up.Status, up.Seed, up.Winner, up.Data = store.StatusEnded, 42, "town", []byte(`{}`)
	up.UpdatedAt = created.Add(time.Hour)
	if err := db.UpdateTable(bg, up); err != nil {
		t.Fatal(err)
	}
	got, _, err = db.Table(bg, store.KindOnline, "abc")
	if err != nil {
		t.Fatal(err)
	}
	want := tb
	want.Status, want.Seed, want.Winner, want.Data, want.UpdatedAt = up.Status, up.Seed, up.Winner, up.Data, up.UpdatedAt
	if !sameTable(got, want) {
		t.Errorf("after UpdateTable\n got %+v\nwant %+v", got, want)
	}

	seats2 := []store.Seat{{Seat: 3, Name: "Cy", TokenHash: "h3"}, {Seat: 1, Name: "Ann", TokenHash: "h1b"}}
	if err := db.SaveSeats(bg, "abc", seats2); err != nil {
		t.Fatal(err)
	}
	_, gotSeats, _ = db.Table(bg, store.KindOnline, "abc")
	if want := []store.Seat{seats2[1], seats2[0]}; !slices.Equal(gotSeats, want) {
		t.Errorf("after SaveSeats: %+v, want %+v", gotSeats, want)
	}

	if _, _, err := db.Table(bg, store.KindOnline, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Table of a missing ID: %v", err)
	}
	if err := db.UpdateTable(bg, store.Table{ID: "nope"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UpdateTable of a missing ID: %v", err)
	}
	if err := db.SaveSeats(bg, "nope", seats); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SaveSeats of a missing ID: %v", err)
	}
	// A zero CreatedAt is now, a zero UpdatedAt the CreatedAt.
	before := time.Now()
	if err := db.CreateTable(bg, store.Table{ID: "now", Kind: store.KindOnline, Status: store.StatusLobby}, nil); err != nil {
		t.Fatal(err)
	}
	if now, _, err := db.Table(bg, store.KindOnline, "now"); err != nil || now.CreatedAt.Before(before.Add(-time.Second)) || !now.UpdatedAt.Equal(now.CreatedAt) {
		t.Errorf("a table created without times: %+v, %v", now, err)
	}
}

func tablesNewestFirst(t *testing.T, open Open) {
	db := open(t)
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		id     string
		status store.Status
		public bool
		at     time.Duration
	}{
		{"a", store.StatusLobby, true, 0},
		{"b", store.StatusLobby, false, 1},
		{"c", store.StatusPlaying, true, 2},
		{"d", store.StatusLobby, true, 3},
		{"e", store.StatusLobby, true, 3}, // same time as d, recorded later
		{"f", store.StatusLobby, true, 10 * time.Hour},
	} {
		err := db.CreateTable(bg, store.Table{ID: c.id, Kind: store.KindOnline, Status: c.status, Public: c.public, CreatedAt: base.Add(c.at)}, nil)
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		status     store.Status
		publicOnly bool
		limit      int
		want       []string
	}{
		{store.StatusLobby, false, 0, []string{"f", "e", "d", "b", "a"}},
		{store.StatusLobby, true, 0, []string{"f", "e", "d", "a"}},
		{store.StatusLobby, true, 2, []string{"f", "e"}},
		{store.StatusPlaying, false, 10, []string{"c"}},
		{store.StatusEnded, false, 10, nil},
		{"", false, 0, []string{"f", "e", "d", "c", "b", "a"}},
	} {
		list, err := db.Tables(bg, store.KindOnline, store.TableFilter{Status: c.status, PublicOnly: c.publicOnly, Limit: c.limit})
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(list); !slices.Equal(got, c.want) {
			t.Errorf("Tables(%q, %v, %d) = %v, want %v", c.status, c.publicOnly, c.limit, got, c.want)
		}
	}
	all, _ := db.Tables(bg, store.KindOnline, store.TableFilter{Status: store.StatusLobby, Limit: 1})
	if len(all) != 1 || !all[0].CreatedAt.Equal(base.Add(10*time.Hour)) || !all[0].UpdatedAt.Equal(all[0].CreatedAt) {
		t.Errorf("times: %+v", all)
	}
}

func ids(ts []store.Table) []string {
	var out []string
	for _, tb := range ts {
		out = append(out, tb.ID)
	}
	return out
}

// kindsApart: online and in-person tables under the same statuses never
// meet: Table of the other kind is ErrNotFound (also for a table set
// aside), Tables and TableIDs list the kind asked for, and an ID is one
// table whatever its kind.
func kindsApart(t *testing.T, open Open) {
	db := open(t)
	tables := []store.Table{
		{ID: "on1", Kind: store.KindOnline, Status: store.StatusPlaying},
		{ID: "ip1", Kind: store.KindInPerson, Status: store.StatusPlaying},
		{ID: "on2", Kind: store.KindOnline, Status: store.StatusPlaying, Public: true},
		{ID: "ip2", Kind: store.KindInPerson, Status: store.StatusPlaying, Public: true},
	}
	for _, tb := range tables {
		if err := db.CreateTable(bg, tb, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, tb := range tables {
		other := store.KindOnline
		if tb.Kind == other {
			other = store.KindInPerson
		}
		if got, _, err := db.Table(bg, tb.Kind, tb.ID); err != nil || got.Kind != tb.Kind {
			t.Errorf("Table(%s, %s): kind %q, %v; want it, of its kind", tb.Kind, tb.ID, got.Kind, err)
		}
		if _, _, err := db.Table(bg, other, tb.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Table(%s, %s) of a table %s: %v; want ErrNotFound", other, tb.ID, tb.Kind, err)
		}
		dup := store.Table{ID: tb.ID, Kind: other, Status: store.StatusLobby}
		if err := db.CreateTable(bg, dup, nil); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a table %s under the ID of a table %s: %v; want ErrConflict", other, tb.Kind, err)
		}
	}
	if err := db.SetAside(bg, "ip2", "a test"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.Table(bg, store.KindInPerson, "ip2"); !errors.Is(err, store.ErrDamaged) {
		t.Errorf("Table of a table set aside: %v; want ErrDamaged", err)
	}
	if _, _, err := db.Table(bg, store.KindOnline, "ip2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Table of another kind's table set aside: %v; want ErrNotFound", err)
	}
	if err := db.CreateTable(bg, store.Table{ID: "ip3", Kind: store.KindInPerson, Status: store.StatusPlaying, Public: true}, nil); err != nil {
		t.Fatal(err)
	}
	for kind, want := range map[store.Kind][]string{store.KindOnline: {"on1", "on2"}, store.KindInPerson: {"ip1", "ip3"}} {
		got, err := db.TableIDs(bg, kind, store.StatusPlaying)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("TableIDs(%s): %v, %v; want %v", kind, got, err, want)
		}
		list, err := db.Tables(bg, kind, store.TableFilter{})
		got = ids(list)
		if slices.Reverse(got); err != nil || !slices.Equal(got, want) {
			t.Errorf("Tables(%s): %v, %v; want %v, newest first", kind, got, err, want)
		}
		public, err := db.Tables(bg, kind, store.TableFilter{Status: store.StatusPlaying, PublicOnly: true})
		if err != nil || len(public) != 1 || public[0].ID != want[1] {
			t.Errorf("Tables(%s, public): %d tables, %v; want %s", kind, len(public), err, want[1])
		}
	}
}

// noneIsNotAKind: a table without a kind (or of an unknown one) is not
// recorded, and a load or listing must name one of the kinds.
func noneIsNotAKind(t *testing.T, open Open) {
	db := open(t)
	for _, k := range []store.Kind{"", "club"} {
		if err := db.CreateTable(bg, store.Table{ID: "t", Kind: k, Status: store.StatusLobby}, nil); err == nil {
			t.Errorf("CreateTable of kind %q: recorded", k)
		}
		if _, _, err := db.Table(bg, k, "t"); err == nil || errors.Is(err, store.ErrNotFound) {
			t.Errorf("Table of kind %q: %v; want a refusal of the kind", k, err)
		}
		if _, err := db.Tables(bg, k, store.TableFilter{}); err == nil {
			t.Errorf("Tables of kind %q: no error", k)
		}
		if _, err := db.TableIDs(bg, k, store.StatusLobby); err == nil {
			t.Errorf("TableIDs of kind %q: no error", k)
		}
	}
}

// elevenSeats is a full table: seat n is "P<n>", with a token.
func elevenSeats() []store.Seat {
	seats := make([]store.Seat, 11)
	for i := range seats {
		seats[i] = store.Seat{Seat: i + 1, Name: fmt.Sprintf("P%d", i+1), TokenHash: fmt.Sprintf("h%d", i+1)}
	}
	return seats
}

// saveSeatsReplaces: whatever changes (a join, a bot, a seat left or
// added, the same seats in another order), the seats read back are the
// ones saved, in seat order.
func saveSeatsReplaces(t *testing.T, open Open) {
	db := open(t)
	for i, change := range []func([]store.Seat) []store.Seat{
		func(s []store.Seat) []store.Seat { return s },
		func(s []store.Seat) []store.Seat { slices.Reverse(s); return s },
		func(s []store.Seat) []store.Seat {
			s[4] = store.Seat{Seat: 5, Name: "Nino", TokenHash: "new"}
			return s
		},
		func(s []store.Seat) []store.Seat { s[10] = store.Seat{Seat: 11, Name: "Bot 11", Bot: true}; return s },
		func(s []store.Seat) []store.Seat { return s[:10] },
		func(s []store.Seat) []store.Seat {
			return append(s, store.Seat{Seat: 12, Name: "P12", TokenHash: "h12", Account: 7})
		},
		func(s []store.Seat) []store.Seat { s[0].Name, s[1].TokenHash = "Ann", "other"; return s },
	} {
		id := fmt.Sprintf("t%d", i)
		if err := db.CreateTable(bg, store.Table{ID: id, Kind: store.KindOnline, Status: store.StatusLobby}, elevenSeats()); err != nil {
			t.Fatal(err)
		}
		want := change(elevenSeats())
		if err := db.SaveSeats(bg, id, want); err != nil {
			t.Fatal(err)
		}
		_, got, err := db.Table(bg, store.KindOnline, id)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(want, func(a, b store.Seat) int { return a.Seat - b.Seat })
		if !slices.Equal(got, want) {
			t.Errorf("change %d: seats\n got %+v\nwant %+v", i, got, want)
		}
	}
}

func seatTwice(t *testing.T, open Open) {
	db := open(t)
	if err := db.CreateTable(bg, store.Table{ID: "t", Kind: store.KindOnline, Status: store.StatusLobby}, elevenSeats()); err != nil {
		t.Fatal(err)
	}
	bad := append(elevenSeats(), store.Seat{Seat: 3, Name: "again"})
	bad[0].Name = "changed"
	if err := db.SaveSeats(bg, "t", bad); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("SaveSeats with seat 3 twice: %v, want a conflict", err)
	}
	_, got, err := db.Table(bg, store.KindOnline, "t")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, elevenSeats()) {
		t.Errorf("seats after a refused save\n got %+v\nwant %+v", got, elevenSeats())
	}
	if err := db.CreateTable(bg, store.Table{ID: "u", Kind: store.KindOnline, Status: store.StatusLobby}, bad); !errors.Is(err, store.ErrConflict) {
		t.Errorf("CreateTable with seat 3 twice: %v, want a conflict", err)
	}
	if _, _, err := db.Table(bg, store.KindOnline, "u"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the table of a refused CreateTable: %v, want ErrNotFound", err)
	}
}

// tableIDsOldestFirst: the IDs of one kind and status, in the order the
// tables were recorded, whatever their creation times say.
func tableIDsOldestFirst(t *testing.T, open Open) {
	db := open(t)
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, id := range []string{"z", "y", "x", "w"} {
		status := store.StatusPlaying
		if id == "x" {
			status = store.StatusFrozen
		}
		// Each created earlier than the one before it.
		if err := db.CreateTable(bg, store.Table{ID: id, Kind: store.KindOnline, Status: status, CreatedAt: base.Add(-time.Duration(i) * time.Hour)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	for status, want := range map[store.Status][]string{store.StatusPlaying: {"z", "y", "w"}, store.StatusFrozen: {"x"}, store.StatusEnded: nil} {
		got, err := db.TableIDs(bg, store.KindOnline, status)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("TableIDs(%s): %v, %v; want %v", status, got, err, want)
		}
	}
}

// setAside: a table set aside is refused by Table (ErrDamaged, with the
// first reason), left out of Tables and TableIDs; its rows are untouched,
// and the other tables are listed as before.
func setAside(t *testing.T, open Open) {
	db := open(t)
	for _, id := range []string{"a", "b", "c"} {
		CreateTable(t, db, id)
	}
	log, _ := BotGame(t, 3)
	if err := db.AppendEvents(bg, "b", 0, log[:5]); err != nil {
		t.Fatal(err)
	}
	if err := db.SetAside(bg, "b", "event 3 does not decode"); err != nil {
		t.Fatal(err)
	}
	if err := db.SetAside(bg, "b", "a second reason"); err != nil {
		t.Fatal(err)
	}
	if err := db.SetAside(bg, "never-recorded", "a mark needs no row"); err != nil {
		t.Errorf("SetAside of an ID without a row: %v", err)
	}
	_, _, err := db.Table(bg, store.KindOnline, "b")
	if !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), "event 3 does not decode") {
		t.Errorf("Table of a table set aside: %v; want ErrDamaged with the first reason", err)
	}
	got, err := db.TableIDs(bg, store.KindOnline, store.StatusPlaying)
	if err != nil || !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("TableIDs: %v, %v; want [a c]", got, err)
	}
	all, err := db.Tables(bg, store.KindOnline, store.TableFilter{})
	if err != nil || !slices.Equal(ids(all), []string{"c", "a"}) {
		t.Errorf("Tables: %v, %v; want [c a]", ids(all), err)
	}
	if got, err := db.Events(bg, "b"); err != nil || len(got) != 5 {
		t.Errorf("the rows of a table set aside: %d events, %v; want them untouched", len(got), err)
	}
}
