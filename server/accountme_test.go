package server

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// TestMe_CarriesTheAccountsGameCount (issue 28's leftover): GET
// /api/account/me carries the account's games as its page counts them, so
// that the first games' hints need no request for the player's page: 0
// for a new account (present, not absent), then one after a game, equal to
// GET /api/players/{name}'s games.
func TestMe_CarriesTheAccountsGameCount(t *testing.T) {
	as := startAccountsServer(t)
	ctx := within(t, 60*time.Second)
	nino, gela := as.signup(t, "Nino"), as.signup(t, "Gela")
	me := func(tok string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest("GET", as.acct.URL+"/api/account/me", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			Account map[string]any `json:"account"`
		}
		if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&out) != nil || out.Account == nil {
			t.Fatalf("me: %d %+v", resp.StatusCode, out)
		}
		return out.Account
	}
	if g, ok := me(nino)["games"]; !ok || g != float64(0) {
		t.Errorf("a new account's me says games %v (given: %v), want 0", g, ok)
	}
	table, _ := as.playTable(t, ctx, false, nino)
	as.ended(t, ctx, table)
	for name, tok := range map[string]string{"Nino": nino, "Gela": gela} {
		want := as.profile(t, name, tok).Games
		if g := me(tok)["games"]; g != float64(want) {
			t.Errorf("%s's me says games %v, their page %d", name, g, want)
		}
	}
	if g := me(nino)["games"]; g != float64(1) {
		t.Errorf("after one game Nino's me says games %v, want 1", g)
	}
}
