package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"mafia/account"
	"mafia/internal/httpguard"
)

// TestSeatShare_AddressesSeenOutliveARestart (issue 25, item 8, across
// nodes): a second account's login takes a seat from the farmer's
// address; the server restarts (as a cluster's other node would have
// never seen it); the farmer sits at a new table from that address, and
// the second account's bot, joining from elsewhere, is the farmer's share:
// refused (seat_limit), since the store remembered where the second
// account was seen. Today's build forgot it with the restart and seated
// the bot.
func TestSeatShare_AddressesSeenOutliveARestart(t *testing.T) {
	ctx := context.Background()
	var svc *account.Service
	tune := func(c *Config) {
		svc = account.New(account.Config{Store: c.Store,
			Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
		c.Accounts = svc
		c.SeatsPerAddress = 1
		g, err := httpguard.New(httpguard.Config{TrustedProxies: loopback})
		if err != nil {
			t.Fatal(err)
		}
		c.Guard = g
	}
	ts := startServerWith(t, "", tune)
	const farm, elsewhere = "203.0.113.5", "198.51.100.77"
	_, farmer, err := svc.Signup(ctx, "Farmer", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	_, second, err := svc.Signup(ctx, "Farmhand", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Authenticate(ctx, second)
	if err != nil {
		t.Fatal(err)
	}
	_, bot, err := svc.CreateBot(ctx, p, "Hoe1")
	if err != nil {
		t.Fatal(err)
	}
	do := func(ts *testServer, method, path, from, cred, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, ts.http.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", from)
		if cred != "" {
			req.Header.Set("Authorization", "Bearer "+cred)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var out struct {
			Table string `json:"table"`
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		_ = json.Unmarshal(b, &out)
		if out.Table != "" && out.Error.Code == "" && method == "POST" && path == "/api/tables" {
			return resp.StatusCode, out.Table
		}
		return resp.StatusCode, out.Error.Code
	}
	table := func(ts *testServer, n int) string {
		t.Helper()
		st, id := do(ts, "POST", "/api/tables", fmt.Sprintf("192.0.2.%d", n), "", `{"name":"open","players":7,"public":true}`)
		if st != http.StatusCreated {
			t.Fatalf("create: %d %s", st, id)
		}
		return id
	}
	if st, code := do(ts, "POST", "/api/tables/"+table(ts, 1)+"/join", farm, second, `{"name":"x"}`); st != http.StatusOK {
		t.Fatalf("the second account's join from the farm: %d %s", st, code)
	}

	ts.close()
	ts = startServerWith(t, ts.path, tune)
	t1 := table(ts, 2)
	if st, code := do(ts, "POST", "/api/tables/"+t1+"/join", farm, farmer, `{"name":"x"}`); st != http.StatusOK {
		t.Fatalf("the farmer's join: %d %s", st, code)
	}
	if st, code := do(ts, "POST", "/api/tables/"+t1+"/join", elsewhere, bot, `{"name":"x"}`); code != "seat_limit" {
		t.Errorf("the second account's bot from elsewhere after a restart: %d %s, want seat_limit (the farm's share)", st, code)
	}
}
