package assist_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
)

// refusal is a coded refusal's body.
type refusal struct {
	Error struct{ Code, Message string }
}

// live is GET /host/api/games/{id}/live's answer.
type live struct {
	Settings record.Settings
	Commands []record.Command
	Fixes    []assist.Fix
	Cohosts  []struct {
		Name   string
		Joined bool
	}
	You string
}

// TestCohost_TheInvitedFollowAndCorrectAStrangerIsRefused: the host
// invites a referee by a one-time code; the referee's phone joins with it
// (a second use is refused, invite_used) and follows the game (the
// settings with the cards and every entry the host's phone synced); a
// foul the referee proposes takes one place however often it is sent, the
// host's phone reads it, enters the foul and marks it applied, once; a
// stranger's key, the referee resolving or syncing, and a malformed
// correction are refused with their codes, and the store keeps no code or
// key in the clear.
func TestCohost_TheInvitedFollowAndCorrectAStrangerIsRefused(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	base := ts.URL + "/host/api/games/" + c.ID
	var inv struct{ Code, Name string }
	if code := hosttest.Call(t, "POST", base+"/cohosts", c.HostToken, map[string]any{"name": "Nino"}, &inv); code != http.StatusOK || inv.Code == "" {
		t.Fatalf("invite: %d %+v", code, inv)
	}
	var e refusal
	if code := hosttest.Call(t, "POST", base+"/cohosts", "not-the-token", map[string]any{"name": "Eve"}, &e); code != http.StatusForbidden {
		t.Fatalf("a stranger invites: %d %+v", code, e)
	}
	if code := hosttest.Call(t, "POST", base+"/cohosts/join", "", map[string]any{"code": "0123456789abcdef"}, &e); code != http.StatusForbidden || e.Error.Code != "not_cohost" || e.Error.Message == "" {
		t.Fatalf("a made-up code joins: %d %+v", code, e)
	}
	var joined struct{ Key, Name string }
	if code := hosttest.Call(t, "POST", base+"/cohosts/join", "", map[string]any{"code": inv.Code}, &joined); code != http.StatusOK || joined.Key == "" || joined.Name != "Nino" {
		t.Fatalf("join: %d %+v", code, joined)
	}
	if code := hosttest.Call(t, "POST", base+"/cohosts/join", "", map[string]any{"code": inv.Code}, &e); code != http.StatusGone || e.Error.Code != "invite_used" {
		t.Fatalf("the code used twice: %d %+v", code, e)
	}
	if code := hosttest.Call(t, "GET", base+"/live", "", nil, &e); code != http.StatusForbidden || e.Error.Code != "not_cohost" {
		t.Fatalf("a stranger follows: %d %+v", code, e)
	}
	if code := hosttest.Call(t, "GET", base+"/live", inv.Code, nil, &e); code != http.StatusForbidden || e.Error.Code != "not_cohost" {
		t.Fatalf("the spent code follows: %d %+v", code, e)
	}

	// The host's phone enters the night and a foul; the referee sees both.
	if code, a := hosttest.SyncUp(t, ts, c, hosttest.Entries(0, hosttest.Kill7, hosttest.Next)...); code != http.StatusOK {
		t.Fatalf("sync: %d %+v", code, a)
	}
	var l live
	if code := hosttest.Call(t, "GET", base+"/live", joined.Key, nil, &l); code != http.StatusOK || len(l.Commands) != 2 || l.You != "Nino" ||
		strings.Join(l.Settings.Roles, ",") != strings.Join(hosttest.Roles7, ",") || len(l.Cohosts) != 1 || !l.Cohosts[0].Joined {
		t.Fatalf("the referee follows: %d %+v", code, l)
	}

	// The referee proposes a foul for seat 3, twice (a lost answer): one place.
	foul := map[string]any{"id": "fix-1", "kind": assist.FixFoulAdd, "seat": 3}
	var got struct{ Fix assist.Fix }
	for range 2 {
		if code := hosttest.Call(t, "POST", base+"/fixes", joined.Key, foul, &got); code != http.StatusOK || got.Fix.Seq != 0 || got.Fix.By != "Nino" || got.Fix.State != assist.FixProposed {
			t.Fatalf("propose: %d %+v", code, got)
		}
	}
	for _, bad := range []struct {
		name, code string
		status     int
		token      string
		body       map[string]any
	}{
		{"a seat beyond the table", "bad_fix", http.StatusBadRequest, joined.Key, map[string]any{"id": "x", "kind": assist.FixFoulAdd, "seat": 8}},
		{"an unknown kind", "bad_fix", http.StatusBadRequest, joined.Key, map[string]any{"id": "x", "kind": "kill", "seat": 3}},
		{"a night correction with no text", "bad_fix", http.StatusBadRequest, joined.Key, map[string]any{"id": "x", "kind": assist.FixNight}},
		{"a stranger", "not_cohost", http.StatusForbidden, "feedfacefeedface", foul},
		{"the host (who enters instead)", "not_cohost", http.StatusForbidden, c.HostToken, foul},
	} {
		if code := hosttest.Call(t, "POST", base+"/fixes", bad.token, bad.body, &e); code != bad.status || e.Error.Code != bad.code || e.Error.Message == "" {
			t.Errorf("%s: %d %+v, want %d %s", bad.name, code, e, bad.status, bad.code)
		}
	}
	if code := hosttest.Call(t, "GET", base+"/live", c.HostToken, nil, &l); code != http.StatusOK || len(l.Fixes) != 1 || l.Fixes[0].Seat != 3 || l.You != "" {
		t.Fatalf("the host reads the corrections: %d %+v", code, l.Fixes)
	}

	// The host's phone enters the foul and marks the correction applied.
	if code, a := hosttest.SyncUp(t, ts, c, hosttest.Entries(2, engine.Command{Verb: engine.Foul, Target: 3})...); code != http.StatusOK {
		t.Fatalf("sync the foul: %d %+v", code, a)
	}
	if code := hosttest.Call(t, "PUT", base+"/fixes/0", joined.Key, map[string]any{"state": "applied", "entry": 3}, &e); code != http.StatusForbidden {
		t.Fatalf("the referee resolves: %d %+v", code, e)
	}
	if code, a := hosttest.SyncUp(t, ts, hosttest.Created{ID: c.ID, HostToken: joined.Key}, hosttest.Entries(3, hosttest.Next)...); code != http.StatusForbidden {
		t.Fatalf("the referee enters: %d %+v", code, a)
	}
	for range 2 {
		if code := hosttest.Call(t, "PUT", base+"/fixes/0", c.HostToken, map[string]any{"state": "applied", "entry": 3}, &got); code != http.StatusOK || got.Fix.State != assist.FixApplied || got.Fix.Entry != 3 {
			t.Fatalf("apply: %d %+v", code, got)
		}
	}
	if code := hosttest.Call(t, "PUT", base+"/fixes/0", c.HostToken, map[string]any{"state": "declined"}, &e); code != http.StatusConflict || e.Error.Code != "fix_resolved" {
		t.Fatalf("declined after applied: %d %+v", code, e)
	}
	if code := hosttest.Call(t, "PUT", base+"/fixes/1", c.HostToken, map[string]any{"state": "declined"}, &e); code != http.StatusNotFound || e.Error.Code != "fix_not_found" {
		t.Fatalf("no such correction: %d %+v", code, e)
	}
	if code := hosttest.Call(t, "GET", base+"/live", joined.Key, nil, &l); code != http.StatusOK || len(l.Commands) != 3 || len(l.Fixes) != 1 || l.Fixes[0].State != assist.FixApplied {
		t.Fatalf("the referee sees the foul applied: %d %+v %+v", code, l.Commands, l.Fixes)
	}
	row := ts.StoredTable(t, c.ID)
	if strings.Contains(row, inv.Code) || strings.Contains(row, joined.Key) {
		t.Fatal("the store keeps the one-time code or the key in the clear")
	}
}

// TestCohost_LimitsPerGame: a game takes MaxCohosts co-hosts and refuses
// the next with cohosts_full; a nameless invitation is refused with
// bad_fix and invites nobody.
func TestCohost_LimitsPerGame(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	base := ts.URL + "/host/api/games/" + c.ID
	var e refusal
	if code := hosttest.Call(t, "POST", base+"/cohosts", c.HostToken, map[string]any{"name": "  "}, &e); code != http.StatusBadRequest || e.Error.Code != "bad_fix" {
		t.Fatalf("a nameless invitation: %d %+v", code, e)
	}
	for i := range assist.MaxCohosts {
		if code := hosttest.Call(t, "POST", base+"/cohosts", c.HostToken, map[string]any{"name": "R" + string(rune('1'+i))}, nil); code != http.StatusOK {
			t.Fatalf("invitation %d: %d", i+1, code)
		}
	}
	if code := hosttest.Call(t, "POST", base+"/cohosts", c.HostToken, map[string]any{"name": "One more"}, &e); code != http.StatusTooManyRequests || e.Error.Code != "cohosts_full" || !strings.Contains(e.Error.Message, "4") {
		t.Fatalf("one invitation too many: %d %+v", code, e)
	}
	var l live
	if code := hosttest.Call(t, "GET", base+"/live", c.HostToken, nil, &l); code != http.StatusOK || len(l.Cohosts) != assist.MaxCohosts {
		t.Fatalf("the co-hosts: %d %+v", code, l.Cohosts)
	}
}

// TestCohost_TheHostRevokesAndGivesANewCode: the host lists the co-hosts
// (who, invited and joined when); a revoked co-host's key is refused
// not_cohost at once, for reading and for proposing, and so is the code
// they had; a new code for the same person (their phone lost) stops the
// old key and joins one new phone; an invitation not in the list is
// cohost_not_found; only the host manages them; a revoked one frees its
// place (four at once) and is invited again only if there is room; the
// store keeps none of the codes or keys in the clear.
func TestCohost_TheHostRevokesAndGivesANewCode(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	base := ts.URL + "/host/api/games/" + c.ID
	type invited struct {
		Code, Name string
		ID         int
	}
	var inv invited
	if code := hosttest.Call(t, "POST", base+"/cohosts", c.HostToken, map[string]any{"name": "Nino"}, &inv); code != http.StatusOK || inv.ID != 1 {
		t.Fatalf("invite: %d %+v", code, inv)
	}
	var joined struct{ Key string }
	if code := hosttest.Call(t, "POST", base+"/cohosts/join", "", map[string]any{"code": inv.Code}, &joined); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	var l struct {
		Cohosts []struct {
			ID       int
			Name     string
			Added    time.Time
			Joined   bool
			JoinedAt *time.Time `json:"joined_at"`
			Revoked  *time.Time
		}
	}
	if code := hosttest.Call(t, "GET", base+"/live", c.HostToken, nil, &l); code != http.StatusOK || len(l.Cohosts) != 1 ||
		l.Cohosts[0].ID != 1 || l.Cohosts[0].Name != "Nino" || l.Cohosts[0].Added.IsZero() || !l.Cohosts[0].Joined || l.Cohosts[0].JoinedAt == nil || l.Cohosts[0].Revoked != nil {
		t.Fatalf("the host's list: %d %+v", code, l.Cohosts)
	}
	var e refusal
	refused := func(what, method, url, tok string, body any, status int, code string) {
		t.Helper()
		e = refusal{}
		if got := hosttest.Call(t, method, url, tok, body, &e); got != status || e.Error.Code != code || e.Error.Message == "" {
			t.Errorf("%s: %d %+v, want %d %s", what, got, e, status, code)
		}
	}
	foul := map[string]any{"id": "f", "kind": assist.FixFoulAdd, "seat": 2}

	// Only the host revokes; then the key stops at once, and so does the code.
	refused("the referee revokes", "DELETE", base+"/cohosts/1", joined.Key, nil, http.StatusForbidden, "bad_token")
	refused("a stranger revokes", "DELETE", base+"/cohosts/1", "", nil, http.StatusForbidden, "bad_token")
	refused("no such invitation", "DELETE", base+"/cohosts/9", c.HostToken, nil, http.StatusNotFound, "cohost_not_found")
	refused("an invitation not a number", "POST", base+"/cohosts/x/code", c.HostToken, map[string]any{}, http.StatusNotFound, "cohost_not_found")
	for range 2 {
		if code := hosttest.Call(t, "DELETE", base+"/cohosts/1", c.HostToken, nil, &l); code != http.StatusOK || l.Cohosts[0].Revoked == nil {
			t.Fatalf("revoke: %d %+v", code, l.Cohosts)
		}
	}
	refused("the revoked key reads", "GET", base+"/live", joined.Key, nil, http.StatusForbidden, "not_cohost")
	refused("the revoked key proposes", "POST", base+"/fixes", joined.Key, foul, http.StatusForbidden, "not_cohost")
	refused("the revoked code joins", "POST", base+"/cohosts/join", "", map[string]any{"code": inv.Code}, http.StatusForbidden, "not_cohost")

	// A new code invites the same person again: one phone joins with it.
	var again invited
	if code := hosttest.Call(t, "POST", base+"/cohosts/1/code", c.HostToken, map[string]any{}, &again); code != http.StatusOK || again.ID != 1 || again.Name != "Nino" || again.Code == "" || again.Code == inv.Code {
		t.Fatalf("a new code: %d %+v", code, again)
	}
	var second struct{ Key string }
	if code := hosttest.Call(t, "POST", base+"/cohosts/join", "", map[string]any{"code": again.Code}, &second); code != http.StatusOK {
		t.Fatalf("join with the new code: %d", code)
	}
	refused("the new code twice", "POST", base+"/cohosts/join", "", map[string]any{"code": again.Code}, http.StatusGone, "invite_used")
	refused("the first key after the new code", "GET", base+"/live", joined.Key, nil, http.StatusForbidden, "not_cohost")
	if code := hosttest.Call(t, "GET", base+"/live", second.Key, nil, nil); code != http.StatusOK {
		t.Fatalf("the new phone reads: %d", code)
	}

	// The phone is lost: a new code stops its key, and joins another.
	var third invited
	if code := hosttest.Call(t, "POST", base+"/cohosts/1/code", c.HostToken, map[string]any{}, &third); code != http.StatusOK {
		t.Fatalf("another new code: %d", code)
	}
	refused("the lost phone's key", "GET", base+"/live", second.Key, nil, http.StatusForbidden, "not_cohost")
	var fourth struct{ Key string }
	if code := hosttest.Call(t, "POST", base+"/cohosts/join", "", map[string]any{"code": third.Code}, &fourth); code != http.StatusOK {
		t.Fatalf("join on another phone: %d", code)
	}
	if code := hosttest.Call(t, "POST", base+"/fixes", fourth.Key, foul, nil); code != http.StatusOK {
		t.Fatalf("the other phone proposes: %d", code)
	}

	// Four at once: a revoked one frees its place, and is invited again only with room.
	for _, n := range []string{"R2", "R3", "R4"} {
		if code := hosttest.Call(t, "POST", base+"/cohosts", c.HostToken, map[string]any{"name": n}, nil); code != http.StatusOK {
			t.Fatalf("invite %s: %d", n, code)
		}
	}
	refused("a fifth at once", "POST", base+"/cohosts", c.HostToken, map[string]any{"name": "R5"}, http.StatusTooManyRequests, "cohosts_full")
	if code := hosttest.Call(t, "DELETE", base+"/cohosts/2", c.HostToken, nil, nil); code != http.StatusOK {
		t.Fatalf("revoke R2: %d", code)
	}
	if code := hosttest.Call(t, "POST", base+"/cohosts", c.HostToken, map[string]any{"name": "R5"}, &inv); code != http.StatusOK || inv.ID != 5 {
		t.Fatalf("R5 in R2's place: %d %+v", code, inv)
	}
	refused("R2 again with no room", "POST", base+"/cohosts/2/code", c.HostToken, map[string]any{}, http.StatusTooManyRequests, "cohosts_full")
	row := ts.StoredTable(t, c.ID)
	for _, s := range []string{again.Code, second.Key, third.Code, fourth.Key, inv.Code} {
		if strings.Contains(row, s) {
			t.Fatal("the store keeps a code or a key in the clear")
		}
	}
}
