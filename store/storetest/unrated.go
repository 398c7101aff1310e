package storetest

import (
	"slices"
	"testing"
	"time"

	"mafia/store"
)

// unratedEnded: the online tables that ended, whose data says "rated":
// true, oldest first; not one still playing, not one whose settings are
// not rated (or are not JSON), not an in-person game, not one set aside.
func unratedEnded(t *testing.T, open Open) {
	db := open(t)
	u, ok := db.(store.UnratedTables)
	if !ok {
		t.Skip("the store lists no unrated tables")
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, c := range []struct {
		id     string
		kind   store.Kind
		status store.Status
		data   string
	}{
		{"r2", store.KindOnline, store.StatusEnded, `{"name":"x","rated":true}`},
		{"r1", store.KindOnline, store.StatusEnded, `{"rated": true, "setup": "classic"}`},
		{"unrated", store.KindOnline, store.StatusEnded, `{"rated":false}`},
		{"unsaid", store.KindOnline, store.StatusEnded, `{"name":"rated"}`},
		{"nested", store.KindOnline, store.StatusEnded, `{"rules":{"rated":true}}`},
		{"notjson", store.KindOnline, store.StatusEnded, `"rated"`},
		{"nodata", store.KindOnline, store.StatusEnded, ``},
		{"playing", store.KindOnline, store.StatusPlaying, `{"rated":true}`},
		{"inperson", store.KindInPerson, store.StatusEnded, `{"rated":true}`},
		{"aside", store.KindOnline, store.StatusEnded, `{"rated":true}`},
	} {
		// r1 is the older, though recorded later.
		at := base.Add(time.Duration(i) * time.Minute)
		if c.id == "r1" {
			at = base.Add(-time.Hour)
		}
		var data []byte
		if c.data != "" {
			data = []byte(c.data)
		}
		if err := db.CreateTable(bg, store.Table{ID: c.id, Kind: c.kind, Status: c.status, Data: data, CreatedAt: at}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.SetAside(bg, "aside", "a test"); err != nil {
		t.Fatal(err)
	}
	got, err := u.UnratedEnded(bg)
	if err != nil || !slices.Equal(got, []string{"r1", "r2"}) {
		t.Errorf("UnratedEnded: %v, %v; want [r1 r2]", got, err)
	}
}
