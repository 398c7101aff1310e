package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"mafia/store"
)

// ClubsStore is a Store that keeps clubs.
type ClubsStore interface {
	store.Store
	store.Clubs
}

// newClub records club id, named "Tbilisi club", with a scoring.
func newClub(t *testing.T, s store.Clubs, id string) {
	t.Helper()
	if err := s.CreateClub(context.Background(), store.Club{ID: id, Name: "Tbilisi club", TokenHash: "h-" + id,
		Scoring: []byte(`{"win":100}`), CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
}

// addPeople adds entries of the given ids (named by them) to a club's
// roster, a second apart.
func addPeople(t *testing.T, s store.Clubs, club string, ids ...string) {
	t.Helper()
	for i, id := range ids {
		if err := s.AddPerson(context.Background(), club, store.ClubPerson{ID: id, Name: id, CreatedAt: t0.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
}

// newTable records an in-person game's table, as a club counts one.
func newTable(t *testing.T, s store.Store, id string) {
	t.Helper()
	if err := s.CreateTable(context.Background(), store.Table{ID: id, Kind: store.KindInPerson, Name: "game " + id,
		Status: "in_person_ended"}, nil); err != nil {
		t.Fatal(err)
	}
}

// RunClubs pins store.Clubs: clubs, their rosters in any script, merges,
// seasons, scoring and the index of their games.
func RunClubs(t *testing.T, open Open) {
	ctx := context.Background()

	t.Run("a club is read back as written and its id is taken once", func(t *testing.T) {
		s := openAs[ClubsStore](t, open)
		newClub(t, s, "c1")
		c, err := s.Club(ctx, "c1")
		if err != nil || c.ID != "c1" || c.Name != "Tbilisi club" || c.TokenHash != "h-c1" || string(c.Scoring) != `{"win":100}` || !c.CreatedAt.Equal(t0) {
			t.Errorf("club: %+v, %v", c, err)
		}
		err = s.CreateClub(ctx, store.Club{ID: "c1", Name: "again", TokenHash: "x", CreatedAt: t0})
		if !errors.Is(err, store.ErrConflict) {
			t.Errorf("an id taken: %v, want ErrConflict", err)
		}
		if c, _ := s.Club(ctx, "c1"); c.Name != "Tbilisi club" || c.TokenHash != "h-c1" {
			t.Errorf("after a refused create: %+v", c)
		}
		if _, err := s.Club(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a club that does not exist: %v, want ErrNotFound", err)
		}
	})

	t.Run("of callers creating one club at once exactly one wins", func(t *testing.T) {
		s := openAs[ClubsStore](t, open)
		const n = 6
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { errs[i] = s.CreateClub(ctx, store.Club{ID: "c", Name: "club", TokenHash: "h", CreatedAt: t0}) })
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("a losing caller: %v, want ErrConflict", err)
			}
		}
		if won != 1 {
			t.Errorf("%d callers created the club, want 1", won)
		}
	})

	t.Run("the scoring settings are saved with the name and the token stays", func(t *testing.T) {
		s := openAs[ClubsStore](t, open)
		newClub(t, s, "c1")
		scoring := []byte(`{"win":120,"best_move":[0,25,50,75]}`)
		if err := s.UpdateClub(ctx, store.Club{ID: "c1", Name: "Batumi club", TokenHash: "other", Scoring: scoring}); err != nil {
			t.Fatal(err)
		}
		c, err := s.Club(ctx, "c1")
		if err != nil || c.Name != "Batumi club" || string(c.Scoring) != string(scoring) || c.TokenHash != "h-c1" || !c.CreatedAt.Equal(t0) {
			t.Errorf("after the update: %+v, %v", c, err)
		}
		if err := s.UpdateClub(ctx, store.Club{ID: "c1", Name: "No scoring"}); err != nil {
			t.Fatal(err)
		}
		if c, _ := s.Club(ctx, "c1"); len(c.Scoring) != 0 {
			t.Errorf("a club saved without scoring has %q", c.Scoring)
		}
		if err := s.UpdateClub(ctx, store.Club{ID: "nope", Name: "x"}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("updating no club: %v, want ErrNotFound", err)
		}
	})

	t.Run("a roster in any script is read back in the order it was made", func(t *testing.T) {
		s := openAs[ClubsStore](t, open)
		newClub(t, s, "c1")
		newClub(t, s, "c2")
		people := []store.ClubPerson{{ID: "p1", Name: "ნინო", CreatedAt: t0}, {ID: "p2", Name: "Нино", CreatedAt: t0.Add(time.Second)},
			{ID: "p3", Name: "Nino", CreatedAt: t0.Add(2 * time.Second)}}
		for _, p := range people {
			if err := s.AddPerson(ctx, "c1", p); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.AddPerson(ctx, "c1", store.ClubPerson{ID: "p1", Name: "other", CreatedAt: t0}); !errors.Is(err, store.ErrConflict) {
			t.Errorf("an id taken: %v, want ErrConflict", err)
		}
		if err := s.AddPerson(ctx, "c2", store.ClubPerson{ID: "p1", Name: "p1 of c2", CreatedAt: t0}); err != nil {
			t.Errorf("another club's id: %v", err)
		}
		if err := s.AddPerson(ctx, "nope", people[0]); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a club that does not exist: %v, want ErrNotFound", err)
		}
		if err := s.RenamePerson(ctx, "c1", "p3", "Nino B."); err != nil {
			t.Fatal(err)
		}
		if err := s.RenamePerson(ctx, "c1", "p9", "x"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("renaming no entry: %v, want ErrNotFound", err)
		}
		if err := s.RenamePerson(ctx, "nope", "p1", "x"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("renaming in no club: %v, want ErrNotFound", err)
		}
		got, err := s.People(ctx, "c1")
		if err != nil || len(got) != 3 {
			t.Fatalf("roster: %+v, %v", got, err)
		}
		names := []string{got[0].Name, got[1].Name, got[2].Name}
		if !slices.Equal(names, []string{"ნინო", "Нино", "Nino B."}) || got[0].ID != "p1" || got[0].AccountID != nil ||
			got[0].MergedInto != "" || !got[0].CreatedAt.Equal(t0) {
			t.Errorf("roster: %+v", got)
		}
		if got, err := s.People(ctx, "c2"); err != nil || len(got) != 1 || got[0].Name != "p1 of c2" {
			t.Errorf("the other club's roster: %+v, %v", got, err)
		}
		if _, err := s.People(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the roster of no club: %v, want ErrNotFound", err)
		}
		newClub(t, s, "c3")
		if got, err := s.People(ctx, "c3"); err != nil || got == nil || len(got) != 0 {
			t.Errorf("an empty roster: %#v, %v; want an empty list", got, err)
		}
	})

	t.Run("an entry of a name already on the roster is refused when asked once", func(t *testing.T) {
		s := openAs[ClubsStore](t, open)
		newClub(t, s, "c1")
		newClub(t, s, "c2")
		if err := s.AddPerson(ctx, "c1", store.ClubPerson{ID: "p1", Name: "Keti", CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"Keti", " keti ", "KETI"} {
			if err := s.AddPerson(ctx, "c1", store.ClubPerson{ID: "p2", Name: name, NameOnce: true, CreatedAt: t0}); !errors.Is(err, store.ErrConflict) {
				t.Errorf("%q, with Keti on the roster: %v, want ErrConflict", name, err)
			}
		}
		// Another person of that name (the host said so), another name,
		// another club's roster: added.
		if err := s.AddPerson(ctx, "c1", store.ClubPerson{ID: "p2", Name: "Keti", CreatedAt: t0}); err != nil {
			t.Errorf("a second Keti, not asked once: %v", err)
		}
		if err := s.AddPerson(ctx, "c1", store.ClubPerson{ID: "p3", Name: "Keto", NameOnce: true, CreatedAt: t0}); err != nil {
			t.Errorf("Keto: %v", err)
		}
		if err := s.AddPerson(ctx, "c2", store.ClubPerson{ID: "p1", Name: "Keti", NameOnce: true, CreatedAt: t0}); err != nil {
			t.Errorf("Keti in another club: %v", err)
		}
		if err := s.AddPerson(ctx, "nope", store.ClubPerson{ID: "p1", Name: "Keti", NameOnce: true, CreatedAt: t0}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("no club: %v, want ErrNotFound", err)
		}
		// A merged entry's name is free again.
		if _, err := s.MergePeople(ctx, "c1", "p3", "p1", t0); err != nil {
			t.Fatal(err)
		}
		if err := s.AddPerson(ctx, "c1", store.ClubPerson{ID: "p4", Name: "Keto", NameOnce: true, CreatedAt: t0}); err != nil {
			t.Errorf("Keto, merged away: %v", err)
		}
	})

	t.Run("of callers adding one name at once exactly one adds it", func(t *testing.T) {
		s := openAs[ClubsStore](t, open)
		newClub(t, s, "c1")
		const n = 6
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				errs[i] = s.AddPerson(ctx, "c1", store.ClubPerson{ID: fmt.Sprintf("p%d", i), Name: "სოფო", NameOnce: true, CreatedAt: t0})
			})
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("a losing caller: %v, want ErrConflict", err)
			}
		}
		if got, _ := s.People(ctx, "c1"); won != 1 || len(got) != 1 {
			t.Errorf("%d callers added სოფო, the roster holds %d entries; want 1 and 1", won, len(got))
		}
	})

	t.Run("an entry added with an account keeps the link", func(t *testing.T) {
		s := openAs[ClubsStore](t, open)
		newClub(t, s, "c1")
		acc := "42"
		if err := s.AddPerson(ctx, "c1", store.ClubPerson{ID: "p", Name: "Nino", AccountID: &acc, CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		got, err := s.People(ctx, "c1")
		if err != nil || len(got) != 1 || got[0].AccountID == nil || *got[0].AccountID != "42" {
			t.Errorf("roster: %+v, %v", got, err)
		}
	})

	t.Run("a merge keeps both entries and their games and is recorded in order", func(t *testing.T) {
		s := openAs[ClubsStore](t, open)
		newClub(t, s, "c1")
		addPeople(t, s, "c1", "a", "b", "c", "d")
		for _, g := range []string{"g1", "g2"} {
			newTable(t, s, g)
			if err := s.AddClubGame(ctx, "c1", store.ClubGame{TableID: g, Day: "2026-12-01"}); err != nil {
				t.Fatal(err)
			}
		}
		m, err := s.MergePeople(ctx, "c1", "b", "a", t0)
		if err != nil || m.Seq != 0 || m.From != "b" || m.Into != "a" || !m.At.Equal(t0) {
			t.Fatalf("merge: %+v, %v", m, err)
		}
		m, err = s.MergePeople(ctx, "c1", "d", "c", t0.Add(time.Minute))
		if err != nil || m.Seq != 1 {
			t.Fatalf("the second merge: %+v, %v", m, err)
		}
		people, _ := s.People(ctx, "c1")
		if len(people) != 4 || people[1].ID != "b" || people[1].MergedInto != "a" || people[0].MergedInto != "" || people[3].MergedInto != "c" {
			t.Errorf("after the merges: %+v", people)
		}
		ms, err := s.Merges(ctx, "c1")
		if err != nil || len(ms) != 2 || ms[0] != (store.ClubMerge{Seq: 0, From: "b", Into: "a", At: ms[0].At}) || !ms[0].At.Equal(t0) ||
			ms[1].From != "d" || !ms[1].At.Equal(t0.Add(time.Minute)) {
			t.Errorf("merges: %+v, %v", ms, err)
		}
		if gs, _ := s.ClubGames(ctx, "c1"); len(gs) != 2 {
			t.Errorf("games after the merge: %+v", gs)
		}
	})

	t.Run("a merge of a merged entry, into one, with itself or of none is refused and changes nothing", func(t *testing.T) {
		s := openAs[ClubsStore](t, open)
		newClub(t, s, "c1")
		newClub(t, s, "c2")
		addPeople(t, s, "c1", "a", "b", "c")
		addPeople(t, s, "c2", "z")
		if _, err := s.MergePeople(ctx, "c1", "b", "a", t0); err != nil {
			t.Fatal(err)
		}
		for _, c := range [][2]string{{"b", "c"}, {"c", "b"}, {"a", "a"}, {"x", "a"}, {"a", "x"}, {"z", "a"}} {
			if _, err := s.MergePeople(ctx, "c1", c[0], c[1], t0); !errors.Is(err, store.ErrConflict) {
				t.Errorf("merge %s into %s: %v, want ErrConflict", c[0], c[1], err)
			}
		}
		if _, err := s.MergePeople(ctx, "nope", "a", "b", t0); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a merge in no club: %v, want ErrNotFound", err)
		}
		if ms, _ := s.Merges(ctx, "c1"); len(ms) != 1 {
			t.Errorf("merges after refusals: %+v", ms)
		}
		people, _ := s.People(ctx, "c1")
		if people[2].MergedInto != "" || people[0].MergedInto != "" {
			t.Errorf("after refusals: %+v", people)
		}
		if ms, err := s.Merges(ctx, "c2"); err != nil || ms == nil || len(ms) != 0 {
			t.Errorf("a club with no merges: %#v, %v; want an empty list", ms, err)
		}
		if _, err := s.Merges(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the merges of no club: %v, want ErrNotFound", err)
		}
	})

	t.Run("merges made at once are numbered without a gap or a double", func(t *testing.T) {
		s := openAs[ClubsStore](t, open)
		newClub(t, s, "c1")
		ids := []string{"a0", "b0", "a1", "b1", "a2", "b2", "a3", "b3"}
		addPeople(t, s, "c1", ids...)
		errs := make([]error, len(ids)/2)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() { _, errs[i] = s.MergePeople(ctx, "c1", ids[2*i+1], ids[2*i], t0) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Errorf("a merge at once: %v", err)
			}
		}
		ms, err := s.Merges(ctx, "c1")
		if err != nil || len(ms) != len(errs) {
			t.Fatalf("merges: %+v, %v", ms, err)
		}
		for i, m := range ms {
			if m.Seq != i {
				t.Errorf("merge %d has seq %d", i, m.Seq)
			}
		}
	})

	t.Run("seasons are saved or changed by id and listed earliest first", func(t *testing.T) {
		s := openAs[ClubsStore](t, open)
		newClub(t, s, "c1")
		newClub(t, s, "c2")
		for _, se := range []store.ClubSeason{{ID: "w", Name: "Winter", From: "2026-12-01", To: "2027-02-28"},
			{ID: "a", Name: "Autumn", From: "2026-09-01", To: "2026-11-30"}, {ID: "s", Name: "Spring", From: "2027-03-01", To: "2027-05-31"}} {
			if err := s.SaveSeason(ctx, "c1", se); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.SaveSeason(ctx, "c1", store.ClubSeason{ID: "w", Name: "ზამთარი", From: "2026-12-01", To: "2027-03-01"}); err != nil {
			t.Fatal(err)
		}
		ss, err := s.Seasons(ctx, "c1")
		want := []store.ClubSeason{{ID: "a", Name: "Autumn", From: "2026-09-01", To: "2026-11-30"},
			{ID: "w", Name: "ზამთარი", From: "2026-12-01", To: "2027-03-01"}, {ID: "s", Name: "Spring", From: "2027-03-01", To: "2027-05-31"}}
		if err != nil || !slices.Equal(ss, want) {
			t.Errorf("seasons\n got %+v, %v\nwant %+v", ss, err, want)
		}
		if ss, err := s.Seasons(ctx, "c2"); err != nil || ss == nil || len(ss) != 0 {
			t.Errorf("a club with no seasons: %#v, %v; want an empty list", ss, err)
		}
		if err := s.SaveSeason(ctx, "nope", want[0]); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a season of no club: %v, want ErrNotFound", err)
		}
		if _, err := s.Seasons(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the seasons of no club: %v, want ErrNotFound", err)
		}
	})

	t.Run("a club's games are counted once and listed by day then table", func(t *testing.T) {
		s := openAs[ClubsStore](t, open)
		newClub(t, s, "c1")
		newClub(t, s, "c2")
		for _, g := range []store.ClubGame{{TableID: "g2", Day: "2026-12-02"}, {TableID: "g3", Day: "2026-12-01"}, {TableID: "g1", Day: "2026-12-02"}} {
			newTable(t, s, g.TableID)
			if err := s.AddClubGame(ctx, "c1", g); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.AddClubGame(ctx, "c1", store.ClubGame{TableID: "g1", Day: "2026-12-09"}); err != nil {
			t.Errorf("counting a game again: %v", err)
		}
		if err := s.AddClubGame(ctx, "c1", store.ClubGame{TableID: "none", Day: "2026-12-01"}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a game of no table: %v, want ErrNotFound", err)
		}
		if err := s.AddClubGame(ctx, "nope", store.ClubGame{TableID: "g1", Day: "2026-12-01"}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a game of no club: %v, want ErrNotFound", err)
		}
		gs, err := s.ClubGames(ctx, "c1")
		want := []store.ClubGame{{TableID: "g3", Day: "2026-12-01"}, {TableID: "g1", Day: "2026-12-02"}, {TableID: "g2", Day: "2026-12-02"}}
		if err != nil || !slices.Equal(gs, want) {
			t.Errorf("games\n got %+v, %v\nwant %+v", gs, err, want)
		}
		if gs, err := s.ClubGames(ctx, "c2"); err != nil || gs == nil || len(gs) != 0 {
			t.Errorf("a club with no games: %#v, %v; want an empty list", gs, err)
		}
		if _, err := s.ClubGames(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the games of no club: %v, want ErrNotFound", err)
		}
	})
}
