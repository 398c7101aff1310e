package server

// The policy of who may sit (package admission) at the doors of the
// server: a join, a seat's WebSocket and a login. (The fourth door, a
// seat's WebSocket relayed by another node, is relayed_test.go's.)

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"mafia/account"
	"mafia/admission"
	"mafia/client"
	"mafia/engine"
)

// barOne is a policy that refuses one account (as a person: the account
// itself and the bots it owns), at every door, once bar is set: a ban
// list of one. doors records the doors it refused at.
type barOne struct {
	bar     atomic.Bool
	account atomic.Int64
	doors   chan admission.Door
}

func (b *barOne) CanSit(_ context.Context, who admission.Who, at admission.Table) error {
	if b.bar.Load() && who.Account != 0 && (who.Account == b.account.Load() || who.Person() == b.account.Load()) {
		select {
		case b.doors <- at.Door:
		default:
		}
		return &engine.Error{Code: admission.CodeBarred}
	}
	return nil
}

// startPolicyServer is a real server whose joins know accounts, with pol
// its policy and its accounts' (logins), and the accounts' handler.
func startPolicyServer(t *testing.T, pol admission.Policy) (*testServer, *account.Service, *httptest.Server) {
	t.Helper()
	var svc *account.Service
	ts := startServerWith(t, "", func(c *Config) {
		svc = account.New(account.Config{Store: c.Store, Policy: pol,
			Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
		c.Accounts, c.Policy = svc, pol
	})
	acct := httptest.NewServer(account.NewHandler(account.HandlerConfig{Service: svc}))
	t.Cleanup(acct.Close)
	return ts, svc, acct
}

// TestCanSit_APolicyRefusingAnAccountRefusesItAtEveryDoor: one account
// barred by the server's policy is refused, coded barred (403), at a
// join, at its seat's WebSocket (the seat it took before the bar), and at
// a login; another account is let in at each.
func TestCanSit_APolicyRefusingAnAccountRefusesItAtEveryDoor(t *testing.T) {
	pol := &barOne{doors: make(chan admission.Door, 16)}
	ts, svc, acct := startPolicyServer(t, pol)
	ctx := within(t, 30*time.Second)
	_, nino, err := svc.Signup(ctx, "Nino", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	_, gio, err := svc.Signup(ctx, "Gio", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := svc.Authenticate(ctx, nino)
	pol.account.Store(p.Account.ID)

	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "policy", Players: 7, TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	before, err := ts.api.Join(ctx, created.Table, "x", 0, nino) // before the bar: a seat
	if err != nil {
		t.Fatal(err)
	}
	pol.bar.Store(true)

	barred := func(door string, err error) {
		t.Helper()
		var ce *client.Error
		if !errors.As(err, &ce) || ce.Code != string(admission.CodeBarred) {
			t.Fatalf("%s: %v, want the refusal %s", door, err, admission.CodeBarred)
		}
		if ce.Status != 0 && ce.Status != http.StatusForbidden {
			t.Fatalf("%s: status %d, want 403", door, ce.Status)
		}
		if ce.Message == "" {
			t.Fatalf("%s: the refusal has no sentence", door)
		}
	}
	// A join: Nino's second table refuses her.
	other, err := ts.api.Create(ctx, client.CreateRequest{Name: "other", Players: 7, TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ts.api.Join(ctx, other.Table, "x", 0, nino)
	barred("join", err)
	// A seat: the seat she took before the bar does not connect.
	_, err = ts.api.Dial(ctx, created.Table, before.Token, 0)
	barred("seat", err)
	// A login: her right password is refused.
	body, _ := json.Marshal(map[string]any{"name": "Nino", "password": "password1", "bearer": true})
	resp, err := http.Post(acct.URL+"/api/account/login", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var eb struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&eb)
	resp.Body.Close()
	barred("login", &client.Error{Status: resp.StatusCode, Code: eb.Error.Code, Message: eb.Error.Message})

	// Gio is let in at each door.
	j, err := ts.api.Join(ctx, other.Table, "x", 0, gio)
	if err != nil {
		t.Fatalf("Gio's join: %v", err)
	}
	c, err := ts.api.Dial(ctx, other.Table, j.Token, 0)
	if err != nil {
		t.Fatalf("Gio's seat: %v", err)
	}
	c.Close()
	if _, _, err := svc.LoginFrom(ctx, account.Attempt{Name: "Gio", Password: "password1"}); err != nil {
		t.Fatalf("Gio's login: %v", err)
	}
	close(pol.doors)
	var doors []admission.Door
	for d := range pol.doors {
		doors = append(doors, d)
	}
	want := []admission.Door{admission.DoorJoin, admission.DoorSeat, admission.DoorLogin}
	if len(doors) != len(want) {
		t.Fatalf("refused at %v, want %v", doors, want)
	}
	for i := range want {
		if doors[i] != want[i] {
			t.Fatalf("refused at %v, want %v", doors, want)
		}
	}
}
