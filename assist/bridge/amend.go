package bridge

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"mafia/assist/record"
	"mafia/engine"
)

// AmendRequest is a co-host's correction the page applies by rewriting the
// entries: Kind "shot", the mafia's shot on night Round at Seat (0: a
// miss); Kind "vote", the hands raised for the candidate Seat in day
// Round's vote (Vote: "" the first, "revote" the tie's repeat vote,
// "all_vote" "shall all of them leave?", whose yes are Voters and Seat 0)
// were Voters' (the host's tapped seats; a hand the entries gave to a later
// candidate moves); Kind "foul_remove", Seat's last foul is taken back;
// Kind "check", "don_check", "save": the Detective's check, the Don's
// check, the Doctor's save on night Round was of Seat (0: none; not for
// the Don).
type AmendRequest struct {
	Kind   string `json:"kind"`
	Round  int    `json:"round"`
	Seat   int    `json:"seat"`
	Voters []int  `json:"voters,omitempty"`
	Vote   string `json:"vote,omitempty"`
}

// AmendReply is Amend's answer: the whole new list of entries (the
// correction's own entries without ids: the page gives them), the first
// place that changed, how many later entries were kept, and the ones that
// no longer fit, each narrated (Dropped), with why the first does not
// (Reason); or the refusal.
type AmendReply struct {
	Error    *Refusal         `json:"error,omitempty"`
	From     int              `json:"from"`
	Commands []record.Command `json:"commands"`
	Kept     int              `json:"kept"`
	Dropped  []string         `json:"dropped"`
	Reason   string           `json:"reason,omitempty"`
}

// Amend works out a correction of an earlier entry on the page's game
// (record.Amend) without applying it: the page shows the answer, and on
// the host's yes starts the game again from the new list (Start).
func (b *Bridge) Amend(req string) string {
	if b.game == nil {
		return b.refuse(&engine.Error{Code: engine.CodeWrongPhase})
	}
	var r AmendRequest
	if err := json.Unmarshal([]byte(req), &r); err != nil || !r.valid(len(b.settings.Names)) {
		return b.refuse(&engine.Error{Code: "bad_fix", Name: "kind"})
	}
	fix, reached, err := b.amendment(r)
	if err != nil {
		return b.refuse(err)
	}
	if !reached {
		return encode(AmendReply{Error: &Refusal{Code: string(record.CodeNoSuchEntry), Message: b.p.T(notReached[r.Kind], nil)}})
	}
	if fix.At < 0 {
		return encode(AmendReply{Error: &Refusal{Code: string(record.CodeFixDoesNotFit), Message: b.p.T("assist.error.fix_does_not_fit", nil)}})
	}
	if fix.Insert && len(fix.With) == 0 {
		// No hands were entered and none are: nothing to correct; the
		// replay keeps every entry.
		return encode(AmendReply{From: fix.At, Commands: b.cmds, Kept: len(b.cmds) - fix.At, Dropped: []string{}})
	}
	with := fix.With
	a, err := record.Amend(b.settings, b.cmds, fix)
	var fit *record.FitError
	if errors.As(err, &fit) {
		return encode(AmendReply{Error: &Refusal{Code: string(record.CodeFixDoesNotFit),
			Message: b.p.T("assist.amend.does_not_fit", map[string]any{"Reason": b.why(fit.Err)})}})
	}
	if err != nil {
		return b.refuse(err)
	}
	for i := range a.Commands[a.From : a.From+len(with)] {
		a.Commands[a.From+i].ID = "" // the page's ids (a rebuilt vote's kept entries too: a new place is a new entry)
	}
	out := AmendReply{From: a.From, Commands: a.Commands, Kept: a.Kept, Dropped: []string{}}
	caused := b.caused()
	for _, c := range a.Dropped {
		var lines []string
		for _, e := range caused[c.ID] {
			if l := b.p.Event(e, engine.Host); l != "" {
				lines = append(lines, l)
			}
		}
		line := strings.Join(lines, " ")
		if line == "" {
			line = b.p.T("assist.amend.verb", map[string]any{"Verb": c.Verb, "By": seatOrNot(c.By), "Target": seatOrNot(c.Target)})
		}
		out.Dropped = append(out.Dropped, b.p.T("assist.amend.entry", map[string]any{"N": c.Seq + 1, "Line": line}))
	}
	if a.Refusal != nil {
		out.Reason = b.why(a.Refusal)
	}
	return encode(out)
}

// amendment works out the amendment a request asks for on the page's
// entries; reached is false when the game has not finished the night or
// the vote it names (or a foul to take back has none); an At of -1 is a
// shot no mafioso can make.
func (b *Bridge) amendment(r AmendRequest) (fix record.Amendment, reached bool, err error) {
	switch r.Kind {
	case "shot":
		at, found, err := record.NightShot(b.settings, b.cmds, r.Round)
		if err != nil || at < 0 {
			return fix, false, err
		}
		g, _, err := record.Replay(b.settings, b.cmds[:at])
		if err != nil {
			return fix, false, errors.Unwrap(err)
		}
		fix = record.Amendment{At: at, Insert: !found}
		for _, c := range record.MafiaCommands(g, engine.Seat(r.Seat)) {
			fix.With = append(fix.With, record.FromEngine(c))
		}
		if len(fix.With) == 0 {
			fix.At = -1
		}
		return fix, true, nil
	case "vote":
		v, err := record.FindVote(b.settings, b.cmds, r.Round, votePhase[r.Vote])
		if err != nil || v == nil {
			return fix, false, err
		}
		fix, err = record.VoteFix(v, r.Round, r.Seat, r.Voters)
		return fix, err == nil, err
	case "foul_remove":
		at := record.LastFoul(b.cmds, r.Seat)
		return record.Amendment{At: at}, at >= 0, nil
	}
	return record.NightMove(b.settings, b.cmds, r.Round, nightCard[r.Kind], r.Seat)
}

// votePhase is the engine's phase of the vote a request names.
var votePhase = map[string]engine.Phase{"": engine.PhaseVote, "revote": engine.PhaseRevote, "all_vote": engine.PhaseAllVote}

// nightCard is the card whose night move a request corrects, by kind.
var nightCard = map[string]engine.Role{"check": engine.Detective, "don_check": engine.Don, "save": engine.Doctor}

// notReached is the message for a correction of a night or a vote the
// game has not finished yet, by kind.
var notReached = map[string]string{"shot": "assist.amend.not_reached", "vote": "assist.amend.not_reached_vote", "foul_remove": "assist.amend.no_foul",
	"check": "assist.amend.not_reached", "don_check": "assist.amend.not_reached", "save": "assist.amend.not_reached"}

// valid says the request is one of the kinds, for a game of n seats: a
// round from 1, a seat (a vote's candidate from 1; a shot's 0 is a miss),
// and for a vote at most n voters, each a seat once.
func (r AmendRequest) valid(n int) bool {
	if r.Kind == "foul_remove" {
		return r.Round == 0 && r.Seat > 0 && r.Seat <= n && len(r.Voters) == 0
	}
	if r.Round < 1 || r.Round > 255 || r.Seat < 0 || r.Seat > n {
		return false
	}
	if _, ok := votePhase[r.Vote]; !ok || r.Vote != "" && r.Kind != "vote" {
		return false
	}
	switch r.Kind {
	case "shot", "check", "save":
		return len(r.Voters) == 0
	case "don_check":
		return len(r.Voters) == 0 && r.Seat > 0
	case "vote":
		seen := map[int]bool{}
		for _, v := range r.Voters {
			if v < 1 || v > n || seen[v] {
				return false
			}
			seen[v] = true
		}
		return (r.Seat > 0) == (r.Vote != "all_vote") && len(r.Voters) <= n
	}
	return false
}

// why says why an entry does not fit where a correction puts it, in the
// host's words where the catalog has them ("Seat 4 is out of the game by
// then.", assist.amend.why), else the engine's sentence.
func (b *Bridge) why(err error) string {
	var e *engine.Error
	if errors.As(err, &e) {
		if id := "assist.amend.why." + string(e.Code); b.p.Has(id) {
			return b.p.T(id, e.Params())
		}
	}
	return b.refusal(err).Message
}

// seatOrNot spells a seat of an entry ("" for none).
func seatOrNot(s int) string {
	if s == 0 {
		return ""
	}
	return strconv.Itoa(s)
}

// caused replays the page's entries in force and returns the events each
// caused, by the entry's id.
func (b *Bridge) caused() map[string][]engine.Event {
	out := map[string][]engine.Event{}
	g, _, err := record.Start(b.settings)
	if err != nil {
		return out
	}
	for _, i := range record.InForce(b.cmds) {
		c := b.cmds[i]
		ec, err := c.Engine()
		if err != nil {
			return out
		}
		evs, err := g.Handle(ec)
		if err != nil {
			return out
		}
		out[c.ID] = append([]engine.Event(nil), evs...)
	}
	return out
}
