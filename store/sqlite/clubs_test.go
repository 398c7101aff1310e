package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"mafia/store/storetest"
	"slices"
	"testing"
	"time"

	"mafia/store"
)

var clubDay = time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC)

func newClub(t *testing.T, db *DB, id string) {
	t.Helper()
	if err := db.CreateClub(context.Background(), store.Club{ID: id, Name: "Tbilisi club", TokenHash: "h",
		Scoring: []byte(`{"win":100}`), CreatedAt: clubDay}); err != nil {
		t.Fatal(err)
	}
}

// TestClubs_TheRosterSeasonsAndGamesSurviveReopening: a club, its roster
// in three scripts, a season and its games are read back as written, also
// after the file is closed and opened again; the account link stays NULL
// until set.
func TestClubs_TheRosterSeasonsAndGamesSurviveReopening(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	newClub(t, db, "c1")
	people := []store.ClubPerson{{ID: "p1", Name: "ნინო", CreatedAt: clubDay}, {ID: "p2", Name: "Нино", CreatedAt: clubDay.Add(time.Second)},
		{ID: "p3", Name: "Nino", CreatedAt: clubDay.Add(2 * time.Second)}}
	for _, p := range people {
		if err := db.AddPerson(ctx, "c1", p); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.AddPerson(ctx, "c1", people[0]); !errors.Is(err, store.ErrConflict) {
		t.Errorf("an id taken: %v; want ErrConflict", err)
	}
	if err := db.AddPerson(ctx, "nope", people[0]); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a club that does not exist: %v; want ErrNotFound", err)
	}
	if err := db.SaveSeason(ctx, "c1", store.ClubSeason{ID: "w", Name: "Winter", From: "2026-12-01", To: "2027-02-28"}); err != nil {
		t.Fatal(err)
	}
	storetest.CreateTable(t, db, "g1")
	if err := db.AddClubGame(ctx, "c1", store.ClubGame{TableID: "g1", Day: "2026-12-01"}); err != nil {
		t.Fatal(err)
	}
	if err := db.AddClubGame(ctx, "c1", store.ClubGame{TableID: "g1", Day: "2026-12-01"}); err != nil {
		t.Errorf("counting a game again: %v", err)
	}
	if err := db.AddClubGame(ctx, "c1", store.ClubGame{TableID: "none", Day: "2026-12-01"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a game of no table: %v; want ErrNotFound", err)
	}
	if err := db.RenamePerson(ctx, "c1", "p3", "Nino B."); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.People(ctx, "c1")
	if err != nil || len(got) != 3 {
		t.Fatalf("roster: %+v, %v", got, err)
	}
	names := []string{got[0].Name, got[1].Name, got[2].Name}
	if !slices.Equal(names, []string{"ნინო", "Нино", "Nino B."}) || got[0].AccountID != nil || !got[0].CreatedAt.Equal(clubDay) {
		t.Errorf("roster after reopening: %+v", got)
	}
	if ss, err := db.Seasons(ctx, "c1"); err != nil || len(ss) != 1 || ss[0].To != "2027-02-28" {
		t.Errorf("seasons: %+v, %v", ss, err)
	}
	if gs, err := db.ClubGames(ctx, "c1"); err != nil || len(gs) != 1 || gs[0].TableID != "g1" {
		t.Errorf("games: %+v, %v", gs, err)
	}
	if c, err := db.Club(ctx, "c1"); err != nil || c.Name != "Tbilisi club" || string(c.Scoring) != `{"win":100}` {
		t.Errorf("club: %+v, %v", c, err)
	}
}

// TestClubs_AMergeKeepsBothEntriesGamesAndIsRecorded: the merged entry
// keeps its row and its games, and names the entry they count under; the
// merge is recorded; a second merge of it, or into it, or with itself, is
// refused and changes nothing.
func TestClubs_AMergeKeepsBothEntriesGamesAndIsRecorded(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	newClub(t, db, "c1")
	for i, id := range []string{"a", "b", "c"} {
		if err := db.AddPerson(ctx, "c1", store.ClubPerson{ID: id, Name: id, CreatedAt: clubDay.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range []string{"g1", "g2"} {
		storetest.CreateTable(t, db, g)
		if err := db.AddClubGame(ctx, "c1", store.ClubGame{TableID: g, Day: "2026-12-01"}); err != nil {
			t.Fatal(err)
		}
	}
	m, err := db.MergePeople(ctx, "c1", "b", "a", clubDay)
	if err != nil || m.Seq != 0 || m.From != "b" || m.Into != "a" {
		t.Fatalf("merge: %+v, %v", m, err)
	}
	for _, c := range [][2]string{{"b", "c"}, {"c", "b"}, {"a", "a"}, {"x", "a"}} {
		if _, err := db.MergePeople(ctx, "c1", c[0], c[1], clubDay); !errors.Is(err, store.ErrConflict) {
			t.Errorf("merge %s into %s: %v; want ErrConflict", c[0], c[1], err)
		}
	}
	people, _ := db.People(ctx, "c1")
	if len(people) != 3 || people[1].ID != "b" || people[1].MergedInto != "a" || people[0].MergedInto != "" {
		t.Errorf("after the merge: %+v", people)
	}
	if ms, err := db.Merges(ctx, "c1"); err != nil || len(ms) != 1 || ms[0].From != "b" || !ms[0].At.Equal(clubDay) {
		t.Errorf("merges: %+v, %v", ms, err)
	}
	if gs, _ := db.ClubGames(ctx, "c1"); len(gs) != 2 {
		t.Errorf("games after the merge: %+v", gs)
	}
}

// TestMigration_AFileOfThePreviousSchemaKeepsEveryGame: a file with games
// brought back to the schema before the clubs (down to 00005: the clubs'
// tables are gone, nothing else changed) opens with every game's table,
// seats and log as they were, and takes clubs.
func TestMigration_AFileOfThePreviousSchemaKeepsEveryGame(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	logs := map[string]int{}
	for i, id := range []string{"old-1", "old-2", "old-3"} {
		log, _ := storetest.BotGame(t, uint64(40+i))
		if err := db.CreateTable(ctx, store.Table{ID: id, Kind: store.KindInPerson, Name: "game " + id, Status: "in_person_ended",
			Data: []byte(`{"in_person":{}}`), CreatedAt: clubDay, UpdatedAt: clubDay},
			[]store.Seat{{Seat: 1, Name: "ნინო"}, {Seat: 2, Name: "Нино"}}); err != nil {
			t.Fatal(err)
		}
		if err := db.AppendEvents(ctx, id, 0, log); err != nil {
			t.Fatal(err)
		}
		logs[id] = len(log)
	}
	want := map[string][]byte{}
	for id := range logs {
		evs, _ := db.Events(ctx, id)
		if len(evs) != logs[id] {
			t.Fatalf("%s: %d events stored, %d appended", id, len(evs), logs[id])
		}
	}
	db.Close()
	c, err := sql.Open("sqlite", path+"?"+pragmas)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider(t, c).DownTo(ctx, 5); err != nil {
		t.Fatalf("down to 00005: %v", err)
	}
	var n int
	if err := c.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name LIKE 'club%'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the previous schema has %d club tables (%v)", n, err)
	}
	for id := range logs {
		var j []byte
		if err := c.QueryRow(`SELECT group_concat(json, char(10)) FROM (SELECT json FROM events WHERE table_id = ? ORDER BY seq)`, id).Scan(&j); err != nil {
			t.Fatal(err)
		}
		want[id] = j
	}
	c.Close()

	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for id, count := range logs {
		tb, seats, err := db.Table(ctx, store.KindInPerson, id)
		if err != nil || tb.Name != "game "+id || len(seats) != 2 || seats[0].Name != "ნინო" {
			t.Errorf("%s after the migration: %+v %+v, %v", id, tb, seats, err)
		}
		evs, err := db.Events(ctx, id)
		if err != nil || len(evs) != count {
			t.Errorf("%s after the migration: %d events, %v; want %d", id, len(evs), err, count)
		}
		var j []byte
		if err := db.r.QueryRow(`SELECT group_concat(json, char(10)) FROM (SELECT json FROM events WHERE table_id = ? ORDER BY seq)`, id).Scan(&j); err != nil || string(j) != string(want[id]) {
			t.Errorf("%s: the stored log changed in the migration (%v)", id, err)
		}
	}
	newClub(t, db, "c1")
	if err := db.AddClubGame(ctx, "c1", store.ClubGame{TableID: "old-1", Day: "2026-12-01"}); err != nil {
		t.Errorf("an old game counted for a new club: %v", err)
	}
}
