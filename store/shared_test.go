package store

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

func TestDiffSeatsWritesOnlyTheSeatsThatChange(t *testing.T) {
	nino, gio, bot := Seat{Seat: 1, Name: "Nino"}, Seat{Seat: 2, Name: "Gio"}, Seat{Seat: 3, Name: "Bot", Bot: true}
	for _, c := range []struct {
		name     string
		old, new []Seat
		want     SeatChanges
	}{
		{"the same seats change nothing", []Seat{nino, gio}, []Seat{nino, gio}, SeatChanges{}},
		{"a join adds its seat alone", []Seat{nino}, []Seat{nino, gio}, SeatChanges{Added: []Seat{gio}}},
		{"a rename changes its seat alone", []Seat{nino, gio}, []Seat{nino, {Seat: 2, Name: "Giorgi"}},
			SeatChanges{Changed: []Seat{{Seat: 2, Name: "Giorgi"}}}},
		{"a leave removes its seat alone", []Seat{nino, gio, bot}, []Seat{nino, bot}, SeatChanges{Removed: []int{2}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := DiffSeats(c.old, c.new)
			if !slices.Equal(got.Changed, c.want.Changed) || !slices.Equal(got.Added, c.want.Added) || !slices.Equal(got.Removed, c.want.Removed) {
				t.Errorf("DiffSeats = %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestCheckAppendRefusesANegativeStartAndTooManyEvents(t *testing.T) {
	if err := CheckAppend("x", -1, 1); !errors.Is(err, ErrConflict) {
		t.Errorf("an append at -1: %v, want ErrConflict", err)
	}
	if err := CheckAppend("x", 0, MaxAppend+1); err == nil {
		t.Errorf("an append of %d events was taken", MaxAppend+1)
	}
	if err := CheckAppend("x", 3, MaxAppend); err != nil {
		t.Errorf("an append of %d events at 3: %v", MaxAppend, err)
	}
}

func TestLeaderboardQueryDefaultsAndSeason(t *testing.T) {
	q := LeaderboardQuery{Limit: 0, Offset: -5}.WithDefaults()
	if q.Limit != DefaultLeaderboard || q.Offset != 0 {
		t.Errorf("defaults: %+v", q)
	}
	if _, _, ok := q.Season(); ok {
		t.Errorf("a query without bounds asks for a season")
	}
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f, to, ok := LeaderboardQuery{From: from}.Season()
	if !ok || f != from.UnixMilli() || to != 1<<62 {
		t.Errorf("a season from %s: %d..%d, %v", from, f, to, ok)
	}
}

func TestWriteTrackerNotesFailuresNotRefusals(t *testing.T) {
	var w WriteTracker
	reason := func(error) string { return "disk full" }
	w.Note(fmt.Errorf("x: %w", ErrConflict), reason)
	w.Note(ErrUnfenced, reason)
	if h := w.WriteHealth(); !h.LastFail.IsZero() {
		t.Fatalf("a refusal noted as a failure: %+v", h)
	}
	w.Note(errors.New("disk"), reason)
	h := w.WriteHealth()
	if h.LastFail.IsZero() || h.Since.IsZero() || h.Reason != "disk full" || !h.Failing(time.Now(), 0) {
		t.Fatalf("a failure: %+v", h)
	}
	w.Note(nil, reason)
	if h := w.WriteHealth(); !h.Since.IsZero() || h.Failing(time.Now(), 0) {
		t.Errorf("a commit after the failure: %+v", h)
	}
}
