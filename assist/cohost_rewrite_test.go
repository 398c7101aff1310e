package assist_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
	"mafia/store"
)

// clubEntries are the entries of hosttest.PlayClubGame's game (roles7:
// foul 7 out on day 1, vote out 2, then 4: the town wins) with the Don's
// night-1 shot at victim, each id prefixed with tag.
func clubEntries(t *testing.T, s *record.Settings, victim int, tag string) []record.Command {
	t.Helper()
	g, _, err := record.Start(s)
	if err != nil {
		t.Fatal(err)
	}
	var out []record.Command
	killed, fouled := false, false
	for step := 0; !g.Ended() && step < 300; step++ {
		st := record.Snapshot(g)
		cmd := engine.Command{Verb: engine.Next}
		switch {
		case st.Phase == "night" && !killed:
			killed = true
			cmd = engine.Command{Verb: engine.Kill, By: 2, Target: engine.Seat(victim)}
		case st.Phase == "speech" && !fouled && slices.Contains(st.Alive, 7):
			cmd = engine.Command{Verb: engine.Foul, Target: 7}
			fouled = st.Fouls[7] == 3
		case st.Phase == "speech" && !st.Nominated && slices.Contains(st.Nominate, 2):
			cmd = engine.Command{Verb: engine.Nominate, By: engine.Seat(st.Speaker), Target: 2}
		case st.Phase == "speech" && !st.Nominated && slices.Contains(st.Nominate, 4):
			cmd = engine.Command{Verb: engine.Nominate, By: engine.Seat(st.Speaker), Target: 4}
		}
		if _, err := g.Handle(cmd); err != nil {
			t.Fatalf("%+v: %v", cmd, err)
		}
		rc := record.FromEngine(cmd)
		rc.Seq, rc.ID = len(out), fmt.Sprintf("%s-%d", tag, len(out))
		out = append(out, rc)
	}
	if w := record.Snapshot(g).Winner; w != "town" {
		t.Fatalf("the game ended with %q; want the town's win", w)
	}
	return out
}

// protocolOf reads game id's protocol with its score as the host.
type protocolOf struct {
	record.Protocol
	Score *struct {
		Lines []struct {
			FirstKilled bool `json:"first_killed"`
		} `json:"lines"`
	} `json:"score"`
}

// TestRewrite_OnlyTheHostRewritesAndTheGameReadsTheCorrection: a club
// game played to the town's win (the Don shot seat 1 on night 1); the
// referee proposes that the shot was at seat 3. A sync that rewrites the
// entries from the first one is refused from the referee's key
// (cohost_not_host) and a stranger's (bad_token), and from the host's when
// it names another entry than the server holds (diverged) or when the
// engine refuses the list (nothing changes each time); the host's rewrite is
// taken, once (a repeat changes nothing): the stored entries and events,
// the protocol (seat 3 out on night 1, seat 1 not) and the score (seat 3 the
// first killed) read the corrected game, the correction is applied by the
// referee's name and the record keeps the rewrite with it.
func TestRewrite_OnlyTheHostRewritesAndTheGameReadsTheCorrection(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	base := ts.URL + "/host/api/games/" + c.ID
	old := clubEntries(t, &c.Settings, 1, "id")
	if code, a := hosttest.SyncUp(t, ts, c, old...); code != http.StatusOK || !a.Ended || a.Applied != len(old) {
		t.Fatalf("sync the game: %d %+v", code, a)
	}
	var inv struct{ Code string }
	var joined struct{ Key string }
	hosttest.Call(t, "POST", base+"/cohosts", c.HostToken, map[string]any{"name": "Referee Keti"}, &inv)
	if code := hosttest.Call(t, "POST", base+"/cohosts/join", "", map[string]any{"code": inv.Code}, &joined); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	var fix struct{ Fix assist.Fix }
	if code := hosttest.Call(t, "POST", base+"/fixes", joined.Key, map[string]any{"id": "f1", "kind": assist.FixShot, "round": 1, "seat": 3}, &fix); code != http.StatusOK || fix.Fix.Round != 1 {
		t.Fatalf("propose the shot: %d %+v", code, fix)
	}
	var e refusal
	if code := hosttest.Call(t, "POST", base+"/fixes", joined.Key, map[string]any{"id": "f2", "kind": assist.FixShot, "seat": 3}, &e); code != http.StatusBadRequest || e.Error.Code != "bad_fix" {
		t.Fatalf("a shot with no night: %d %+v", code, e)
	}

	amended, err := record.Amend(&c.Settings, old, record.Amendment{At: 0, With: []record.Command{{ID: "fix-0", Verb: "kill", By: 2, Target: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	// The phone goes on from where the kept entries stand: here the same
	// game's entries with the shot at 3, as a host would enter them.
	fixed := clubEntries(t, &c.Settings, 3, "fix")
	if len(amended.Commands) == 0 || amended.Commands[0].Target != 3 {
		t.Fatalf("amended: %+v", amended.Commands[:1])
	}
	rewrite := func(token string, was string, cmds []record.Command) (int, refusal, hosttest.SyncAnswer) {
		var a hosttest.SyncAnswer
		code := hosttest.Call(t, "POST", base+"/sync", token, map[string]any{"commands": cmds,
			"rewrite": map[string]any{"from": 0, "was": was, "fixes": []int{0}}}, &a)
		r := refusal{}
		if a.Error != nil {
			r.Error.Code, r.Error.Message = a.Error.Code, a.Error.Message
		}
		return code, r, a
	}
	stored := len(hosttest.StoredEvents(t, ts, c.ID))
	for _, bad := range []struct {
		name, token, was, code string
		status                 int
		cmds                   []record.Command
	}{
		{"the referee's key", joined.Key, "id-0", "cohost_not_host", http.StatusForbidden, fixed},
		{"a stranger", "feedfacefeedface", "id-0", "bad_token", http.StatusForbidden, fixed},
		{"another entry than the server's", c.HostToken, "id-9", "diverged", http.StatusConflict, fixed},
		{"a list the engine refuses", c.HostToken, "id-0", "not_your_turn", 0, append([]record.Command{{ID: "bad", Seq: 0, Verb: "kill", By: 1, Target: 3}}, fixed[1:]...)},
	} {
		code, r, _ := rewrite(bad.token, bad.was, bad.cmds)
		if code == http.StatusOK || bad.status != 0 && code != bad.status || bad.status != 0 && r.Error.Code != bad.code || r.Error.Message == "" {
			t.Errorf("%s: %d %+v, want %d %s", bad.name, code, r, bad.status, bad.code)
		}
		if n := len(hosttest.StoredEvents(t, ts, c.ID)); n != stored {
			t.Errorf("%s changed the stored events: %d, %d before", bad.name, n, stored)
		}
	}
	var l live
	hosttest.Call(t, "GET", base+"/live", joined.Key, nil, &l)
	if l.Commands[0].Target != 1 || l.Fixes[0].State != assist.FixProposed {
		t.Fatalf("a refused rewrite changed the game: %+v %+v", l.Commands[0], l.Fixes[0])
	}

	for range 2 { // the second: its answer was lost
		if code, r, a := rewrite(c.HostToken, "id-0", fixed); code != http.StatusOK || a.Applied != len(fixed) || !a.Ended || a.Winner != "town" {
			t.Fatalf("the host's rewrite: %d %+v %+v", code, r, a)
		}
	}
	hosttest.Call(t, "GET", base+"/live", joined.Key, nil, &l)
	if len(l.Commands) != len(fixed) || l.Commands[0].ID != "fix-0" || l.Fixes[0].State != assist.FixApplied || l.Fixes[0].Entry != 1 || l.Fixes[0].By != "Referee Keti" {
		t.Fatalf("the referee reads %d entries, first %+v, correction %+v", len(l.Commands), l.Commands[0], l.Fixes[0])
	}
	var p protocolOf
	ts.GetJSON(t, "/host/api/games/"+c.ID+"/protocol.json", c.HostToken, &p)
	if len(p.Rounds) == 0 || p.Rounds[0].Night == nil || p.Rounds[0].Night.Victim != 3 || p.Seats[2].Out == nil || p.Seats[2].Out.Cause != "night" ||
		p.Seats[0].Out != nil && p.Seats[0].Out.Cause == "night" || p.Winner != "town" {
		t.Fatalf("the protocol: night 1 %+v, seat 1 %+v, seat 3 %+v, winner %s", p.Rounds[0].Night, p.Seats[0].Out, p.Seats[2].Out, p.Winner)
	}
	if p.Score == nil || len(p.Score.Lines) != 7 || !p.Score.Lines[2].FirstKilled || p.Score.Lines[0].FirstKilled {
		t.Fatalf("the score does not read the correction: %+v", p.Score)
	}
	evs := hosttest.StoredEvents(t, ts, c.ID)
	_, log, err := record.Replay(&c.Settings, fixed)
	if err != nil || len(evs) != len(log) {
		t.Fatalf("the stored events are %d, the corrected game's %d (%v)", len(evs), len(log), err)
	}
	var rec struct {
		InPerson struct{ Rewrites []assist.Rewrite } `json:"in_person"`
	}
	tbl, _, err := ts.DB.Table(context.Background(), store.KindInPerson, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(tbl.Data, &rec); err != nil {
		t.Fatal(err)
	}
	if rw := rec.InPerson.Rewrites; len(rw) != 1 || rw[0].From != 0 || len(rw[0].By) != 1 || rw[0].By[0] != "Referee Keti" {
		t.Fatalf("the record keeps the rewrites %+v", rw)
	}
}

// TestRewrite_AGameTakesMaxRewrites: the host's phone may rewrite a game's
// entries MaxRewrites times; the next rewrite is refused with
// rewrites_full (429) and changes nothing.
func TestRewrite_AGameTakesMaxRewrites(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	held := hosttest.Entries(0, hosttest.Kill7, hosttest.Next)
	if code, a := hosttest.SyncUp(t, ts, c, held...); code != http.StatusOK {
		t.Fatalf("sync: %d %+v", code, a)
	}
	for i := 0; i <= assist.MaxRewrites; i++ {
		target := []int{1, 3}[i%2]
		cmds := []record.Command{{ID: fmt.Sprintf("r%d-0", i), Seq: 0, Verb: "kill", By: 2, Target: target}, {ID: fmt.Sprintf("r%d-1", i), Seq: 1, Verb: "next"}}
		var a hosttest.SyncAnswer
		code := hosttest.Call(t, "POST", ts.URL+"/host/api/games/"+c.ID+"/sync", c.HostToken,
			map[string]any{"commands": cmds, "rewrite": map[string]any{"from": 0, "was": held[0].ID}}, &a)
		if i < assist.MaxRewrites {
			if code != http.StatusOK {
				t.Fatalf("rewrite %d: %d %+v", i+1, code, a.Error)
			}
			held = cmds
			continue
		}
		if code != http.StatusTooManyRequests || a.Error == nil || a.Error.Code != "rewrites_full" || a.Error.Message == "" {
			t.Fatalf("rewrite %d: %d %+v", i+1, code, a.Error)
		}
	}
	if got := ts.StoredEntries(t, c.ID); got[0].ID != held[0].ID {
		t.Fatalf("the refused rewrite changed the entries: %+v", got[0])
	}
}
