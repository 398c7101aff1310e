package locale

import (
	"sort"
	"strings"

	"mafia/engine"
)

// Event narrates one event for viewer, the seat reading it (0 for the host
// or a spectator). The caller passes the copy the viewer may see (from
// Game.EventFor); Event shows everything that copy holds. The viewer's own
// actions read in the second person ("You checked seat 5: mafia."). Some
// events take several lines, joined with "\n".
func (p *Printer) Event(e engine.Event, viewer engine.Seat) string {
	n := narration{p: p, viewer: viewer, data: map[string]any{
		"Round": int(e.Round), "Actor": int(e.Actor), "Target": int(e.Target), "Count": int(e.Count),
	}}
	switch e.Kind {
	case engine.EvGameStarted:
		return p.gameStarted(e, viewer)
	case engine.EvNightBegan:
		return n.say("event.night_began")
	case engine.EvMafiaChose:
		if e.Target == 0 {
			return n.by("event.mafia_chose_none", e.Actor)
		}
		return n.by("event.mafia_chose", e.Actor)
	case engine.EvChecked:
		n.data["Answer"] = p.Result(e.Result)
		return n.by("event.checked", e.Actor)
	case engine.EvHealed:
		return n.by("event.healed", e.Actor)
	case engine.EvShot:
		return n.by("event.shot", e.Actor)
	case engine.EvSkipped:
		return n.by("event.skipped", e.Actor)
	case engine.EvNightEnded:
		victims := e.Set.Len()
		if victims == 0 {
			return n.say("event.night_ended_none")
		}
		n.data["Count"] = victims
		return p.Plural("event.night_ended", victims, n.data)
	case engine.EvPlayerOut:
		return n.playerOut(e)
	case engine.EvLastWords:
		return n.by("event.last_words", e.Target)
	case engine.EvDayBegan:
		return n.by("event.day_began", e.Actor)
	case engine.EvSpeechSkipped:
		return n.by("event.speech_skipped", e.Target)
	case engine.EvSpeech:
		return n.by("event.speech", e.Target)
	case engine.EvNominated:
		if n.you(e.Target) {
			return n.say("event.nominated_me")
		}
		return n.by("event.nominated", e.Actor)
	case engine.EvDefence:
		return n.by("event.defence", e.Target)
	case engine.EvVoteBegan:
		return n.voteBegan(e)
	case engine.EvVoteCast:
		return n.by("event.vote_cast", e.Actor)
	case engine.EvVoteMade:
		return n.by("event.vote_made", e.Actor)
	case engine.EvVoteClosed:
		return n.voteClosed(e)
	case engine.EvTie:
		n.data["Seats"] = p.Seats(e.List())
		if e.Phase == engine.PhaseRevote {
			// a tie again: "shall all of them leave?" follows, not a revote
			return n.say("event.tie_again")
		}
		return n.say("event.tie")
	case engine.EvTieSpeech:
		return n.by("event.tie_speech", e.Target)
	case engine.EvAllVoteBegan:
		return n.say("event.all_vote_began")
	case engine.EvAllVoteCast:
		if e.Yes {
			return n.by("event.all_vote_yes", e.Actor)
		}
		return n.by("event.all_vote_no", e.Actor)
	case engine.EvAllVoteClosed:
		yes := e.Set.Seats()
		n.data["Count"], n.data["Seats"] = len(yes), p.Seats(yes)
		switch {
		case len(yes) == 0:
			return n.say("event.all_vote_closed_none")
		case e.Yes:
			return p.Plural("event.all_vote_closed_pass", len(yes), n.data)
		}
		return p.Plural("event.all_vote_closed_fail", len(yes), n.data)
	case engine.EvNobodyLeaves:
		return n.say("event.nobody_leaves")
	case engine.EvFouled:
		return p.Plural(n.id("event.fouled", e.Target), int(e.Count), n.data)
	case engine.EvGameEnded:
		return p.gameEnded(e, viewer)
	case engine.EvStatement:
		if e.Verb.IsStatement() {
			return n.statement(e)
		}
	}
	n.data["Kind"] = e.Kind.String()
	return n.say("event.unknown")
}

// narration renders one event's sentences.
type narration struct {
	p      *Printer
	viewer engine.Seat
	data   map[string]any
}

func (n *narration) you(s engine.Seat) bool { return n.viewer != 0 && s == n.viewer }

// id returns base, or base_you when s is the viewer.
func (n *narration) id(base string, s engine.Seat) string {
	if n.you(s) {
		return base + "_you"
	}
	return base
}

func (n *narration) say(id string) string { return n.p.T(id, n.data) }

// by renders base in the second person when s (the actor, or the one the
// event is about) is the viewer.
func (n *narration) by(base string, s engine.Seat) string { return n.say(n.id(base, s)) }

func (n *narration) playerOut(e engine.Event) string {
	line := n.by("event.out_"+e.Cause.String(), e.Target)
	if n.you(e.Target) {
		return line
	}
	switch {
	case e.Role != engine.RoleNone:
		n.data["Role"] = n.p.Role(e.Role)
		line += " " + n.say("event.revealed_role")
	case e.Team != engine.TeamNone:
		n.data["Team"] = n.p.Team(e.Team)
		line += " " + n.say("event.revealed_team")
	}
	return line
}

// statement gives a statement as its speaker's words: "Seat 3 says: “I
// checked seat 5: mafia.”" (a statement, not a fact: the sentence says who
// said it).
func (n *narration) statement(e engine.Event) string {
	switch e.Verb {
	case engine.Claim:
		n.data["Role"] = n.p.Role(e.Role)
	case engine.Report:
		n.data["Answer"] = n.p.Result(e.Result)
	case engine.BestMove:
		n.data["Seats"] = n.p.Seats(e.Set.Seats())
	}
	return n.by("event.statement_"+e.Verb.String(), e.Actor)
}

func (n *narration) voteBegan(e engine.Event) string {
	base := "event.vote_began"
	if e.Phase == engine.PhaseRevote {
		base = "event.revote_began"
	}
	list := e.List()
	if len(list) == 1 {
		n.data["Seat"] = int(list[0])
		return n.say(base + "_one")
	}
	n.data["Seats"] = n.p.Seats(list)
	return n.say(base)
}

// voteClosed shows how the vote went: each candidate's votes and voters,
// the most votes first.
func (n *narration) voteClosed(e engine.Event) string {
	voters := map[engine.Seat][]engine.Seat{}
	for v := 1; v <= engine.MaxSeats; v++ {
		if c := e.CountedFor(engine.Seat(v)); c != 0 {
			voters[c] = append(voters[c], engine.Seat(v))
		}
	}
	cands := make([]engine.Seat, 0, len(voters))
	for c := range voters {
		cands = append(cands, c)
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := len(voters[cands[i]]), len(voters[cands[j]])
		return a > b || (a == b && cands[i] < cands[j])
	})
	head := "event.vote_closed"
	if e.Phase == engine.PhaseRevote {
		head = "event.revote_closed"
	}
	lines := []string{n.say(head)}
	for _, c := range cands {
		vs := voters[c]
		lines = append(lines, "  "+n.p.Plural("event.tally", len(vs), map[string]any{
			"Seat": int(c), "Count": len(vs), "Voters": numbers(vs),
		}))
	}
	return strings.Join(lines, "\n")
}

// gameStarted tells the table's size and, to a seat, its card and (to the
// mafia) the teammates the event shows. The host's copy holds every card.
func (p *Printer) gameStarted(e engine.Event, viewer engine.Seat) string {
	count := int(e.Count)
	lines := []string{p.Plural("event.game_started", count, map[string]any{"Count": count})}
	if viewer != 0 && int(viewer) <= count && e.RoleOf(viewer) != 0 {
		lines = append(lines, p.T("event.your_card", map[string]any{
			"Seat": int(viewer), "Role": p.Role(e.RoleOf(viewer)),
		}))
		var team []string
		for s := 1; s <= count; s++ {
			if engine.Seat(s) != viewer && e.RoleOf(engine.Seat(s)) != 0 {
				team = append(team, p.T("event.team_member", map[string]any{
					"Seat": s, "Role": p.Role(e.RoleOf(engine.Seat(s))),
				}))
			}
		}
		if len(team) > 0 {
			lines = append(lines, p.T("event.your_team", map[string]any{"Team": p.And(team)}))
		}
		return strings.Join(lines, "\n")
	}
	if viewer == 0 {
		lines = append(lines, p.cards(e, 0, count)...)
	}
	return strings.Join(lines, "\n")
}

// gameEnded announces the result and every card.
func (p *Printer) gameEnded(e engine.Event, viewer engine.Seat) string {
	lines := []string{p.T("event.game_ended", nil), p.Winner(e.Winner)}
	if e.Cause == engine.CauseRoundLimit {
		lines = append(lines, p.T("event.game_ended_round_limit", map[string]any{"Round": int(e.Round)}))
	}
	n := 0
	for s := 1; s <= engine.MaxSeats; s++ {
		if e.RoleOf(engine.Seat(s)) != 0 {
			n = s
		}
	}
	lines = append(lines, p.cards(e, viewer, n)...)
	return strings.Join(lines, "\n")
}

// cards lists the cards an event holds, one line a seat, under a heading.
func (p *Printer) cards(e engine.Event, viewer engine.Seat, n int) []string {
	var lines []string
	for s := 1; s <= n; s++ {
		if e.RoleOf(engine.Seat(s)) == 0 {
			continue
		}
		id := "event.card"
		if engine.Seat(s) == viewer {
			id = "event.card_you"
		}
		lines = append(lines, "  "+p.T(id, map[string]any{"Seat": s, "Role": p.Role(e.RoleOf(engine.Seat(s)))}))
	}
	if len(lines) == 0 {
		return nil
	}
	return append([]string{p.T("event.cards", nil)}, lines...)
}
