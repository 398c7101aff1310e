package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"mafia/account"
	"mafia/client"
	"mafia/wire"
)

// accountsServer is a real server whose joins know accounts, and the
// accounts' handler on the same store beside it.
type accountsServer struct {
	*testServer
	svc  *account.Service
	acct *httptest.Server
}

func startAccountsServer(t *testing.T) *accountsServer {
	t.Helper()
	var svc *account.Service
	ts := startServerWith(t, "", func(c *Config) {
		svc = account.New(account.Config{Store: c.Store,
			Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
		c.Accounts = svc
	})
	acct := httptest.NewServer(account.NewHandler(account.HandlerConfig{Service: svc}))
	t.Cleanup(acct.Close)
	return &accountsServer{testServer: ts, svc: svc, acct: acct}
}

// signup makes an account and returns its login's token.
func (as *accountsServer) signup(t *testing.T, name string) string {
	t.Helper()
	_, tok, err := as.svc.Signup(context.Background(), name, "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// profile reads a player's page as the holder of bearer ("": nobody).
func (as *accountsServer) profile(t *testing.T, name, bearer string) account.ProfileJSON {
	t.Helper()
	req, _ := http.NewRequest("GET", as.acct.URL+"/api/players/"+name, nil)
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var p account.ProfileJSON
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&p) != nil {
		t.Fatalf("profile of %s: %d", name, resp.StatusCode)
	}
	return p
}

// playTable seats a guest host, then each of creds (an account's login or
// bot token) by its bearer token, fills the table with the server's bots,
// plays it to the end and returns the table and the seats' tokens.
func (as *accountsServer) playTable(t *testing.T, ctx context.Context, public bool, creds ...string) (string, []client.Joined) {
	t.Helper()
	created, err := as.api.Create(ctx, client.CreateRequest{Name: "accounts", Players: 7, Public: public, TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	host, err := as.api.Join(ctx, created.Table, "host", 0, created.HostToken)
	if err != nil {
		t.Fatal(err)
	}
	joined := []client.Joined{host}
	for _, c := range creds {
		j, err := as.api.Join(ctx, created.Table, "ignored", 0, c)
		if err != nil {
			t.Fatalf("join with %s…: %v", c[:4], err)
		}
		joined = append(joined, j)
	}
	conns := make([]*client.Conn, len(joined))
	for i, j := range joined {
		if conns[i], err = as.api.Dial(ctx, created.Table, j.Token, 0); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []string{"add_bots", "start"} {
		if _, err := conns[0].Send(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(conns))
	for i, c := range conns {
		wg.Add(1)
		go func() { defer wg.Done(); _, errs[i] = playRandomly(ctx, c, uint64(i+1)) }()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("seat %d: %v", joined[i].Seat, err)
		}
		conns[i].Close()
	}
	return created.Table, joined
}

// waitEnded waits until the store says the table is over (the room writes
// it before anyone sees the end, so it already is).
func (as *accountsServer) ended(t *testing.T, ctx context.Context, table string) {
	t.Helper()
	for ctx.Err() == nil {
		if l, err := as.api.Table(ctx, table); err == nil && l.Status == "ended" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the table never ended")
}

// TestSeats_AnAccountAndABotAccountAreShownAsSuch: a logged-in player
// sits as their account (its name, whatever the join asked) and a bot
// account's token as that bot, its seat marked a bot account's; the
// finished game is on both their pages.
func TestSeats_AnAccountAndABotAccountAreShownAsSuch(t *testing.T) {
	as := startAccountsServer(t)
	ctx := within(t, 60*time.Second)
	nino := as.signup(t, "Nino")
	owner, _ := as.svc.Authenticate(ctx, nino)
	_, robo, err := as.svc.CreateBot(ctx, owner, "Robo")
	if err != nil {
		t.Fatal(err)
	}
	table, joined := as.playTable(t, ctx, true, nino, robo)
	as.ended(t, ctx, table)
	l, err := as.api.Table(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]wire.SeatInfo{}
	for _, s := range l.Seats {
		byName[s.Name] = s
	}
	if s := byName["Nino"]; s.Seat != joined[1].Seat || !s.Account || s.BotAccount || s.Bot {
		t.Errorf("Nino's seat: %+v, want an account's", s)
	}
	if s := byName["Robo"]; s.Seat != joined[2].Seat || !s.Account || !s.BotAccount || s.Bot {
		t.Errorf("Robo's seat: %+v, want a bot account's", s)
	}
	if s := byName["host"]; s.Account || s.BotAccount {
		t.Errorf("the guest's seat: %+v", s)
	}
	raw, _ := json.Marshal(l)
	if !strings.Contains(string(raw), `"name":"Robo","taken":true,"connected":`) || !strings.Contains(string(raw), `"account":true,"bot_account":true`) {
		t.Errorf("the lobby's JSON: %s", raw)
	}
	for _, name := range []string{"nino", "ROBO"} {
		p := as.profile(t, name, "")
		if p.Games != 1 || len(p.Recent) != 1 || p.Recent[0].Table != table || p.Recent[0].Role == "" || p.Recent[0].Players != 7 {
			t.Errorf("%s's page: %+v", name, p)
		}
		side := p.Recent[0].Side
		if p.BySide[side].Games != 1 || p.ByRole[p.Recent[0].Role].Games != 1 || (p.Wins == 1) != p.Recent[0].Won {
			t.Errorf("%s's tallies: %+v", name, p)
		}
	}
	if os.Getenv("MAFIA_PRINT_FRAMES") != "" { // the frames docs/protocol.md shows
		b, _ := json.Marshal(as.profile(t, "nino", ""))
		t.Logf("GET /api/players/nino → %s\nlobby seats → %s", b, raw)
	}
	if p := as.profile(t, "robo", ""); !p.Bot || p.Owner != "Nino" {
		t.Errorf("the bot's page: %+v", p)
	}
	// One account, one seat at a table.
	created, _ := as.api.Create(ctx, client.CreateRequest{Name: "again", Players: 7})
	// A logged-in program hosts: its login as the bearer, the host token
	// as the table's cookie.
	req, _ := http.NewRequest("POST", as.http.URL+"/api/tables/"+created.Table+"/join", strings.NewReader(`{"name":"x"}`))
	req.Header.Set("Authorization", "Bearer "+nino)
	req.Header.Set("Cookie", "mafia_"+created.Table+"="+created.HostToken)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("the logged-in host's join: %v %v", res, err)
	} else {
		var j client.Joined
		_ = json.NewDecoder(res.Body).Decode(&j)
		res.Body.Close()
		if j.Token != created.HostToken {
			t.Errorf("the logged-in host's seat token is not the host token")
		}
	}
	if l, _ := as.api.Table(ctx, created.Table); !l.Seats[0].Account || l.Seats[0].Name != "Nino" {
		t.Errorf("the logged-in host's seat: %+v", l.Seats[0])
	}
	created, _ = as.api.Create(ctx, client.CreateRequest{Name: "again", Players: 7})
	if _, err := as.api.Join(ctx, created.Table, "x", 0, nino); err != nil {
		t.Fatal(err)
	}
	var ce *client.Error
	if _, err := as.api.Join(ctx, created.Table, "x", 0, nino); !asErr(err, &ce) || ce.Code != "already_seated" {
		t.Errorf("the account's second seat: %v, want already_seated", err)
	}
	// An ended login is refused, not seated as a guest.
	if err := as.svc.LogoutAll(ctx, owner); err != nil {
		t.Fatal(err)
	}
	if _, err := as.api.Join(ctx, created.Table, "x", 0, nino); !asErr(err, &ce) || ce.Code != "not_logged_in" {
		t.Errorf("join with an ended login: %v, want not_logged_in", err)
	}
}

func asErr(err error, target **client.Error) bool {
	e, ok := err.(*client.Error)
	if ok {
		*target = e
	}
	return ok
}

// TestProfile_AnotherPlayersPrivateGamesAreNotListed: a private table's
// game is on its player's page for them and for another who sat there,
// and for nobody else (it counts in the tallies for all).
func TestProfile_AnotherPlayersPrivateGamesAreNotListed(t *testing.T) {
	as := startAccountsServer(t)
	ctx := within(t, 60*time.Second)
	nino, gela, dato := as.signup(t, "Nino"), as.signup(t, "Gela"), as.signup(t, "Dato")
	table, _ := as.playTable(t, ctx, false, nino, gela)
	as.ended(t, ctx, table)
	for who, tok := range map[string]string{"Nino": nino, "Gela": gela} {
		if p := as.profile(t, "Nino", tok); len(p.Recent) != 1 || p.Recent[0].Table != table {
			t.Errorf("Nino's page as seen by %s: %+v, want the private game", who, p.Recent)
		}
	}
	for who, tok := range map[string]string{"Dato": dato, "nobody": ""} {
		p := as.profile(t, "Nino", tok)
		if len(p.Recent) != 0 || p.Games != 1 {
			t.Errorf("Nino's page as seen by %s: %+v, want no game listed and one counted", who, p)
		}
		body, _ := json.Marshal(p)
		if strings.Contains(string(body), table) {
			t.Errorf("the private table's id on the page %s sees: %s", who, body)
		}
	}
}

// TestKeep_AGuestsGameIsKeptOnSignUp: a guest who signs up from the
// game-over screen with their seat's token has the game on their page; the
// same seat cannot be kept twice, nor a game that is not over.
func TestKeep_AGuestsGameIsKeptOnSignUp(t *testing.T) {
	as := startAccountsServer(t)
	ctx := within(t, 60*time.Second)
	table, joined := as.playTable(t, ctx, true)
	as.ended(t, ctx, table)
	post := func(path, body string) (int, string) {
		resp, err := http.Post(as.acct.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(data)
	}
	code, body := post("/api/account/signup", fmt.Sprintf(`{"name":"Keeper","password":"password1","bearer":true,"keep":{"table":%q,"token":%q}}`,
		table, joined[0].Token))
	if code != 200 || !strings.Contains(body, `"kept":true`) {
		t.Fatalf("signup keeping the game: %d %s", code, body)
	}
	if p := as.profile(t, "keeper", ""); p.Games != 1 || len(p.Recent) != 1 || p.Recent[0].Seat != joined[0].Seat {
		t.Errorf("the page after keeping: %+v", p)
	}
	code, body = post("/api/account/signup", fmt.Sprintf(`{"name":"Thief","password":"password1","bearer":true,"keep":{"table":%q,"token":%q}}`,
		table, joined[0].Token))
	if code != 200 || strings.Contains(body, `"kept"`) {
		t.Errorf("a second account keeping the same seat: %d %s, want the account made and the seat not kept", code, body)
	}
	if p := as.profile(t, "thief", ""); p.Games != 0 {
		t.Errorf("the second account's page: %+v", p)
	}
}
