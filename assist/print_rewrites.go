package assist

import (
	"strconv"
	"strings"

	"mafia/locale"
)

// The printed protocol's rewrites: each time the host's phone replayed the
// game with a referee's correction in place (cohost_rewrite.go), a line
// saying from which entry, whose correction and what it said, and how many
// later entries no longer fit. The same sentences as the phones' list of
// corrections (assist.cohost.*, fixSentence), so the paper reads as the
// phones did.

// RewriteView is one rewrite as protocol.json gives it: from which entry
// (from 1), the corrections it applied, and how many later entries it
// dropped.
type RewriteView struct {
	Entry   int   `json:"entry"`
	Fixes   []Fix `json:"fixes,omitempty"`
	Dropped int   `json:"dropped,omitempty"`
}

// rewriteViews pairs each rewrite with the corrections it applied.
func rewriteViews(rws []Rewrite, fixes []Fix) []RewriteView {
	out := []RewriteView{}
	for _, rw := range rws {
		v := RewriteView{Entry: rw.From + 1, Dropped: rw.Dropped}
		for _, seq := range rw.Fixes {
			if seq >= 0 && seq < len(fixes) {
				v.Fixes = append(v.Fixes, fixes[seq])
			}
		}
		out = append(out, v)
	}
	return out
}

// printRewrites narrates the rewrites for the printed protocol.
func printRewrites(p *locale.Printer, views []RewriteView, who func(int) string) []string {
	var out []string
	for _, v := range views {
		var line string
		if len(v.Fixes) == 0 {
			line = p.T("assist.rewrite.plain", map[string]any{"N": v.Entry})
		} else {
			what := make([]string, 0, len(v.Fixes))
			for _, f := range v.Fixes {
				what = append(what, fixSentence(p, f, who))
			}
			line = p.T("assist.rewrite.line", map[string]any{"N": v.Entry, "What": strings.Join(what, "; ")})
		}
		if v.Dropped > 0 {
			line += "; " + p.Plural("assist.rewrite.dropped", v.Dropped, map[string]any{"Count": v.Dropped})
		}
		out = append(out, line)
	}
	return out
}

// fixSentence is a correction as the phones list it (cohost.js's fixLine).
func fixSentence(p *locale.Printer, f Fix, who func(int) string) string {
	key := f.Kind
	switch {
	case (f.Kind == FixShot || f.Kind == FixCheck || f.Kind == FixSave) && f.Seat == 0:
		key += map[string]string{FixShot: "_miss", FixCheck: "_none", FixSave: "_none"}[f.Kind]
	case f.Kind == FixVote && f.Vote == VoteRevote:
		key = "vote_revote"
	case f.Kind == FixVote && f.Vote == VoteAll:
		key = "vote_all"
	case f.Kind == FixVote && f.Round > 0:
		key = "vote_day"
	}
	seat := ""
	if f.Seat > 0 {
		seat = who(f.Seat)
	}
	voters := make([]string, len(f.Voters))
	for i, v := range f.Voters {
		voters[i] = strconv.Itoa(v)
	}
	return p.T("assist.cohost."+key, map[string]any{"By": f.By, "Who": seat, "Count": f.Count, "Text": f.Text,
		"Round": f.Round, "Voters": strings.Join(voters, ", ")})
}
