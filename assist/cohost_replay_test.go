package assist_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"mafia/assist"
	"mafia/assist/bridge"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// hostAmends works out a correction on the host's phone's engine (the
// bridge the page runs in WASM) over cmds, gives the correction's entries
// ids as the page does, and syncs the rewrite: the new list.
func hostAmends(t *testing.T, ts *hosttest.Server, c hosttest.Created, cmds []record.Command, req map[string]any, fix int, tag string) []record.Command {
	t.Helper()
	b := bridge.New()
	settings, _ := json.Marshal(c.Settings)
	list, _ := json.Marshal(cmds)
	b.Start(string(settings), string(list))
	body, _ := json.Marshal(req)
	var a bridge.AmendReply
	if err := json.Unmarshal([]byte(b.Amend(string(body))), &a); err != nil || a.Error != nil {
		t.Fatalf("%s: %v %+v", body, err, a.Error)
	}
	for i := range a.Commands {
		if a.Commands[i].ID == "" {
			a.Commands[i].ID = fmt.Sprintf("%s-%d", tag, i)
		}
	}
	var sa hosttest.SyncAnswer
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games/"+c.ID+"/sync", c.HostToken, map[string]any{"commands": a.Commands[a.From:],
		"rewrite": map[string]any{"from": a.From, "was": cmds[a.From].ID, "fixes": []int{fix}, "dropped": len(a.Dropped)}}, &sa); code != http.StatusOK || sa.Error != nil {
		t.Fatalf("the host's rewrite of %s: %d %+v", body, code, sa.Error)
	}
	return a.Commands
}

// TestRewrite_ARepeatVoteAndADoctorsSaveAreReadByTheProtocolAndThePrintout:
// day 1's first vote tied 3-3 and in the repeat vote 2 and 5 raised their
// hands for 3, the rest went to 4 (4 left); on night 1 the Doctor's save
// was entered for 3. The referee proposes the repeat vote's hands for 3 as
// 2, 5, 6 and 7, and the Doctor's save of seat 1 (the Don's victim); the
// ill-formed ones are refused bad_fix naming the field. The host's phone
// works out each (the bridge) and rewrites the server's entries. Then the
// protocol has nobody shot dead on night 1 and the Doctor's save of 1, the
// repeat vote's tally 4 for 3, the two rewrites with the referee's
// corrections, and the printed protocol says each in English and Georgian.
func TestRewrite_ARepeatVoteAndADoctorsSaveAreReadByTheProtocolAndThePrintout(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	base := ts.URL + "/host/api/games/" + c.ID
	old := hosttest.TieDay(t, &c.Settings, "id", 3, map[int][]int{3: {2, 5, 6}, 4: {3, 4, 7}}, map[int][]int{3: {2, 5}, 4: {3, 4, 6, 7}}, nil)
	if code, a := hosttest.SyncUp(t, ts, c, old...); code != http.StatusOK || a.Applied != len(old) {
		t.Fatalf("sync the game: %d %+v", code, a)
	}
	var inv struct{ Code string }
	var joined struct{ Key string }
	hosttest.Call(t, "POST", base+"/cohosts", c.HostToken, map[string]any{"name": "Referee Keti"}, &inv)
	if code := hosttest.Call(t, "POST", base+"/cohosts/join", "", map[string]any{"code": inv.Code}, &joined); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	for _, bad := range []struct {
		fix  map[string]any
		name string
	}{
		{map[string]any{"id": "b1", "kind": assist.FixVote, "vote": "third", "round": 1, "seat": 3, "count": 1, "voters": []int{2}}, "vote"},
		{map[string]any{"id": "b2", "kind": assist.FixVote, "vote": assist.VoteAll, "round": 1, "seat": 3, "count": 1, "voters": []int{2}}, "seat"},
		{map[string]any{"id": "b3", "kind": assist.FixVote, "vote": assist.VoteRevote, "seat": 3}, "round"},
		{map[string]any{"id": "b4", "kind": assist.FixDonCheck, "round": 1}, "seat"},
		{map[string]any{"id": "b5", "kind": assist.FixSave, "seat": 1}, "round"},
		{map[string]any{"id": "b6", "kind": assist.FixCheck, "round": 1, "seat": 3, "count": 1}, "count"},
		{map[string]any{"id": "b7", "kind": assist.FixNight, "vote": assist.VoteRevote, "text": "x"}, "vote"},
	} {
		var e refusal
		if code := hosttest.Call(t, "POST", base+"/fixes", joined.Key, bad.fix, &e); code != http.StatusBadRequest || e.Error.Code != "bad_fix" || e.Error.Message == "" {
			t.Errorf("%v: %d %+v, want bad_fix", bad.fix, code, e)
		}
	}
	var revote, save struct{ Fix assist.Fix }
	if code := hosttest.Call(t, "POST", base+"/fixes", joined.Key, map[string]any{"id": "f1", "kind": assist.FixVote, "vote": assist.VoteRevote,
		"round": 1, "seat": 3, "count": 4, "voters": []int{2, 5, 6, 7}}, &revote); code != http.StatusOK || revote.Fix.Vote != assist.VoteRevote {
		t.Fatalf("propose the repeat vote: %d %+v", code, revote)
	}
	if code := hosttest.Call(t, "POST", base+"/fixes", joined.Key, map[string]any{"id": "f2", "kind": assist.FixSave, "round": 1, "seat": 1}, &save); code != http.StatusOK {
		t.Fatalf("propose the save: %d %+v", code, save)
	}

	cmds := hostAmends(t, ts, c, old, map[string]any{"kind": "vote", "vote": "revote", "round": 1, "seat": 3, "voters": []int{2, 5, 6, 7}}, revote.Fix.Seq, "rv")
	type withRewrites struct {
		protocolOf
		Rewrites []assist.RewriteView `json:"rewrites"`
	}
	var p withRewrites
	ts.GetJSON(t, "/host/api/games/"+c.ID+"/protocol.json", c.HostToken, &p)
	if v := p.Rounds[0].Day.Votes; len(v) != 2 || v[0].Tally[0].Votes != 3 || v[1].Tally[0].Candidate != 3 || v[1].Tally[0].Votes != 4 {
		t.Fatalf("the protocol's votes: %+v, want the first vote as it was and 4 for 3 in the repeat", v)
	}
	if p.Seats[2].Out == nil || p.Seats[2].Out.Cause != "vote" || p.Seats[3].Out != nil {
		t.Fatalf("seat 3 out %+v, seat 4 out %+v: want 3 voted out, 4 in", p.Seats[2].Out, p.Seats[3].Out)
	}

	hostAmends(t, ts, c, cmds, map[string]any{"kind": "save", "round": 1, "seat": 1}, save.Fix.Seq, "sv")
	p = withRewrites{} // a fresh read: decoding over the last would keep its fields
	ts.GetJSON(t, "/host/api/games/"+c.ID+"/protocol.json", c.HostToken, &p)
	n := p.Rounds[0].Night
	if n == nil || n.Heal == nil || n.Heal.Target != 1 || len(n.Killed) != 0 || p.Seats[0].Out != nil {
		t.Fatalf("night 1: %+v, seat 1 out %+v: want the Doctor's save of 1 and nobody dead", n, p.Seats[0].Out)
	}
	if len(p.Rewrites) != 2 || len(p.Rewrites[0].Fixes) != 1 || p.Rewrites[0].Fixes[0].Vote != assist.VoteRevote ||
		p.Rewrites[1].Fixes[0].Kind != assist.FixSave || p.Rewrites[1].Entry != 3 {
		t.Fatalf("the protocol's rewrites: %+v", p.Rewrites)
	}
	var l live
	hosttest.Call(t, "GET", base+"/live", joined.Key, nil, &l)
	if l.Fixes[revote.Fix.Seq].State != assist.FixApplied || l.Fixes[save.Fix.Seq].State != assist.FixApplied {
		t.Fatalf("the referee reads the corrections %+v", l.Fixes)
	}
	for lang, want := range map[string][]string{
		"en": {"From entry", "Referee Keti: day 1, repeat vote, votes for 3", ": 4 (2, 5, 6, 7)", "Referee Keti: on night 1 the Doctor saved 1", "; 8 later entries no longer fit"},
		"ka": {"ჩანაწერი", "Referee Keti: დღე 1, განმეორებითი ხმის მიცემა", "ექიმმა გადაარჩინა"},
		"ru": {"С записи", "переголосование, голоса за", "доктор лечил"},
	} {
		req, _ := http.NewRequest("GET", ts.URL+"/host/games/"+c.ID+"?lang="+lang, nil)
		req.Header.Set("Authorization", "Bearer "+c.HostToken)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		sec := string(page)
		if i := strings.Index(sec, `data-t="rewrites"`); i >= 0 {
			sec = sec[i:]
		} else {
			t.Fatalf("%s: the printed protocol has no rewrites", lang)
		}
		for _, w := range want {
			if !strings.Contains(sec, w) {
				t.Errorf("%s: the printed rewrites lack %q:\n%.1500s", lang, w, sec)
			}
		}
	}
}
