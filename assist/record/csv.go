package record

import (
	"strconv"
	"strings"

	"mafia/engine"
)

// CSVHeader names the columns of CSV: the ids of the columns, whose names
// in each language are the catalogs' (assist.csv.<id>).
var CSVHeader = []string{"seq", "round", "phase", "kind", "actor", "actor_name", "actor_role",
	"target", "target_name", "target_role", "result", "cause", "count", "yes", "seats", "abstained", "person"}

// CSV lays an event log out as rows under CSVHeader: one row per event (seq
// is its index in the log) and, after each closed vote, one "ballot" row per
// counted voter (actor) with the candidate counted for them (target) and
// whether they abstained (their vote went to the last candidate). A
// game_ended row has the winner as its result. Names and
// roles are filled in for every seat; kinds, roles, results and causes are
// the engine's names (docs/rules.md), so a spreadsheet can count them.
// Person is the actor's roster id (Settings.Club), where the seat has one.
func CSV(s *Settings, log []engine.Event) [][]string {
	rows := make([][]string, 0, len(log)+16)
	var roles []engine.Role
	var w where
	players := len(s.Names)
	cast := map[int]bool{}
	seat := func(n int) (string, string, string) {
		if n <= 0 {
			return "", "", ""
		}
		role := ""
		if n < len(roles) {
			role = roles[n].String()
		}
		return strconv.Itoa(n), s.NameOf(n), role
	}
	row := func(i int, e engine.Event, kind string, actor, target int) []string {
		r := make([]string, len(CSVHeader))
		r[0], r[1], r[2], r[3] = strconv.Itoa(i), strconv.Itoa(w.round), w.phase.String(), kind
		r[4], r[5], r[6] = seat(actor)
		r[7], r[8], r[9] = seat(target)
		r[16] = s.Club.PersonOf(actor)
		if e.Result != engine.ResultNone {
			r[10] = e.Result.String()
		}
		if e.Cause != engine.CauseNone {
			r[11] = e.Cause.String()
		}
		return r
	}
	for i, e := range log {
		w.see(e)
		r := row(i, e, e.Kind.String(), int(e.Actor), int(e.Target))
		switch e.Kind {
		case engine.EvGameStarted:
			players = int(e.Count)
			roles = make([]engine.Role, players+1)
			for n := 1; n <= players; n++ {
				roles[n] = e.RoleOf(engine.Seat(n))
			}
			r[12] = strconv.Itoa(players)
			r[14] = cardList(roles)
		case engine.EvNightEnded:
			r[14] = seatList(e.Set.Seats())
		case engine.EvVoteBegan, engine.EvTie:
			r[14] = seatList(e.List())
			r[12] = strconv.Itoa(int(e.Count))
			cast = map[int]bool{}
		case engine.EvVoteCast:
			cast[int(e.Actor)] = true
		case engine.EvAllVoteCast:
			r[13] = yesNo(e.Yes)
		case engine.EvAllVoteClosed:
			r[13] = yesNo(e.Yes)
			r[14] = seatList(e.Set.Seats())
			r[12] = strconv.Itoa(e.Set.Len())
		case engine.EvFouled:
			r[12] = strconv.Itoa(int(e.Count))
		case engine.EvPlayerOut:
			if e.Role != engine.RoleNone {
				r[14] = e.Role.String()
			} else if e.Team != engine.TeamNone {
				r[14] = e.Team.String()
			}
		case engine.EvGameEnded:
			r[10] = e.Winner.String()
			r[14] = cardList(roles)
		}
		rows = append(rows, r)
		if e.Kind == engine.EvVoteClosed {
			for v := 1; v <= players && v <= engine.MaxSeats; v++ {
				if c := int(e.CountedFor(engine.Seat(v))); c != 0 {
					b := row(i, engine.Event{}, "ballot", v, c)
					b[15] = yesNo(!cast[v])
					rows = append(rows, b)
				}
			}
		}
	}
	return rows
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func seatList(ss []engine.Seat) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = strconv.Itoa(int(s))
	}
	return strings.Join(parts, " ")
}

func cardList(roles []engine.Role) string {
	parts := make([]string, 0, len(roles))
	for n := 1; n < len(roles); n++ {
		parts = append(parts, strconv.Itoa(n)+"="+roles[n].String())
	}
	return strings.Join(parts, " ")
}

// CorrectionRows lays the host's undos out as rows under CSVHeader, for
// after the rows of CSV: one "undone" row per entry taken back, with the
// entry's place among the host's entries (seq), its seats (actor, target),
// its verb (result), the place of the undo that took it back (count), and
// yes. The events of CSV are the corrected game's; these rows are the audit
// trail of the corrections.
func CorrectionRows(s *Settings, fixes []Correction) [][]string {
	var rows [][]string
	roles := s.Roles
	seat := func(n int) (string, string, string) {
		if n <= 0 {
			return "", "", ""
		}
		role := ""
		if n <= len(roles) {
			role = roles[n-1]
		}
		return strconv.Itoa(n), s.NameOf(n), role
	}
	for _, f := range fixes {
		for _, c := range f.Undone {
			r := make([]string, len(CSVHeader))
			r[0], r[3] = strconv.Itoa(c.Seq), "undone"
			r[4], r[5], r[6] = seat(c.By)
			r[7], r[8], r[9] = seat(c.Target)
			r[10], r[12] = c.Verb, strconv.Itoa(f.Entry)
			if c.Yes {
				r[13] = "yes"
			}
			rows = append(rows, r)
		}
	}
	return rows
}
