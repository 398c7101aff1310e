package assist

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/locale"
	"mafia/store"
)

// printPage is the printable protocol: the record of record.Build laid out
// in sentences of the page's language.
type printPage struct {
	page
	ID      string
	Name    string
	Date    string
	Players int
	Ended   bool
	Winner  string
	Rules   []printRule
	Seats   []printSeat
	Rounds  []printRound
	Fouls   []string
	Log     []string
	// Undone says how many entries the host took back; Corrections lists
	// each undo with the events it took back.
	Undone      string
	Corrections []printCorrection
	// Renames says which names the host corrected after the game was made.
	Renames []string
	// Rewrites says each replay with a referee's correction in place.
	Rewrites []string
	// Club is the club's part: host, referee, table, rules code, best move
	// and extra points.
	Club printClub
}

// printCorrection is one undo on the printable page.
type printCorrection struct {
	Title string
	Lines []string
}

// printCorrections narrates the host's undos: for each, its place among the
// entries and the events it took back.
func printCorrections(p *locale.Printer, fixes []record.Correction) []printCorrection {
	out := make([]printCorrection, 0, len(fixes))
	for _, f := range fixes {
		c := printCorrection{Title: p.Plural("assist.correction.entry", len(f.Undone),
			map[string]any{"Entry": f.Entry + 1, "Count": len(f.Undone)})}
		for _, e := range f.Caused {
			c.Lines = append(c.Lines, p.Event(e, engine.Host))
		}
		out = append(out, c)
	}
	return out
}

type printRule struct{ Name, Value string }

type printSeat struct {
	Seat        int
	Name, Role  string
	Person      string // the roster id
	Points      string // under the club's rules, once the game is over
	Fouls       int
	Fate        string
	Out, Winner bool
}

type printRound struct {
	N     int
	Night []string
	Day   []string
	Votes []printVote
	After []string // after the votes: who left, last words
}

type printVote struct {
	Title string
	Rows  []printTally
	Note  string
}

type printTally struct {
	Who    string
	Votes  int
	Voters string
}

// servePrint serves the printable protocol of a game (a finished game's for
// everyone, a running game's for its host).
func (h *Handler) servePrint(w http.ResponseWriter, r *http.Request) {
	rd, err := h.readable(r, r.PathValue("id"))
	if err != nil {
		c := codeOf(err)
		if c == httpapi.CodeInternal {
			h.cfg.Log.Error("assist: protocol page", "path", r.URL.Path, "err", err)
		}
		renderStatus(w, r, h.cfg.Vocabulary.Status(c), "missing.html", newPage(r))
		return
	}
	t, s, log := rd.table, rd.s, rd.log
	if t.Status != StatusEnded {
		// A running game's protocol shows every card: no cache keeps it.
		w.Header().Set("Cache-Control", "no-store")
	}
	pg := newPage(r)
	p := pg.p
	pr := rd.build()
	out := printPage{page: pg, ID: t.ID, Name: t.Name, Date: t.CreatedAt.Format("2006-01-02 15:04"), Players: pr.Players, Ended: pr.Ended}
	if pr.Ended {
		w, _ := engine.ParseWinner(pr.Winner)
		out.Winner = p.Winner(w)
	}
	for _, o := range engine.Options {
		v := pr.Rules[o.Name]
		label := p.T("assist.option."+o.Name+"_"+v, nil)
		if o.Values == nil {
			label = v
		}
		out.Rules = append(out.Rules, printRule{Name: p.T("assist.option."+o.Name, nil), Value: label})
	}
	who := func(n int) string { return p.T("assist.who", map[string]any{"Seat": n, "Name": s.NameOf(n)}) }
	score, err := h.score(r.Context(), rd, pr)
	if err != nil {
		h.cfg.Log.Error("assist: protocol page", "path", r.URL.Path, "err", err)
	}
	out.Club = printClubOf(p, rd, pr, score, who)
	for _, st := range pr.Seats {
		role, _ := engine.ParseRole(st.Role)
		ps := printSeat{Seat: st.Seat, Name: st.Name, Role: p.Role(role), Fouls: st.Fouls, Out: st.Out != nil,
			Fate: p.T("assist.fate.in", nil), Winner: st.Won, Person: st.Person}
		if score != nil && pr.Ended && st.Seat <= len(score.Lines) {
			ps.Points = score.Lines[st.Seat-1].Total.String()
		}
		if st.Out != nil {
			ps.Fate = p.T("assist.fate."+st.Out.Cause, map[string]any{"Round": st.Out.Round})
		}
		out.Seats = append(out.Seats, ps)
	}
	for _, rd := range pr.Rounds {
		out.Rounds = append(out.Rounds, printRoundOf(p, rd, who, mafiaAt(pr.Seats, rd.N)))
	}
	for _, f := range pr.Fouls {
		ph, _ := engine.ParsePhase(f.Phase)
		out.Fouls = append(out.Fouls, p.T("assist.print.foul", map[string]any{"Who": who(f.Seat), "Count": f.Count,
			"Round": f.Round, "Phase": p.Phase(ph)}))
	}
	for _, e := range log {
		out.Log = append(out.Log, p.Event(e, engine.Host))
	}
	out.Corrections = printCorrections(p, rd.fixes)
	for _, x := range rd.renames {
		out.Renames = append(out.Renames, p.T("assist.rename.line", map[string]any{"Seat": x.Seat, "From": x.From, "To": x.To}))
	}
	out.Rewrites = printRewrites(p, rd.rewrites, who)
	if pr.Undone > 0 {
		out.Undone = p.Plural("assist.correction.count", pr.Undone, map[string]any{"Count": pr.Undone, "Undos": len(rd.fixes)})
	}
	render(w, r, "protocol.html", out)
}

// codeOf is the code of a refusal; a missing table is not_found and any
// other error internal.
func codeOf(err error) engine.Code {
	var e *engine.Error
	switch {
	case errors.As(err, &e):
		return e.Code
	case errors.Is(err, store.ErrNotFound):
		return httpapi.CodeNotFound
	}
	return httpapi.CodeInternal
}

// mafiaAt tells whether any mafia card was still in the game when night n
// began: a seat that left in an earlier round was gone by then.
func mafiaAt(seats []record.SeatRecord, n int) bool {
	for _, st := range seats {
		if st.Team == engine.TeamMafia.String() && (st.Out == nil || st.Out.Round >= n) {
			return true
		}
	}
	return false
}

// printRoundOf is one round of the printed protocol; mafia tells whether any
// mafia card was in the game that night (a night without them says so,
// not that the mafia chose nobody).
func printRoundOf(p *locale.Printer, rd record.Round, who func(int) string, mafia bool) printRound {
	pr := printRound{N: rd.N}
	n := rd.Night
	T := func(id string, d map[string]any) string { return p.T("assist.print."+id, d) }
	if n != nil {
		switch {
		case n.Meeting:
			pr.Night = append(pr.Night, T("meeting", nil))
		case n.Victim != 0:
			pr.Night = append(pr.Night, T("mafia", map[string]any{"Who": who(n.Victim)}))
		case !mafia:
			pr.Night = append(pr.Night, T("mafia_gone", nil))
		default:
			pr.Night = append(pr.Night, T("mafia_none", nil))
		}
		for _, c := range []*record.Check{n.Don, n.Detective} {
			if c != nil {
				res, _ := engine.ParseResult(c.Result)
				pr.Night = append(pr.Night, T("check", map[string]any{"By": who(c.By), "Who": who(c.Target), "Result": p.Result(res)}))
			}
		}
		if n.Shot != nil {
			pr.Night = append(pr.Night, T("shot", map[string]any{"By": who(n.Shot.By), "Who": who(n.Shot.Target)}))
		}
		if n.Heal != nil {
			pr.Night = append(pr.Night, T("heal", map[string]any{"By": who(n.Heal.By), "Who": who(n.Heal.Target)}))
		}
		if n.Ended {
			if len(n.Killed) == 0 {
				pr.Night = append(pr.Night, T("killed_none", nil))
			} else {
				pr.Night = append(pr.Night, p.Plural("assist.print.killed", len(n.Killed),
					map[string]any{"Who": whos(n.Killed, who), "Count": len(n.Killed)}))
			}
		}
		for _, s := range n.LastWords {
			pr.Night = append(pr.Night, T("last_words", map[string]any{"Who": who(s)}))
		}
	}
	d := rd.Day
	if d == nil {
		return pr
	}
	pr.Day = append(pr.Day, T("opener", map[string]any{"Who": who(d.Opener)}))
	if len(d.LostSpeech) > 0 {
		pr.Day = append(pr.Day, p.Plural("assist.print.lost_speech", len(d.LostSpeech),
			map[string]any{"Who": whos(d.LostSpeech, who), "Count": len(d.LostSpeech)}))
	}
	for _, nm := range d.Nominations {
		pr.Day = append(pr.Day, T("nominated", map[string]any{"By": who(nm.By), "Who": who(nm.Target)}))
	}
	if len(d.Nominations) == 0 {
		pr.Day = append(pr.Day, T("no_nominations", nil))
	}
	for _, v := range d.Votes {
		pv := printVote{Title: p.Phase(phaseOf(v.Phase))}
		for _, t := range v.Tally {
			voters := make([]string, 0, len(t.Voters))
			for _, s := range t.Voters {
				mark := ""
				for _, b := range v.Ballot {
					if b.Voter == s && b.Abstained {
						mark = "*"
					}
				}
				voters = append(voters, strconv.Itoa(s)+mark)
			}
			pv.Rows = append(pv.Rows, printTally{Who: who(t.Candidate), Votes: t.Votes, Voters: strings.Join(voters, ", ")})
		}
		if v.Tie != nil {
			pv.Note = T("tie", map[string]any{"Who": whos(v.Tie, who)})
		}
		pr.Votes = append(pr.Votes, pv)
	}
	if a := d.AllVote; a != nil && a.Closed {
		id := "all_stay"
		if a.Passed {
			id = "all_leave"
		}
		yes := whos(a.Yes, who)
		if yes == "" {
			yes = "—"
		}
		pr.After = append(pr.After, T(id, map[string]any{"Yes": yes, "Count": len(a.Yes)}))
	}
	for _, x := range d.Out {
		pr.After = append(pr.After, p.T("assist.ann.out_"+x.Cause, map[string]any{"Who": who(x.Seat)}))
	}
	for _, s := range d.LastWords {
		pr.After = append(pr.After, T("last_words", map[string]any{"Who": who(s)}))
	}
	if d.NobodyLeft {
		pr.After = append(pr.After, p.T("assist.ann.nobody_leaves", nil))
	}
	return pr
}

func phaseOf(s string) engine.Phase {
	ph, _ := engine.ParsePhase(s)
	return ph
}

func whos(seats []int, who func(int) string) string {
	parts := make([]string, len(seats))
	for i, s := range seats {
		parts[i] = who(s)
	}
	return strings.Join(parts, ", ")
}
