package storetest

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"mafia/store"
)

// clubStore is a store that keeps clubs, accounts and the clubs' members.
type clubStore interface {
	store.Store
	store.Clubs
	store.Accounts
	store.ClubMembers
}

// RunClubMembers runs the contract of store.ClubMembers: members and their
// roles (a club keeps an owner), the links of roster entries to accounts
// (one entry per account per club, one account per entry, none on a
// merged entry), an account's clubs, and Clubs.MergePeople keeping a link.
// A store that is not a clubStore skips it.
func RunClubMembers(t *testing.T, open Open) {
	for _, c := range []struct {
		name string
		run  func(t *testing.T, open Open)
	}{
		{"RolesAndTheLastOwner", membersRolesAndTheLastOwner},
		{"OneEntryPerAccountPerClub", membersOneEntryPerAccountPerClub},
		{"AMergeKeepsTheLink", membersAMergeKeepsTheLink},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, open) })
	}
}

func members(t *testing.T, open Open) clubStore {
	db, ok := open(t).(clubStore)
	if !ok {
		t.Skip("the store keeps no clubs' members")
	}
	return db
}

var clubDay = time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC)

func newClub(t *testing.T, db clubStore, id string) {
	t.Helper()
	if err := db.CreateClub(bg, store.Club{ID: id, Name: "Tbilisi club", TokenHash: "h", Scoring: []byte(`{"win":100}`), CreatedAt: clubDay}); err != nil {
		t.Fatal(err)
	}
}

func newAccount(t *testing.T, db clubStore, name string) int64 {
	t.Helper()
	id, err := db.CreateAccount(bg, store.Account{Name: name, Key: name, PasswordHash: "h", Created: clubDay})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func addPeople(t *testing.T, db clubStore, club string, ids ...string) {
	t.Helper()
	for i, id := range ids {
		if err := db.AddPerson(bg, club, store.ClubPerson{ID: id, Name: id, CreatedAt: clubDay.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
}

// membersRolesAndTheLastOwner: members are added with a role and
// listed in the order added; a role changes in place; an unknown role,
// club or account is refused; the club's last owner can neither be removed
// nor demoted, a second owner makes both possible.
func membersRolesAndTheLastOwner(t *testing.T, open Open) {
	ctx := bg
	db := members(t, open)
	newClub(t, db, "c1")
	nino, gio := newAccount(t, db, "nino"), newAccount(t, db, "gio")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.SetMember(ctx, store.ClubMembership{Club: "c1", Account: nino, Role: store.ClubOwner, Added: clubDay}))
	must(db.SetMember(ctx, store.ClubMembership{Club: "c1", Account: gio, Role: store.ClubMember, Added: clubDay.Add(time.Minute)}))
	for name, c := range map[string]struct {
		m    store.ClubMembership
		want error
	}{
		"a role that is none":  {store.ClubMembership{Club: "c1", Account: gio, Role: "boss"}, store.ErrConflict},
		"a club that is none":  {store.ClubMembership{Club: "no", Account: gio, Role: store.ClubHost}, store.ErrNotFound},
		"an account that none": {store.ClubMembership{Club: "c1", Account: 999, Role: store.ClubHost}, store.ErrNotFound},
		"the last owner down":  {store.ClubMembership{Club: "c1", Account: nino, Role: store.ClubHost}, store.ErrConflict},
	} {
		if err := db.SetMember(ctx, c.m); !errors.Is(err, c.want) {
			t.Errorf("%s: %v; want %v", name, err, c.want)
		}
	}
	if err := db.RemoveMember(ctx, "c1", nino); !errors.Is(err, store.ErrConflict) {
		t.Errorf("removing the last owner: %v; want ErrConflict", err)
	}
	if err := db.RemoveMember(ctx, "c1", 999); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("removing no member: %v; want ErrNotFound", err)
	}
	must(db.SetMember(ctx, store.ClubMembership{Club: "c1", Account: gio, Role: store.ClubHost, Added: clubDay.Add(time.Hour)}))
	ms, err := db.ClubMembers(ctx, "c1")
	if err != nil || len(ms) != 2 || ms[0].Account != nino || ms[1].Role != store.ClubHost || !ms[1].Added.Equal(clubDay.Add(time.Minute)) {
		t.Fatalf("members: %+v, %v", ms, err)
	}
	must(db.SetMember(ctx, store.ClubMembership{Club: "c1", Account: gio, Role: store.ClubOwner}))
	must(db.SetMember(ctx, store.ClubMembership{Club: "c1", Account: nino, Role: store.ClubMember}))
	must(db.RemoveMember(ctx, "c1", nino))
	if _, err := db.ClubMember(ctx, "c1", nino); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a removed member: %v; want ErrNotFound", err)
	}
	if m, err := db.ClubMember(ctx, "c1", gio); err != nil || m.Role != store.ClubOwner {
		t.Errorf("gio: %+v, %v", m, err)
	}
	if _, err := db.ClubMembers(ctx, "no"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("members of no club: %v; want ErrNotFound", err)
	}
}

// membersOneEntryPerAccountPerClub pins the links: an entry is
// linked to one account, an account to one entry per club but to entries
// of several clubs; a merged entry is not linked; linking again is no
// change; an account's clubs list the clubs it is a member of or linked in.
func membersOneEntryPerAccountPerClub(t *testing.T, open Open) {
	ctx := bg
	db := members(t, open)
	newClub(t, db, "c1")
	if err := db.CreateClub(ctx, store.Club{ID: "c2", Name: "Batumi club", CreatedAt: clubDay}); err != nil {
		t.Fatal(err)
	}
	addPeople(t, db, "c1", "p1", "p2", "p3")
	addPeople(t, db, "c2", "q1")
	nino, gio := newAccount(t, db, "nino"), newAccount(t, db, "gio")
	if err := db.LinkPerson(ctx, "c1", "p1", nino); err != nil {
		t.Fatal(err)
	}
	if err := db.LinkPerson(ctx, "c1", "p1", nino); err != nil {
		t.Errorf("linking again: %v", err)
	}
	if _, err := db.MergePeople(ctx, "c1", "p3", "p2", clubDay); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		club, person string
		account      int64
		want         error
	}{
		"an entry linked to another account": {"c1", "p1", gio, store.ErrConflict},
		"an account linked to another entry": {"c1", "p2", nino, store.ErrConflict},
		"a merged entry":                     {"c1", "p3", gio, store.ErrConflict},
		"an entry that is none":              {"c1", "p9", gio, store.ErrNotFound},
		"an account that is none":            {"c1", "p2", 999, store.ErrNotFound},
		"a club that is none":                {"c9", "p2", gio, store.ErrNotFound},
	} {
		if err := db.LinkPerson(ctx, c.club, c.person, c.account); !errors.Is(err, c.want) {
			t.Errorf("%s: %v; want %v", name, err, c.want)
		}
	}
	if err := db.LinkPerson(ctx, "c2", "q1", nino); err != nil {
		t.Errorf("the same account in a second club: %v", err)
	}
	if err := db.SetMember(ctx, store.ClubMembership{Club: "c1", Account: nino, Role: store.ClubHost, Added: clubDay}); err != nil {
		t.Fatal(err)
	}
	cs, err := db.AccountClubs(ctx, nino)
	want := []store.AccountClub{{Club: "c2", Name: "Batumi club", Person: "q1"}, {Club: "c1", Name: "Tbilisi club", Role: store.ClubHost, Person: "p1"}}
	if err != nil || len(cs) != 2 || cs[0] != want[0] || cs[1] != want[1] {
		t.Errorf("nino's clubs: %+v, %v; want %+v", cs, err, want)
	}
	if cs, err := db.AccountClubs(ctx, gio); err != nil || len(cs) != 0 {
		t.Errorf("gio's clubs: %+v, %v; want none", cs, err)
	}
	if err := db.UnlinkPerson(ctx, "c1", "p1"); err != nil {
		t.Fatal(err)
	}
	if err := db.UnlinkPerson(ctx, "c1", "p1"); err != nil {
		t.Errorf("unlinking again: %v", err)
	}
	if err := db.LinkPerson(ctx, "c1", "p2", nino); err != nil {
		t.Errorf("the account on another entry once unlinked: %v", err)
	}
	if err := db.UnlinkPerson(ctx, "c1", "p9"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unlinking no entry: %v; want ErrNotFound", err)
	}
}

// membersAMergeKeepsTheLink: merging a linked entry into an
// unlinked one moves the link to the entry its games now count under;
// merging two entries linked to two accounts is refused and changes
// nothing.
func membersAMergeKeepsTheLink(t *testing.T, open Open) {
	ctx := bg
	db := members(t, open)
	newClub(t, db, "c1")
	addPeople(t, db, "c1", "p1", "p2", "p3")
	nino, gio := newAccount(t, db, "nino"), newAccount(t, db, "gio")
	if err := db.LinkPerson(ctx, "c1", "p1", nino); err != nil {
		t.Fatal(err)
	}
	if err := db.LinkPerson(ctx, "c1", "p3", gio); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergePeople(ctx, "c1", "p1", "p3", clubDay); !errors.Is(err, store.ErrConflict) {
		t.Errorf("merging two accounts' entries: %v; want ErrConflict", err)
	}
	if _, err := db.MergePeople(ctx, "c1", "p1", "p2", clubDay); err != nil {
		t.Fatal(err)
	}
	ps, err := db.People(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]string{}
	for _, p := range ps {
		if p.AccountID != nil {
			linked[p.ID] = *p.AccountID
		}
	}
	if len(linked) != 2 || linked["p2"] != strconv.FormatInt(nino, 10) || linked["p3"] != strconv.FormatInt(gio, 10) {
		t.Errorf("links after the merge: %v; want p2 nino's (%d), p3 gio's (%d)", linked, nino, gio)
	}
	if ms, _ := db.Merges(ctx, "c1"); len(ms) != 1 {
		t.Errorf("merges: %+v; the refused one must not count", ms)
	}
}
