package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"mafia/store"
)

// TournamentsStore is a Store that keeps clubs and their tournaments.
type TournamentsStore interface {
	store.Store
	store.Clubs
	store.Tournaments
}

// RunTournaments pins store.Tournaments: a club's tournaments read back as
// written, listed oldest first, each update checked against the version it
// read (of two at once exactly one wins), and what does not exist refused.
func RunTournaments(t *testing.T, open Open) {
	ctx := context.Background()

	t.Run("a tournament is read back as written and its id is taken once", func(t *testing.T) {
		s := openAs[TournamentsStore](t, open)
		newClub(t, s, "c1")
		want := store.Tournament{ID: "cup", ClubID: "c1", Name: "თბილისის თასი", State: "open",
			Data: []byte(`{"players":["a","b"]}`), Version: 1, CreatedAt: t0}
		if err := s.CreateTournament(ctx, want); err != nil {
			t.Fatal(err)
		}
		got, err := s.Tournament(ctx, "cup")
		if err != nil || got.ID != want.ID || got.ClubID != want.ClubID || got.Name != want.Name || got.State != want.State ||
			string(got.Data) != string(want.Data) || got.Version != 1 || !got.CreatedAt.Equal(t0) {
			t.Errorf("got %+v, %v\nwant %+v", got, err, want)
		}
		if err := s.CreateTournament(ctx, store.Tournament{ID: "cup", ClubID: "c1", Name: "again", State: "open",
			Data: []byte(`{}`), CreatedAt: t0}); !errors.Is(err, store.ErrConflict) {
			t.Errorf("an id taken: %v, want ErrConflict", err)
		}
		if err := s.CreateTournament(ctx, store.Tournament{ID: "other", ClubID: "nope", Name: "x", State: "open",
			Data: []byte(`{}`), CreatedAt: t0}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a tournament of no club: %v, want ErrNotFound", err)
		}
		if _, err := s.Tournament(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("no tournament: %v, want ErrNotFound", err)
		}
	})

	t.Run("a club's tournaments are listed oldest first, and only its own", func(t *testing.T) {
		s := openAs[TournamentsStore](t, open)
		newClub(t, s, "c1")
		newClub(t, s, "c2")
		for i, id := range []string{"spring", "winter", "autumn"} {
			at := t0.Add(time.Duration(2-i) * time.Hour) // autumn oldest, spring newest
			if err := s.CreateTournament(ctx, store.Tournament{ID: id, ClubID: "c1", Name: id, State: "open",
				Data: []byte(`{}`), CreatedAt: at}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.CreateTournament(ctx, store.Tournament{ID: "theirs", ClubID: "c2", Name: "theirs", State: "open",
			Data: []byte(`{}`), CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		ts, err := s.ClubTournaments(ctx, "c1")
		var ids []string
		for _, x := range ts {
			ids = append(ids, x.ID)
		}
		if err != nil || fmt.Sprint(ids) != "[autumn winter spring]" {
			t.Errorf("got %v, %v", ids, err)
		}
		newClub(t, s, "c3")
		if ts, err := s.ClubTournaments(ctx, "c3"); err != nil || ts == nil || len(ts) != 0 {
			t.Errorf("a club with none: %#v, %v; want an empty list", ts, err)
		}
		if _, err := s.ClubTournaments(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("no club: %v, want ErrNotFound", err)
		}
	})

	t.Run("an update is saved at the version read and refused at an old one", func(t *testing.T) {
		s := openAs[TournamentsStore](t, open)
		newClub(t, s, "c1")
		if err := s.CreateTournament(ctx, store.Tournament{ID: "cup", ClubID: "c1", Name: "Cup", State: "open",
			Data: []byte(`{"v":1}`), CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		v, err := s.UpdateTournament(ctx, store.Tournament{ID: "cup", Name: "Cup", State: "rounds", Data: []byte(`{"v":2}`), Version: 1})
		if err != nil || v != 2 {
			t.Fatalf("update: %d, %v", v, err)
		}
		if _, err := s.UpdateTournament(ctx, store.Tournament{ID: "cup", Name: "Cup", State: "final", Data: []byte(`{"v":3}`),
			Version: 1}); !errors.Is(err, store.ErrConflict) {
			t.Errorf("an update of an old version: %v, want ErrConflict", err)
		}
		got, err := s.Tournament(ctx, "cup")
		if err != nil || got.State != "rounds" || string(got.Data) != `{"v":2}` || got.Version != 2 || got.ClubID != "c1" {
			t.Errorf("after: %+v, %v", got, err)
		}
		if _, err := s.UpdateTournament(ctx, store.Tournament{ID: "nope", Name: "x", State: "open", Data: []byte(`{}`),
			Version: 1}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("an update of none: %v, want ErrNotFound", err)
		}
	})

	t.Run("of updates of one version at once exactly one wins", func(t *testing.T) {
		s := openAs[TournamentsStore](t, open)
		newClub(t, s, "c1")
		if err := s.CreateTournament(ctx, store.Tournament{ID: "cup", ClubID: "c1", Name: "Cup", State: "rounds",
			Data: []byte(`{}`), CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		const n = 8
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.UpdateTournament(ctx, store.Tournament{ID: "cup", Name: "Cup", State: "rounds",
					Data: fmt.Appendf(nil, `{"by":%d}`, i), Version: 1})
			}()
		}
		wg.Wait()
		won, by := 0, -1
		for i, err := range errs {
			switch {
			case err == nil:
				won, by = won+1, i
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("update %d: %v", i, err)
			}
		}
		got, err := s.Tournament(ctx, "cup")
		if won != 1 || err != nil || got.Version != 2 || string(got.Data) != fmt.Sprintf(`{"by":%d}`, by) {
			t.Errorf("%d won; after: %+v, %v", won, got, err)
		}
	})

	t.Run("a tournament's referee's account and extras are kept as written, through updates", func(t *testing.T) {
		// The tournament is one JSON row (tournament.Tournament): the
		// referee's account (its id and name as it showed) and a table's
		// extra points (negative, two decimals) come back byte for byte,
		// and a later update (another referee) replaces them whole.
		s := openAs[TournamentsStore](t, open)
		newClub(t, s, "c1")
		first := `{"referee":"ნინო","referee_account":42,"referee_login":"Nino","rounds":[{"tables":[{"players":["a","b"],` +
			`"online":"t1","game":"t1","extra":[{"seat":1,"points":-0.25},{"seat":2,"points":0.70}]}]}]}`
		if err := s.CreateTournament(ctx, store.Tournament{ID: "cup", ClubID: "c1", Name: "Cup", State: "rounds",
			Data: []byte(first), CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Tournament(ctx, "cup"); err != nil || string(got.Data) != first {
			t.Fatalf("read back: %s, %v\nwant %s", got.Data, err, first)
		}
		second := `{"referee":"Gela","referee_account":7,"referee_login":"Gela","rounds":[{"tables":[{"players":["a","b"],` +
			`"online":"t1","game":"t1","extra":[{"seat":2,"points":0.30}]}]}]}`
		if _, err := s.UpdateTournament(ctx, store.Tournament{ID: "cup", Name: "Cup", State: "rounds", Data: []byte(second),
			Version: 1}); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Tournament(ctx, "cup"); err != nil || string(got.Data) != second || got.Version != 2 {
			t.Errorf("after the update: %s (version %d), %v\nwant %s", got.Data, got.Version, err, second)
		}
	})
	t.Run("an account finds the tournaments it referees, of any club, and a new referee takes them over", func(t *testing.T) {
		s := openAs[TournamentsStore](t, open)
		newClub(t, s, "c1")
		newClub(t, s, "c2")
		for i, tn := range []store.Tournament{
			{ID: "spring", ClubID: "c2", RefereeAccount: 42},
			{ID: "autumn", ClubID: "c1", RefereeAccount: 42},
			{ID: "winter", ClubID: "c1", RefereeAccount: 7},
			{ID: "none", ClubID: "c1"},
		} {
			tn.Name, tn.State, tn.Data = tn.ID, "open", []byte(`{}`)
			tn.CreatedAt = t0.Add(time.Duration(4-i) * time.Hour) // spring newest
			if err := s.CreateTournament(ctx, tn); err != nil {
				t.Fatal(err)
			}
		}
		ids := func(account int64, limit int) string {
			t.Helper()
			ts, err := s.RefereeTournaments(ctx, account, limit)
			if err != nil || ts == nil {
				t.Fatalf("refereed by %d: %#v, %v", account, ts, err)
			}
			var out []string
			for _, x := range ts {
				if x.RefereeAccount != account {
					t.Errorf("%s read back with referee %d, want %d", x.ID, x.RefereeAccount, account)
				}
				out = append(out, x.ClubID+"/"+x.ID)
			}
			return fmt.Sprint(out)
		}
		if got := ids(42, 10); got != "[c1/autumn c2/spring]" {
			t.Errorf("refereed by 42: %s, want [c1/autumn c2/spring] (oldest first, both clubs)", got)
		}
		if got := ids(42, 1); got != "[c1/autumn]" {
			t.Errorf("refereed by 42, at most 1: %s", got)
		}
		if got := ids(0, 10); got != "[]" {
			t.Errorf("account 0 (no referee): %s, want none", got)
		}
		if got := ids(99, 10); got != "[]" {
			t.Errorf("an account that referees nothing: %s", got)
		}
		// The club's new referee: 7 takes "autumn" over from 42.
		if _, err := s.UpdateTournament(ctx, store.Tournament{ID: "autumn", Name: "autumn", State: "rounds", Data: []byte(`{}`),
			Version: 1, RefereeAccount: 7}); err != nil {
			t.Fatal(err)
		}
		if got := ids(42, 10); got != "[c2/spring]" {
			t.Errorf("42 after the change: %s, want [c2/spring]", got)
		}
		if got := ids(7, 10); got != "[c1/winter c1/autumn]" {
			t.Errorf("7 after the change: %s, want [c1/winter c1/autumn] (oldest first)", got)
		}
	})
}
