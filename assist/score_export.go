package assist

import (
	"context"
	"strconv"
	"strings"

	"mafia/assist/record"
	"mafia/club"
	"mafia/locale"
)

// protocolScore is the club's part of an exported protocol: the best move,
// the extra points, the club's rules, and every seat's points under them.
type protocolScore struct {
	BestMove *club.BestMove `json:"best_move,omitempty"`
	// BestMoveRight counts the mafia the best move names (-1: none).
	BestMoveRight int          `json:"best_move_right"`
	Extra         []club.Extra `json:"extra"`
	Scoring       club.Scoring `json:"scoring"`
	Lines         []club.Line  `json:"lines"`
}

// score is the club's part of a protocol: for a finished game, or one the
// host has recorded a score for; nil otherwise.
func (h *Handler) score(ctx context.Context, rd *readable, pr *record.Protocol) (*protocolScore, error) {
	if !pr.Ended && rd.score == nil {
		return nil, nil
	}
	sc, err := h.scoringOf(ctx, rd.s)
	if err != nil {
		return nil, err
	}
	rec := &inPerson{Settings: *rd.s, Score: rd.score}
	g := clubGameOf(rd.table, rec, pr, rd.log)
	out := &protocolScore{BestMove: g.BestMove, BestMoveRight: -1, Extra: g.Extra, Scoring: sc, Lines: sc.Score(&g)}
	if out.Extra == nil {
		out.Extra = []club.Extra{}
	}
	if g.BestMove != nil {
		out.BestMoveRight = g.BestMoveRight(*g.BestMove)
	}
	return out, nil
}

// clubRows lays the club's part of a protocol out as rows under
// record.CSVHeader, after the events: host, referee, table (result; the
// number in count), day and rules (the code) as a row each; the best move
// (actor, the guess in seats, the mafia it names in count); each extra
// (actor, the points in result); and each seat's points (actor, the total
// in result, yes when a winner, the way they left in cause). A game with
// no club's fields and no score has none of these rows (its CSV is as it
// was before the clubs).
func clubRows(rd *readable, pr *record.Protocol, ps *protocolScore) [][]string {
	var rows [][]string
	s := rd.s
	if s.Club == nil && rd.score == nil {
		return nil
	}
	row := func(kind string, actor int) []string {
		r := make([]string, len(record.CSVHeader))
		r[3] = kind
		if actor > 0 {
			r[4], r[5] = strconv.Itoa(actor), s.NameOf(actor)
			if actor <= len(pr.Seats) {
				r[6] = pr.Seats[actor-1].Role
			}
			r[16] = s.Club.PersonOf(actor)
		}
		return r
	}
	if c := s.Club; c != nil {
		for _, f := range []struct{ kind, v string }{{"host", c.Host}, {"referee", c.Referee}, {"day", c.Day}} {
			if f.v != "" {
				r := row(f.kind, 0)
				r[10] = f.v
				rows = append(rows, r)
			}
		}
		if c.Table != "" || c.Number > 0 {
			r := row("table", 0)
			r[10] = c.Table
			if c.Number > 0 {
				r[12] = strconv.Itoa(c.Number)
			}
			rows = append(rows, r)
		}
	}
	r := row("rules", 0)
	r[10] = pr.RulesCode
	rows = append(rows, r)
	if ps == nil {
		return rows
	}
	if b := ps.BestMove; b != nil {
		r := row("best_move", b.Seat)
		parts := make([]string, len(b.Guess))
		for i, g := range b.Guess {
			parts[i] = strconv.Itoa(g)
		}
		r[14], r[12] = strings.Join(parts, " "), strconv.Itoa(ps.BestMoveRight)
		rows = append(rows, r)
	}
	for _, x := range ps.Extra {
		r := row("extra", x.Seat)
		r[10] = x.Points.String()
		rows = append(rows, r)
	}
	for _, l := range ps.Lines {
		r := row("points", l.Seat.Seat)
		r[10], r[11] = l.Total.String(), l.Seat.Out
		if pr.Ended {
			r[13] = yesNo(l.Won)
		}
		rows = append(rows, r)
	}
	return rows
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// printClub is the club's part of the printable protocol.
type printClub struct {
	Fields   []printRule // host, referee, table, number, day, rules code
	BestMove string
	Extras   []string
}

func printClubOf(p *locale.Printer, rd *readable, pr *record.Protocol, ps *protocolScore, who func(int) string) printClub {
	var out printClub
	add := func(id, v string) {
		if v != "" {
			out.Fields = append(out.Fields, printRule{Name: p.T("assist.club."+id, nil), Value: v})
		}
	}
	if c := rd.s.Club; c != nil {
		add("host", c.Host)
		add("referee", c.Referee)
		add("table", c.Table)
		if c.Number > 0 {
			add("number", strconv.Itoa(c.Number))
		}
		add("day", c.Day)
	}
	add("rules_code", pr.RulesCode)
	if ps == nil {
		return out
	}
	if b := ps.BestMove; b != nil {
		out.BestMove = p.T("assist.club.best_move_line", map[string]any{"Who": who(b.Seat),
			"Guess": whos(b.Guess, who), "Right": ps.BestMoveRight})
	}
	for _, x := range ps.Extra {
		out.Extras = append(out.Extras, p.T("assist.club.extra_line", map[string]any{"Who": who(x.Seat), "Points": x.Points.String()}))
	}
	return out
}
