package record

import (
	"unicode/utf8"

	"mafia/engine"
)

// MaxPersonID is the longest roster id a seat may carry.
const MaxPersonID = 64

// MaxNumber is the highest game number of an evening.
const MaxNumber = 99

// ClubInfo is what a club's protocol holds besides the game: whose game it
// is, who ran it, where in the evening it was, and who sat where by the
// club's roster. Every field may be empty: a game of no club may still
// name its host.
type ClubInfo struct {
	Club    string `json:"club,omitempty"`    // the club's id ("": no club's)
	Day     string `json:"day,omitempty"`     // the evening's date as the host's phone gives it, YYYY-MM-DD
	Host    string `json:"host,omitempty"`    // who hosted (the club's word: the leader)
	Referee string `json:"referee,omitempty"` // who judged, if not the host
	Table   string `json:"table,omitempty"`   // the table of the evening ("1", "A")
	Number  int    `json:"number,omitempty"`  // the game's number of the evening at that table
	// People are the seats' roster ids, seat 1 first ("": a guest); none
	// when no seat is on a roster.
	People []string `json:"people,omitempty"`
	// Tournament is the club's tournament table this game is played at
	// (nil: none): the club links the game to that round's table.
	Tournament *TournamentTable `json:"tournament,omitempty"`
}

// TournamentTable is one table of one round of a club's tournament
// (docs/club.md, Tournaments): the tournament's id, the round and the
// table, both from 1.
type TournamentTable struct {
	ID    string `json:"id"`
	Round int    `json:"round"`
	Table int    `json:"table"`
}

// MaxTournamentRound bounds a tournament table's round (the seating's most
// rounds, and a final's games after them) and table.
const MaxTournamentRound = 400

// PersonOf returns seat n's roster id ("" for a guest or none).
func (c *ClubInfo) PersonOf(n int) string {
	if c == nil || n < 1 || n > len(c.People) {
		return ""
	}
	return c.People[n-1]
}

// check refuses club fields that cannot be kept (CodeBadSettings, Name
// "club" and Value the field).
func (c *ClubInfo) check(seats int) error {
	if c == nil {
		return nil
	}
	bad := func(field string) error { return &engine.Error{Code: CodeBadSettings, Name: "club", Value: field} }
	for _, f := range []struct{ name, v string }{{"club", c.Club}, {"host", c.Host}, {"referee", c.Referee}, {"table", c.Table}} {
		if utf8.RuneCountInString(f.v) > MaxName {
			return bad(f.name)
		}
	}
	if c.Day != "" && !isDay(c.Day) {
		return bad("day")
	}
	if c.Number < 0 || c.Number > MaxNumber {
		return bad("number")
	}
	if len(c.People) != 0 && len(c.People) != seats {
		return bad("people")
	}
	if tt := c.Tournament; tt != nil && (tt.ID == "" || len(tt.ID) > MaxPersonID || c.Club == "" ||
		tt.Round < 1 || tt.Round > MaxTournamentRound || tt.Table < 1 || tt.Table > MaxTournamentRound) {
		return bad("tournament")
	}
	seen := map[string]bool{}
	for _, p := range c.People {
		if len(p) > MaxPersonID || (p != "" && seen[p]) {
			return bad("people")
		}
		seen[p] = true
	}
	return nil
}

// isDay reports whether s is a date written YYYY-MM-DD (months 1-12, days
// 1-31: the calendar's finer points are the club's).
func isDay(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	m := int(s[5]-'0')*10 + int(s[6]-'0')
	d := int(s[8]-'0')*10 + int(s[9]-'0')
	return m >= 1 && m <= 12 && d >= 1 && d <= 31
}
