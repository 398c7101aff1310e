package club

import (
	"strings"
	"unicode/utf8"

	"mafia/engine"
)

// MaxName is the longest club, person or season name, in characters.
const MaxName = 64

// Club is a club: its name and its scoring rules.
type Club struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Scoring Scoring `json:"scoring"`
}

// Person is one entry of a club's roster: somebody who plays at the club,
// with or without an account. ID never changes; Name is as the club writes
// it, in any script. MergedInto is the entry this one was merged into ("":
// none): its games count under that one.
type Person struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	MergedInto string `json:"merged_into,omitempty"`
}

// Merge records that entry From was merged into entry Into: every game of
// From counts as Into's from then on. Seq orders a club's merges.
type Merge struct {
	Seq  int    `json:"seq"`
	From string `json:"from"`
	Into string `json:"into"`
}

// CheckName refuses an empty or too long name (field says which one).
func CheckName(name, field string) error {
	if strings.TrimSpace(name) == "" || utf8.RuneCountInString(name) > MaxName {
		return &engine.Error{Code: CodeBadClub, Name: field, N: MaxName}
	}
	return nil
}

// Roster is a club's people by id, with their merges resolved.
type Roster struct {
	people []Person // in the order given
	byID   map[string]Person
}

// NewRoster indexes a club's people.
func NewRoster(people []Person) *Roster {
	r := &Roster{people: people, byID: make(map[string]Person, len(people))}
	for _, p := range people {
		r.byID[p.ID] = p
	}
	return r
}

// Has reports whether id is on the roster (merged or not).
func (r *Roster) Has(id string) bool {
	_, ok := r.byID[id]
	return ok
}

// Resolve returns the entry id stands for now: itself, or, after merges,
// the entry its games count under ("" for an id not on the roster). A
// chain of merges is followed to its end; a cycle (which CheckMerge never
// lets happen) stops where it began.
func (r *Roster) Resolve(id string) string {
	p, ok := r.byID[id]
	if !ok {
		return ""
	}
	seen := map[string]bool{id: true}
	for p.MergedInto != "" && !seen[p.MergedInto] {
		next, ok := r.byID[p.MergedInto]
		if !ok {
			break
		}
		seen[next.ID] = true
		p = next
	}
	return p.ID
}

// Person returns the entry id stands for now (see Resolve).
func (r *Roster) Person(id string) (Person, bool) {
	p, ok := r.byID[r.Resolve(id)]
	return p, ok
}

// CheckMerge refuses to merge from into into unless both are on the roster,
// they are two entries, and neither was merged already.
func (r *Roster) CheckMerge(from, into string) error {
	f, okF := r.byID[from]
	i, okI := r.byID[into]
	switch {
	case !okF || !okI:
		return &engine.Error{Code: CodeBadMerge, Name: "not_on_roster"}
	case from == into:
		return &engine.Error{Code: CodeBadMerge, Name: "same"}
	case f.MergedInto != "" || i.MergedInto != "":
		return &engine.Error{Code: CodeBadMerge, Name: "merged"}
	}
	return nil
}

// Search returns the roster's entries (not merged away) whose name matches
// query (Match), in the roster's order.
func (r *Roster) Search(query string) []Person {
	out := []Person{}
	for _, p := range r.people {
		if p.MergedInto == "" && Match(query, p.Name) {
			out = append(out, p)
		}
	}
	return out
}
