package locale

import (
	"strings"

	"mafia/engine"
)

// Summary describes a view in a few lines for its reader: the step, who
// speaks, who is in the game and out, today's candidates, the reader's card
// and the cards it knows, its check answers, heals and shots so far, and
// the fouls. It shows only what the view holds.
func (p *Printer) Summary(v engine.View) []string {
	var out []string
	d := map[string]any{"Round": int(v.Round), "Phase": p.Phase(v.Phase), "Seat": int(v.Speaker)}
	switch v.Phase {
	case engine.PhaseNight:
		out = append(out, p.T("view.night", d))
	case engine.PhaseEnded, engine.PhaseNone:
		out = append(out, p.T("view.step", d))
	default:
		out = append(out, p.T("view.day", d))
	}
	if v.Speaker != 0 {
		if v.Speaker == v.Seat {
			out = append(out, p.T("view.speaker_you", d))
		} else {
			out = append(out, p.T("view.speaker", d))
		}
	}
	alive := v.Alive.Seats()
	out = append(out, p.Plural("view.alive", len(alive), map[string]any{"Count": len(alive), "Seats": p.Seats(alive)}))
	var gone []engine.Seat
	for s := engine.Seat(1); s <= engine.Seat(v.Players); s++ {
		if !v.Alive.Has(s) {
			gone = append(gone, s)
		}
	}
	if len(gone) > 0 {
		out = append(out, p.Plural("view.out", len(gone), map[string]any{"Count": len(gone), "Seats": p.Seats(gone)}))
	}
	if v.NumCandidates > 0 {
		out = append(out, p.T("view.candidates", map[string]any{"Seats": p.Seats(v.CandidateList())}))
	}
	if c := p.claims(v); c != "" {
		out = append(out, c)
	}
	if v.Seat != 0 {
		out = append(out, p.own(v)...)
	}
	var fouls []string
	for s := engine.Seat(1); s <= engine.Seat(v.Players); s++ {
		if f := v.Fouls[s]; f > 0 {
			fouls = append(fouls, p.T("view.item", map[string]any{"Seat": int(s), "What": int(f)}))
		}
	}
	if len(fouls) > 0 {
		out = append(out, p.T("view.fouls", map[string]any{"List": strings.Join(fouls, ", ")}))
	}
	return out
}

// claims lists each seat's latest claim of a card so far ("Claimed cards:
// seat 3 — detective, seat 7 — doctor."), or "" when nobody has claimed
// one. A claim is what a player said, not his card.
func (p *Printer) claims(v engine.View) string {
	var last [engine.MaxSeats + 1]engine.Role
	for i := 0; i < v.Talk.Len(); i++ {
		if st := v.Talk.At(i); st.Verb == engine.Claim && int(st.By) <= engine.MaxSeats {
			last[st.By] = st.Role
		}
	}
	var items []string
	for s := engine.Seat(1); s <= engine.Seat(v.Players) && s <= engine.MaxSeats; s++ {
		if last[s] != engine.RoleNone {
			items = append(items, p.T("view.item", map[string]any{"Seat": int(s), "What": p.Role(last[s])}))
		}
	}
	if len(items) == 0 {
		return ""
	}
	return p.T("view.claims", map[string]any{"List": strings.Join(items, ", ")})
}

// own describes the reader's card, what it knows of other cards, and its
// own night record.
func (p *Printer) own(v engine.View) []string {
	out := []string{p.T("view.card", map[string]any{"Seat": int(v.Seat), "Role": p.Role(v.Role)})}
	if !v.Alive.Has(v.Seat) {
		out = append(out, p.T("view.you_out", nil))
	}
	var team, known []string
	for s := engine.Seat(1); s <= engine.Seat(v.Players); s++ {
		if s == v.Seat {
			continue
		}
		item := ""
		switch {
		case v.Roles[s] != engine.RoleNone:
			item = p.T("view.item", map[string]any{"Seat": int(s), "What": p.Role(v.Roles[s])})
		case v.Teams[s] != engine.TeamNone:
			item = p.T("view.item", map[string]any{"Seat": int(s), "What": p.Team(v.Teams[s])})
		default:
			continue
		}
		if v.Role.IsMafia() && v.Teams[s] == engine.TeamMafia && v.Phase != engine.PhaseEnded {
			team = append(team, item)
		} else {
			known = append(known, item)
		}
	}
	if len(team) > 0 {
		out = append(out, p.T("view.team", map[string]any{"List": strings.Join(team, ", ")}))
	}
	if len(known) > 0 {
		out = append(out, p.T("view.known", map[string]any{"List": strings.Join(known, ", ")}))
	}
	var checks []string
	for s := engine.Seat(1); s <= engine.Seat(v.Players); s++ {
		if r := v.Checks[s]; r != engine.ResultNone {
			checks = append(checks, p.T("view.item", map[string]any{"Seat": int(s), "What": p.Result(r)}))
		}
	}
	if len(checks) > 0 {
		out = append(out, p.T("view.checks", map[string]any{"List": strings.Join(checks, ", ")}))
	}
	if v.Role == engine.Doctor && v.Healed != 0 {
		out = append(out, p.T("view.healed", map[string]any{"Seats": p.Seats(v.Healed.Seats())}))
	}
	if v.Role == engine.Maniac {
		n := int(v.ShotsLeft)
		out = append(out, p.Plural("view.shots", n, map[string]any{"Count": n}))
	}
	return out
}

// Setup describes a table's setup ("11 players: 1 don, 2 mafiosi, ...").
// The setup of a preset is public: every player may know it.
func (p *Printer) Setup(s engine.Setup) string {
	var items []string
	for _, c := range []struct {
		n  int
		id string
	}{{s.Don, "setup.don"}, {s.Mafia, "setup.mafia"}, {s.Maniac, "setup.maniac"},
		{s.Detective, "setup.detective"}, {s.Doctor, "setup.doctor"}, {s.Citizens, "setup.citizen"}} {
		if c.n > 0 {
			items = append(items, p.Plural(c.id, c.n, nil))
		}
	}
	n := s.Players()
	return p.Plural("setup.table", n, map[string]any{"Count": n, "List": p.And(items)})
}

// Words returns the words a player may type for a command key ("kill",
// "vote", "yes", "help", ...) in the printer's language, the one to show
// first. They come from the catalog's word.<key>, a comma-separated list.
func (p *Printer) Words(key string) []string {
	id := "word." + key
	if !p.Has(id) {
		return nil
	}
	var out []string
	for _, w := range strings.Split(p.T(id, nil), ",") {
		if w = strings.ToLower(strings.TrimSpace(w)); w != "" {
			out = append(out, w)
		}
	}
	return out
}
