package assist_test

import (
	"net/http"
	"testing"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestRewrite_AVoteCorrectionIsReadByTheProtocol: day 1's vote had 2 and 5
// for seat 3, the rest for 4 (4 left). The referee proposes the day's vote
// for 3 with the voters 2, 5, 6, 7 (a voter twice, or voters with no day,
// are refused bad_fix); the host's phone replaces 3's hands (record.DayVote,
// record.Amend) and rewrites the server's entries from there: the protocol
// counts 4 hands for 3, 3 is out by the vote and 4 is not, the stored
// events are the corrected game's, and the correction is applied.
func TestRewrite_AVoteCorrectionIsReadByTheProtocol(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	base := ts.URL + "/host/api/games/" + c.ID
	old := hosttest.VoteDayEntries(t, &c.Settings, []int{2, 5}, "id")
	if code, a := hosttest.SyncUp(t, ts, c, old...); code != http.StatusOK || a.Applied != len(old) {
		t.Fatalf("sync the game: %d %+v", code, a)
	}
	var inv struct{ Code string }
	var joined struct{ Key string }
	hosttest.Call(t, "POST", base+"/cohosts", c.HostToken, map[string]any{"name": "Referee Keti"}, &inv)
	if code := hosttest.Call(t, "POST", base+"/cohosts/join", "", map[string]any{"code": inv.Code}, &joined); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	for _, bad := range []map[string]any{
		{"id": "b1", "kind": assist.FixVote, "round": 1, "seat": 3, "count": 2, "voters": []int{2, 2}},
		{"id": "b2", "kind": assist.FixVote, "seat": 3, "count": 2, "voters": []int{2, 5}},
		{"id": "b3", "kind": assist.FixVote, "round": 1, "seat": 3, "count": 3, "voters": []int{2, 5}},
		{"id": "b4", "kind": assist.FixNight, "round": 1, "seat": 3, "text": "x"},
	} {
		var e refusal
		if code := hosttest.Call(t, "POST", base+"/fixes", joined.Key, bad, &e); code != http.StatusBadRequest || e.Error.Code != "bad_fix" || e.Error.Message == "" {
			t.Errorf("%v: %d %+v, want bad_fix", bad, code, e)
		}
	}
	var fix struct{ Fix assist.Fix }
	if code := hosttest.Call(t, "POST", base+"/fixes", joined.Key,
		map[string]any{"id": "f1", "kind": assist.FixVote, "round": 1, "seat": 3, "count": 4, "voters": []int{2, 5, 6, 7}}, &fix); code != http.StatusOK ||
		fix.Fix.Round != 1 || len(fix.Fix.Voters) != 4 {
		t.Fatalf("propose the vote: %d %+v", code, fix)
	}

	at, found, last, err := record.DayVote(&c.Settings, old, 1, 3)
	if err != nil || !found {
		t.Fatalf("3's hands: %d %v %v", at, found, err)
	}
	with := record.VoteCommands(3, fix.Fix.Voters, last)
	for i := range with {
		with[i].ID = "fix-" + string(rune('a'+i))
	}
	a, err := record.Amend(&c.Settings, old, record.Amendment{At: at, With: with})
	if err != nil || len(a.Dropped) != 0 {
		t.Fatalf("amend: %v, dropped %v (%v)", err, a.Dropped, a.Refusal)
	}
	var sa hosttest.SyncAnswer
	if code := hosttest.Call(t, "POST", base+"/sync", c.HostToken, map[string]any{"commands": a.Commands[at:],
		"rewrite": map[string]any{"from": at, "was": old[at].ID, "fixes": []int{fix.Fix.Seq}}}, &sa); code != http.StatusOK || sa.Error != nil {
		t.Fatalf("the host's rewrite: %d %+v", code, sa.Error)
	}
	var l live
	hosttest.Call(t, "GET", base+"/live", joined.Key, nil, &l)
	if len(l.Commands) != len(a.Commands) || l.Commands[at].ID != "fix-a" || l.Fixes[0].State != assist.FixApplied || l.Fixes[0].Entry != at+1 {
		t.Fatalf("the referee reads %d entries, at %d %+v, correction %+v", len(l.Commands), at, l.Commands[at], l.Fixes[0])
	}
	var p protocolOf
	ts.GetJSON(t, "/host/api/games/"+c.ID+"/protocol.json", c.HostToken, &p)
	if len(p.Rounds) == 0 || p.Rounds[0].Day == nil || len(p.Rounds[0].Day.Votes) == 0 {
		t.Fatalf("the protocol has no day-1 vote: %+v", p.Rounds)
	}
	if tl := p.Rounds[0].Day.Votes[0].Tally; len(tl) != 2 || tl[0].Candidate != 3 || tl[0].Votes != 4 || tl[1].Votes != 2 {
		t.Fatalf("the protocol's tally: %+v, want 4 for 3 and 2 for 4 (3 and 4 themselves)", tl)
	}
	if p.Seats[2].Out == nil || p.Seats[2].Out.Cause != "vote" || p.Seats[3].Out != nil {
		t.Fatalf("seat 3 out %+v, seat 4 out %+v: want 3 voted out, 4 in", p.Seats[2].Out, p.Seats[3].Out)
	}
	evs := hosttest.StoredEvents(t, ts, c.ID)
	if _, log, err := record.Replay(&c.Settings, a.Commands); err != nil || len(evs) != len(log) {
		t.Fatalf("the stored events are %d, the corrected game's %d (%v)", len(evs), len(log), err)
	}
}
