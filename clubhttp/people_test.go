package clubhttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"mafia/club"
	"mafia/clubhttp"
	"mafia/internal/sqlitetest"
	"mafia/store"
)

// TestPeople_ANameAlreadyOnTheRosterIsRefusedWithWhatTellsThemApart
// (issue 29, defect 3): adding Keti when Keti is on the roster is refused
// (409 person_exists, the sentence in the request's language) with the
// entries of that name and what tells them apart (id, the day added, the
// club's games played and the last one's day, a linked account); "again"
// adds another person of that name; two hosts adding სოფო at once make
// one entry, the other is told it exists.
func TestPeople_ANameAlreadyOnTheRosterIsRefusedWithWhatTellsThemApart(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kept := games{}
	h := clubhttp.New(clubhttp.Config{Store: db, Games: kept})
	hs := httptest.NewServer(h)
	defer hs.Close()
	var c struct{ ID, Token string }
	if code := do(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "Tbilisi club"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	people := hs.URL + "/host/api/clubs/" + c.ID + "/people"
	var keti club.Person
	if code := do(t, "POST", people, c.Token, map[string]any{"name": "Keti"}, &keti); code != http.StatusCreated {
		t.Fatalf("add Keti: %d", code)
	}
	// Keti played a game of the club on 2026-04-02.
	g := club.Game{Date: "2026-04-02", Rules: "std", Winner: "town", Seats: []club.Seat{{Seat: 1, Person: keti.ID, Name: "Keti", Role: "citizen"}}}
	kept["t1"] = g
	now := time.Now()
	if err := db.CreateTable(context.Background(), store.Table{ID: "t1", Kind: store.KindInPerson, Name: "t1", Status: "in_person",
		CreatedAt: now, UpdatedAt: now}, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.AddGame(context.Background(), c.ID, store.ClubGame{TableID: "t1", Day: "2026-04-02"}); err != nil {
		t.Fatal(err)
	}

	type same struct {
		ID, Name, Since, Last string
		Games                 int
		Linked                bool
	}
	var refused struct {
		Error struct{ Code, Message string }
		Same  []same
	}
	if code := do(t, "POST", people, c.Token, map[string]any{"name": " keti "}, &refused); code != http.StatusConflict ||
		refused.Error.Code != "person_exists" || refused.Error.Message == "" {
		t.Fatalf("a second keti: %d %+v; want 409 person_exists with a sentence", code, refused.Error)
	}
	if len(refused.Same) != 1 || refused.Same[0].ID != keti.ID || refused.Same[0].Games != 1 || refused.Same[0].Last != "2026-04-02" ||
		refused.Same[0].Since == "" || refused.Same[0].Linked {
		t.Errorf("the entries of that name: %+v", refused.Same)
	}
	var again club.Person
	if code := do(t, "POST", people, c.Token, map[string]any{"name": "Keti", "again": true}, &again); code != http.StatusCreated || again.ID == keti.ID {
		t.Fatalf("another Keti, said so: %d %+v", code, again)
	}

	// Two hosts add სოფო at once: one entry.
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Go(func() { codes[i] = do(t, "POST", people, c.Token, map[string]any{"name": "სოფო"}, nil) })
	}
	wg.Wait()
	if !(codes[0] == http.StatusCreated && codes[1] == http.StatusConflict || codes[1] == http.StatusCreated && codes[0] == http.StatusConflict) {
		t.Errorf("two hosts adding სოფო: %v; want one 201 and one 409", codes)
	}
	var found struct{ People []club.Person }
	if code := do(t, "GET", people+"?q=sopo", c.Token, nil, &found); code != http.StatusOK || len(found.People) != 1 {
		t.Errorf("the roster's სოფო: %d %+v; want one entry", code, found.People)
	}
}
