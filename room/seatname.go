package room

// This file keeps the names at one table apart: two seats never show
// names that read alike (internal/namekey: case, width and the letters of
// one script that look like another's set aside), so that nobody passes
// for another player at the table.

import (
	"strconv"
	"unicode/utf8"

	"mafia/internal/namekey"
)

// distinctName is the name a new seat shows: name itself, or, when a taken
// seat already shows a name that reads alike, name with the first number
// from 2 on that makes it read as no other ("Nino 2"), shortened to fit
// MaxName.
func (r *Room) distinctName(name string) string {
	if !r.nameTaken(name) {
		return name
	}
	for n := 2; ; n++ {
		suffix := " " + strconv.Itoa(n)
		base := name
		for utf8.RuneCountInString(base)+len(suffix) > MaxName || len(base)+len(suffix) > MaxNameBytes {
			_, size := utf8.DecodeLastRuneInString(base)
			base = base[:len(base)-size]
		}
		if c := base + suffix; !r.nameTaken(c) {
			return c
		}
	}
}

// nameTaken reports whether a taken seat of the table shows a name that
// reads as name.
func (r *Room) nameTaken(name string) bool {
	for s := 1; s < len(r.seats); s++ {
		if st := r.seats[s]; (st.tokenHash != "" || st.bot) && namekey.Same(st.name, name) {
			return true
		}
	}
	return false
}
