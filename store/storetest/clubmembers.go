package storetest

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"mafia/store"
)

// ClubMembersStore is a Store that keeps accounts, clubs and the clubs'
// members.
type ClubMembersStore interface {
	store.Store
	store.Accounts
	store.Clubs
	store.ClubMembers
}

// links are the roster entries of a club linked to an account: entry id
// to account id.
func links(t *testing.T, s store.Clubs, club string) map[string]string {
	t.Helper()
	ps, err := s.People(context.Background(), club)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range ps {
		if p.AccountID != nil {
			out[p.ID] = *p.AccountID
		}
	}
	return out
}

// RunClubMembers pins store.ClubMembers: members with roles and the club's
// last owner kept, an account's clubs, and the links of roster entries to
// accounts (one entry per account per club, kept through merges).
func RunClubMembers(t *testing.T, open Open) {
	ctx := context.Background()

	t.Run("members have roles, listed in the order added; the last owner stays", func(t *testing.T) {
		s := openAs[ClubMembersStore](t, open)
		newClub(t, s, "c1")
		nino, gio := newAccount(t, s, "Nino"), newAccount(t, s, "Gio")
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(s.SetMember(ctx, store.ClubMembership{Club: "c1", Account: nino, Role: store.ClubOwner, Added: t0}))
		must(s.SetMember(ctx, store.ClubMembership{Club: "c1", Account: gio, Role: store.ClubMember, Added: t0.Add(time.Minute)}))
		for name, c := range map[string]struct {
			m    store.ClubMembership
			want error
		}{
			"a role that is none":     {store.ClubMembership{Club: "c1", Account: gio, Role: "boss"}, store.ErrConflict},
			"a club that is none":     {store.ClubMembership{Club: "no", Account: gio, Role: store.ClubHost}, store.ErrNotFound},
			"an account that is none": {store.ClubMembership{Club: "c1", Account: 1 << 40, Role: store.ClubHost}, store.ErrNotFound},
			"the last owner demoted":  {store.ClubMembership{Club: "c1", Account: nino, Role: store.ClubHost}, store.ErrConflict},
		} {
			if err := s.SetMember(ctx, c.m); !errors.Is(err, c.want) {
				t.Errorf("%s: %v, want %v", name, err, c.want)
			}
		}
		if err := s.RemoveMember(ctx, "c1", nino); !errors.Is(err, store.ErrConflict) {
			t.Errorf("removing the last owner: %v, want ErrConflict", err)
		}
		if err := s.RemoveMember(ctx, "c1", 1<<40); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("removing no member: %v, want ErrNotFound", err)
		}
		must(s.SetMember(ctx, store.ClubMembership{Club: "c1", Account: gio, Role: store.ClubHost, Added: t0.Add(time.Hour)}))
		ms, err := s.ClubMembers(ctx, "c1")
		if err != nil || len(ms) != 2 || ms[0] != (store.ClubMembership{Club: "c1", Account: nino, Role: store.ClubOwner, Added: ms[0].Added}) ||
			!ms[0].Added.Equal(t0) || ms[1].Role != store.ClubHost || !ms[1].Added.Equal(t0.Add(time.Minute)) {
			t.Fatalf("members (a role changed keeps its Added): %+v, %v", ms, err)
		}
		must(s.SetMember(ctx, store.ClubMembership{Club: "c1", Account: gio, Role: store.ClubOwner}))
		must(s.SetMember(ctx, store.ClubMembership{Club: "c1", Account: nino, Role: store.ClubMember}))
		must(s.RemoveMember(ctx, "c1", nino))
		if _, err := s.ClubMember(ctx, "c1", nino); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a removed member: %v, want ErrNotFound", err)
		}
		if m, err := s.ClubMember(ctx, "c1", gio); err != nil || m.Role != store.ClubOwner || m.Club != "c1" || m.Account != gio {
			t.Errorf("gio: %+v, %v", m, err)
		}
		if _, err := s.ClubMembers(ctx, "no"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("members of no club: %v, want ErrNotFound", err)
		}
		newClub(t, s, "c2")
		if ms, err := s.ClubMembers(ctx, "c2"); err != nil || ms == nil || len(ms) != 0 {
			t.Errorf("a club with no members: %#v, %v; want an empty list", ms, err)
		}
	})

	t.Run("of two owners stepping down at once one stays owner", func(t *testing.T) {
		s := openAs[ClubMembersStore](t, open)
		newClub(t, s, "c1")
		owners := []int64{newAccount(t, s, "Nino"), newAccount(t, s, "Gio")}
		for _, a := range owners {
			if err := s.SetMember(ctx, store.ClubMembership{Club: "c1", Account: a, Role: store.ClubOwner, Added: t0}); err != nil {
				t.Fatal(err)
			}
		}
		errs := make([]error, len(owners))
		var wg sync.WaitGroup
		for i, a := range owners {
			wg.Go(func() {
				if i == 0 {
					errs[i] = s.SetMember(ctx, store.ClubMembership{Club: "c1", Account: a, Role: store.ClubMember})
				} else {
					errs[i] = s.RemoveMember(ctx, "c1", a)
				}
			})
		}
		wg.Wait()
		ms, err := s.ClubMembers(ctx, "c1")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range ms {
			if m.Role == store.ClubOwner {
				n++
			}
		}
		if n != 1 || (errs[0] == nil) == (errs[1] == nil) {
			t.Errorf("after both stepped down at once: %d owners (%+v), errors %v; want one owner and one refusal", n, ms, errs)
		}
	})

	t.Run("an entry is linked to one account and an account to one entry per club", func(t *testing.T) {
		s := openAs[ClubMembersStore](t, open)
		newClub(t, s, "c1")
		if err := s.CreateClub(ctx, store.Club{ID: "c2", Name: "Batumi club", CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		addPeople(t, s, "c1", "p1", "p2", "p3")
		addPeople(t, s, "c2", "q1")
		nino, gio := newAccount(t, s, "Nino"), newAccount(t, s, "Gio")
		if err := s.LinkPerson(ctx, "c1", "p1", nino); err != nil {
			t.Fatal(err)
		}
		if err := s.LinkPerson(ctx, "c1", "p1", nino); err != nil {
			t.Errorf("linking again: %v", err)
		}
		if _, err := s.MergePeople(ctx, "c1", "p3", "p2", t0); err != nil {
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
			"an account that is none":            {"c1", "p2", 1 << 40, store.ErrNotFound},
			"a club that is none":                {"c9", "p2", gio, store.ErrNotFound},
		} {
			if err := s.LinkPerson(ctx, c.club, c.person, c.account); !errors.Is(err, c.want) {
				t.Errorf("%s: %v, want %v", name, err, c.want)
			}
		}
		if got := links(t, s, "c1"); len(got) != 1 || got["p1"] != strconv.FormatInt(nino, 10) {
			t.Errorf("links after refusals: %v; want p1 Nino's only", got)
		}
		if err := s.LinkPerson(ctx, "c2", "q1", nino); err != nil {
			t.Errorf("the same account in a second club: %v", err)
		}
		if err := s.UnlinkPerson(ctx, "c1", "p1"); err != nil {
			t.Fatal(err)
		}
		if err := s.UnlinkPerson(ctx, "c1", "p1"); err != nil {
			t.Errorf("unlinking again: %v", err)
		}
		if err := s.LinkPerson(ctx, "c1", "p2", nino); err != nil {
			t.Errorf("the account on another entry once unlinked: %v", err)
		}
		if err := s.UnlinkPerson(ctx, "c1", "p9"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unlinking no entry: %v, want ErrNotFound", err)
		}
		if err := s.UnlinkPerson(ctx, "c9", "p1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unlinking in no club: %v, want ErrNotFound", err)
		}
	})

	t.Run("of entries linked to one account at once one is linked", func(t *testing.T) {
		s := openAs[ClubMembersStore](t, open)
		newClub(t, s, "c1")
		ids := []string{"p1", "p2", "p3", "p4"}
		addPeople(t, s, "c1", ids...)
		nino := newAccount(t, s, "Nino")
		errs := make([]error, len(ids))
		var wg sync.WaitGroup
		for i, id := range ids {
			wg.Go(func() { errs[i] = s.LinkPerson(ctx, "c1", id, nino) })
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("a losing link: %v, want ErrConflict", err)
			}
		}
		if got := links(t, s, "c1"); ok != 1 || len(got) != 1 {
			t.Errorf("%d links made at once succeeded, links %v; want one", ok, got)
		}
	})

	t.Run("an account's clubs are those it is a member of or linked in, by name", func(t *testing.T) {
		s := openAs[ClubMembersStore](t, open)
		newClub(t, s, "c1")
		if err := s.CreateClub(ctx, store.Club{ID: "c2", Name: "Batumi club", CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		newClub(t, s, "c3")
		addPeople(t, s, "c1", "p1")
		addPeople(t, s, "c2", "q1")
		nino, gio := newAccount(t, s, "Nino"), newAccount(t, s, "Gio")
		if err := s.LinkPerson(ctx, "c1", "p1", nino); err != nil {
			t.Fatal(err)
		}
		if err := s.LinkPerson(ctx, "c2", "q1", nino); err != nil {
			t.Fatal(err)
		}
		if err := s.SetMember(ctx, store.ClubMembership{Club: "c1", Account: nino, Role: store.ClubHost, Added: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetMember(ctx, store.ClubMembership{Club: "c3", Account: nino, Role: store.ClubMember, Added: t0}); err != nil {
			t.Fatal(err)
		}
		cs, err := s.AccountClubs(ctx, nino)
		want := []store.AccountClub{{Club: "c2", Name: "Batumi club", Person: "q1"},
			{Club: "c1", Name: "Tbilisi club", Role: store.ClubHost, Person: "p1"}, {Club: "c3", Name: "Tbilisi club", Role: store.ClubMember}}
		if err != nil || len(cs) != len(want) {
			t.Fatalf("Nino's clubs: %+v, %v; want %+v", cs, err, want)
		}
		for i := range want {
			if cs[i] != want[i] {
				t.Errorf("Nino's club %d: %+v, want %+v", i, cs[i], want[i])
			}
		}
		if cs, err := s.AccountClubs(ctx, gio); err != nil || len(cs) != 0 {
			t.Errorf("Gio's clubs: %+v, %v; want none", cs, err)
		}
	})

	t.Run("a merge moves the link to the entry kept, and refuses two accounts", func(t *testing.T) {
		s := openAs[ClubMembersStore](t, open)
		newClub(t, s, "c1")
		addPeople(t, s, "c1", "p1", "p2", "p3", "p4")
		nino, gio := newAccount(t, s, "Nino"), newAccount(t, s, "Gio")
		if err := s.LinkPerson(ctx, "c1", "p1", nino); err != nil {
			t.Fatal(err)
		}
		if err := s.LinkPerson(ctx, "c1", "p3", gio); err != nil {
			t.Fatal(err)
		}
		if _, err := s.MergePeople(ctx, "c1", "p1", "p3", t0); !errors.Is(err, store.ErrConflict) {
			t.Errorf("merging two accounts' entries: %v, want ErrConflict", err)
		}
		if _, err := s.MergePeople(ctx, "c1", "p1", "p2", t0); err != nil {
			t.Fatal(err)
		}
		// Into a linked entry from an unlinked one: the link stays.
		if _, err := s.MergePeople(ctx, "c1", "p4", "p3", t0); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"p2": strconv.FormatInt(nino, 10), "p3": strconv.FormatInt(gio, 10)}
		if got := links(t, s, "c1"); len(got) != 2 || got["p2"] != want["p2"] || got["p3"] != want["p3"] {
			t.Errorf("links after the merges: %v, want %v", got, want)
		}
		if ms, _ := s.Merges(ctx, "c1"); len(ms) != 2 {
			t.Errorf("merges: %+v; the refused one must not count", ms)
		}
	})
}
