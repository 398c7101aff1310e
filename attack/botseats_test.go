package attack

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"mafia/client"
)

// signupFrom makes an account from ip and returns its bearer credential.
func signupFrom(ctx context.Context, t *testing.T, base, ip, name string) string {
	t.Helper()
	a := ask(ctx, t, from(ip), "POST", base+"/api/account/signup", map[string]string{"Content-Type": "application/json"},
		fmt.Sprintf(`{"name":%q,"password":"a long enough password","bearer":true}`, name))
	var out struct {
		Token string `json:"token"`
	}
	if a.status != http.StatusOK || json.Unmarshal(a.body, &out) != nil || out.Token == "" {
		t.Fatalf("signup %s: %d %s %s", name, a.status, a.code, a.body)
	}
	return out.Token
}

// botsOf makes n bot accounts of the account whose credential is cred
// (named prefix1..prefixN) and returns their tokens.
func botsOf(ctx context.Context, t *testing.T, base, ip, cred, prefix string, n int) []string {
	t.Helper()
	var toks []string
	for i := 1; i <= n; i++ {
		a := ask(ctx, t, from(ip), "POST", base+"/api/account/bots",
			map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + cred},
			fmt.Sprintf(`{"name":"%s%d"}`, prefix, i))
		var out struct {
			Token string `json:"token"`
		}
		if a.status != http.StatusOK || json.Unmarshal(a.body, &out) != nil || out.Token == "" {
			t.Fatalf("bot %s%d: %d %s %s", prefix, i, a.status, a.code, a.body)
		}
		toks = append(toks, out.Token)
	}
	return toks
}

// joinAs asks for a seat from ip with a bearer credential (a login's or a
// bot account's) and returns the status and the refusal's code.
func joinAs(ctx context.Context, t *testing.T, base, ip, table, cred string) (int, string) {
	t.Helper()
	a := ask(ctx, t, from(ip), "POST", base+"/api/tables/"+table+"/join",
		map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + cred}, `{"name":"ignored"}`)
	return a.status, a.code
}

// TestAttack_BotSeats (issue 25, item 8): one person, logged in, with five
// bot accounts of their own (two joining from the person's machine, three
// from another) and a second account from the person's address, tries to
// take every free seat of a stranger's public 7-seat table. They get one
// address's share at most (3 seats), refused with own_seat_limit or
// seat_limit; every seat of a bot account shows its owner to the table
// (wire.SeatInfo.Owner, "Robo1 (bot of …)"); a stranger still sits.
func TestAttack_BotSeats(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	stranger := &client.API{Base: tg.base, HTTP: from("127.0.140.1")}
	created, err := stranger.Create(ctx, client.CreateRequest{Name: "a stranger's table", Players: 7, TimingsMS: gameTimings, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stranger.Join(ctx, created.Table, "Tamar", 1, created.HostToken); err != nil {
		t.Fatal(err)
	}
	const home, box = "127.0.141.1", "127.0.141.2"
	nino := signupFrom(ctx, t, tg.base, home, "Nino25")
	bots := botsOf(ctx, t, tg.base, home, nino, "Robo", 5)
	second := signupFrom(ctx, t, tg.base, home, "Nino25b")
	tries := []struct{ ip, cred string }{{home, nino}, {home, bots[0]}, {home, bots[1]}, {box, bots[2]}, {box, bots[3]}, {box, bots[4]}, {home, second}}
	seated, refused := 0, map[string]int{}
	for _, try := range tries {
		st, code := joinAs(ctx, t, tg.base, try.ip, created.Table, try.cred)
		if st == http.StatusOK {
			seated++
			continue
		}
		refused[fmt.Sprintf("%d %s", st, code)]++
	}
	t.Logf("one person's %d joins: %d seats, refused %v", len(tries), seated, refused)
	if seated > 3 {
		t.Errorf("one person, their bots and their second account took %d of the 6 free seats, over one address's share of 3", seated)
	}
	if refused["403 own_seat_limit"] == 0 || refused["403 seat_limit"] == 0 {
		t.Errorf("refusals %v: want own_seat_limit (their bots) and seat_limit (their second account)", refused)
	}
	lobby, err := stranger.Table(ctx, created.Table)
	if err != nil {
		t.Fatal(err)
	}
	owned := 0
	for _, s := range lobby.Seats {
		if s.BotAccount {
			owned++
			if s.Owner != "Nino25" {
				t.Errorf("seat %d (%s), a bot account's, shows owner %q, want Nino25", s.Seat, s.Name, s.Owner)
			}
		} else if s.Owner != "" {
			t.Errorf("seat %d (%s) shows an owner %q", s.Seat, s.Name, s.Owner)
		}
	}
	if owned == 0 {
		t.Errorf("no bot account sat: %+v", lobby.Seats)
	}
	// The public list says the same.
	a := ask(ctx, t, from("127.0.140.9"), "GET", tg.base+"/api/tables", nil, "")
	if !strings.Contains(string(a.body), `"owner":"Nino25"`) {
		t.Errorf("GET /api/tables does not show the bots' owner: %s", a.body)
	}
	if _, err := (&client.API{Base: tg.base, HTTP: from("127.0.142.1")}).Join(ctx, created.Table, "Giorgi", 0, ""); err != nil {
		t.Errorf("a stranger after the attempt: %v", err)
	}
}
