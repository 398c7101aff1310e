package sqlite

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"mafia/store"
)

func newAccount(t *testing.T, db *DB, name string) int64 {
	t.Helper()
	id, err := db.CreateAccount(context.Background(), store.Account{Name: name, Key: name, PasswordHash: "h", Created: clubDay})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func addPeople(t *testing.T, db *DB, club string, ids ...string) {
	t.Helper()
	for i, id := range ids {
		if err := db.AddPerson(context.Background(), club, store.ClubPerson{ID: id, Name: id, CreatedAt: clubDay.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMigration_ClubMembersComeAndGo: a file of the release before members
// (every migration before 00009) with a club and a roster opens and keeps
// them; the migration goes down (members go, the roster stays) and up.
func TestMigration_ClubMembersComeAndGo(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	newClub(t, db, "c1")
	addPeople(t, db, "c1", "p1")
	nino := newAccount(t, db, "nino")
	if err := db.SetMember(ctx, store.ClubMembership{Club: "c1", Account: nino, Role: store.ClubOwner, Added: clubDay}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	c, err := sql.Open("sqlite", path+"?"+pragmas)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider(t, c).DownTo(ctx, 8); err != nil {
		t.Fatalf("down to 8: %v", err)
	}
	var n int
	if err := c.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = 'club_members'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("after the migration down: %d member tables, %v", n, err)
	}
	c.Close()
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if ps, err := db.People(ctx, "c1"); err != nil || len(ps) != 1 {
		t.Fatalf("the roster after down and up: %+v, %v", ps, err)
	}
	if err := db.LinkPerson(ctx, "c1", "p1", nino); err != nil {
		t.Errorf("linking after the upgrade: %v", err)
	}
	if ms, err := db.ClubMembers(ctx, "c1"); err != nil || len(ms) != 0 {
		t.Errorf("members after down and up: %+v, %v; want none", ms, err)
	}
}
