package assist

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"mafia/engine"
	"mafia/seating"
)

// seatingPage is the printable seating cards of an evening or a
// tournament: the form (names, tables, games, seats, seed, pairs to keep
// apart) and, once asked, one card per round and table from the pure
// generator (package seating): the table, the round, and each seat's
// number and player.
type seatingPage struct {
	page
	Names                        string
	Tables, Games, Seats, Seed   string
	Avoid                        string
	Players                      int
	Error                        string
	Cards                        []seatingCard
	Rounds                       int
	GamesEach, TablesEach, Total int
}

// seatingCard is one round's table: its seats in order.
type seatingCard struct {
	Round, Table int
	Title        string
	Seats        []seatingSeat
}

// seatingSeat is one seat of a card: its number, its player's number on
// the list and name.
type seatingSeat struct {
	Seat, Player int
	Name         string
}

// maxSeatingNames bounds the names a seating page takes (the generator's
// MaxPlayers).
const maxSeatingNames = seating.MaxPlayers

// serveSeating serves /host/seating: the form, and with ?tables= the cards
// (a refusal of the generator is shown with its status and its sentence).
func (h *Handler) serveSeating(w http.ResponseWriter, r *http.Request) {
	pg := newPage(r)
	q := r.URL.Query()
	out := seatingPage{page: pg, Names: q.Get("names"), Tables: q.Get("tables"), Games: q.Get("games"),
		Seats: q.Get("seats"), Seed: q.Get("seed"), Avoid: q.Get("avoid")}
	if out.Seats == "" {
		out.Seats = strconv.Itoa(seating.DefaultSeats)
	}
	if out.Seed == "" {
		out.Seed = "1"
	}
	var names []string
	for _, l := range strings.Split(out.Names, "\n") {
		if n := strings.TrimSpace(l); n != "" {
			names = append(names, n)
		}
	}
	out.Players = len(names)
	if !q.Has("tables") { // the form (names may come filled in, from the club's roster)
		render(w, r, "seating.html", out)
		return
	}
	fail := func(err error) {
		out.Error = pg.p.Refusal(err)
		c := codeOf(err)
		if e := (*engine.Error)(nil); c == CodeRateLimited && errors.As(err, &e) {
			w.Header().Set("Retry-After", strconv.Itoa(e.N))
		}
		renderStatus(w, r, h.cfg.Vocabulary.Status(c), "seating.html", out)
	}
	num := func(s string) int {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return -1 // out of every range: bad_seating
		}
		return n
	}
	seed, err := strconv.ParseUint(strings.TrimSpace(out.Seed), 10, 64)
	if err != nil || len(names) > maxSeatingNames {
		fail(&engine.Error{Code: seating.CodeBadSeating})
		return
	}
	pairs, err := seating.ParseAvoid(out.Avoid)
	if err != nil {
		fail(err)
		return
	}
	cfg := seating.Config{Players: len(names), Tables: num(out.Tables), Seats: num(out.Seats), Games: num(out.Games), Avoid: pairs, Seed: seed}
	if cfg.Seats == 0 {
		cfg.Seats = -1 // 0 is the generator's default: a typed 0 is no size
	}
	s, err := h.seatings.Seating(r.Context(), cfg, func() error { return h.allowSeating(r) })
	if err != nil {
		fail(err)
		return
	}
	for ri, round := range s.Rounds {
		for ti, tab := range round {
			c := seatingCard{Round: ri + 1, Table: ti + 1,
				Title: pg.p.T("assist.seating.card", map[string]any{"Round": ri + 1, "Table": ti + 1})}
			for si, pl := range tab {
				c.Seats = append(c.Seats, seatingSeat{Seat: si + 1, Player: pl, Name: names[pl-1]})
			}
			out.Cards = append(out.Cards, c)
		}
	}
	out.Rounds, out.GamesEach, out.TablesEach, out.Total = len(s.Rounds), cfg.Games, cfg.Tables, len(out.Cards)
	render(w, r, "seating.html", out)
}
