package assist_test

import (
	"net/http"
	"strings"
	"testing"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestCohost_AnInvitationNamingAnAccountJoinsFromItsLogin: the host
// invites a tournament's referee by their account's name (any case; the
// person's name defaults to the account's); logged in, the referee finds
// the game among their invitations and joins without the code, getting a
// key that follows the game; joining again (another phone) stops the
// first key; another account, no login, and an unknown account
// are refused with their codes; once revoked, the invitation is listed no
// more and the login joins no more; the store keeps no key in the clear.
func TestCohost_AnInvitationNamingAnAccountJoinsFromItsLogin(t *testing.T) {
	t.Parallel()
	ms := hosttest.StartMembersServer(t)
	keti := ms.Signup(t, "Keti")
	other := ms.Signup(t, "Levan")
	c := hosttest.Create7(t, ms.Server, record.DealManual)
	base := ms.URL + "/host/api/games/" + c.ID
	var e refusal
	refused := func(what, method, url, tok string, body any, status int, code string) {
		t.Helper()
		e = refusal{}
		if got := hosttest.Call(t, method, url, tok, body, &e); got != status || e.Error.Code != code || e.Error.Message == "" {
			t.Errorf("%s: %d %+v, want %d %s", what, got, e, status, code)
		}
	}
	refused("an unknown account", "POST", base+"/cohosts", c.HostToken, map[string]any{"account": "Nobody"}, http.StatusBadRequest, "cohost_no_account")
	if !strings.Contains(e.Error.Message, "Nobody") {
		t.Errorf("the refusal does not name the account: %q", e.Error.Message)
	}
	var inv struct {
		Code, Name string
		ID         int
		Cohosts    []struct{ Account string }
	}
	if code := hosttest.Call(t, "POST", base+"/cohosts", c.HostToken, map[string]any{"account": "keti"}, &inv); code != http.StatusOK || inv.Name != "Keti" || len(inv.Cohosts) != 1 || inv.Cohosts[0].Account != "Keti" {
		t.Fatalf("invite by account: %d %+v", code, inv)
	}
	type invitations struct{ Invitations []assist.Invitation }
	var l invitations
	if code := hosttest.Call(t, "GET", ms.URL+"/host/api/invitations", keti, nil, &l); code != http.StatusOK || len(l.Invitations) != 1 || l.Invitations[0].Game != c.ID || l.Invitations[0].As != "Keti" || l.Invitations[0].Joined {
		t.Fatalf("Keti's invitations: %d %+v", code, l)
	}
	for who, tok := range map[string]string{"another account": other, "nobody logged in": ""} {
		if code := hosttest.Call(t, "GET", ms.URL+"/host/api/invitations", tok, nil, &l); code != http.StatusOK || len(l.Invitations) != 0 {
			t.Errorf("%s is shown invitations: %d %+v", who, code, l)
		}
	}
	refused("another account joins", "POST", base+"/cohosts/account", other, map[string]any{}, http.StatusForbidden, "not_cohost")
	refused("nobody logged in joins", "POST", base+"/cohosts/account", "", map[string]any{}, http.StatusForbidden, "not_cohost")

	var first, second struct{ Key, Name string }
	if code := hosttest.Call(t, "POST", base+"/cohosts/account", keti, map[string]any{}, &first); code != http.StatusOK || first.Key == "" || first.Name != "Keti" {
		t.Fatalf("Keti joins: %d %+v", code, first)
	}
	if code := hosttest.Call(t, "GET", base+"/live", first.Key, nil, nil); code != http.StatusOK {
		t.Fatalf("Keti follows: %d", code)
	}
	refused("the code after the login joined", "POST", base+"/cohosts/join", "", map[string]any{"code": inv.Code}, http.StatusGone, "invite_used")
	if code := hosttest.Call(t, "POST", base+"/cohosts/account", keti, map[string]any{}, &second); code != http.StatusOK {
		t.Fatalf("Keti joins on another phone: %d", code)
	}
	refused("the first phone's key", "GET", base+"/live", first.Key, nil, http.StatusForbidden, "not_cohost")
	if code := hosttest.Call(t, "GET", ms.URL+"/host/api/invitations", keti, nil, &l); code != http.StatusOK || len(l.Invitations) != 1 || !l.Invitations[0].Joined {
		t.Fatalf("Keti's invitation, joined: %d %+v", code, l)
	}

	if code := hosttest.Call(t, "DELETE", base+"/cohosts/1", c.HostToken, nil, nil); code != http.StatusOK {
		t.Fatalf("revoke: %d", code)
	}
	refused("the revoked login joins", "POST", base+"/cohosts/account", keti, map[string]any{}, http.StatusForbidden, "not_cohost")
	refused("the revoked key", "GET", base+"/live", second.Key, nil, http.StatusForbidden, "not_cohost")
	if code := hosttest.Call(t, "GET", ms.URL+"/host/api/invitations", keti, nil, &l); code != http.StatusOK || len(l.Invitations) != 0 {
		t.Fatalf("a revoked invitation is listed: %d %+v", code, l)
	}
	row := ms.StoredTable(t, c.ID)
	if strings.Contains(row, first.Key) || strings.Contains(row, second.Key) || strings.Contains(row, inv.Code) {
		t.Fatal("the store keeps a code or a key in the clear")
	}
}
