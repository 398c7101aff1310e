package attack

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"mafia/client"
	"mafia/server"
	"mafia/wire"
)

// askRecord is GET /api/tables/{table}/record with a bearer token.
func askRecord(ctx context.Context, t *testing.T, base, table, token string) string {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/tables/"+table+"/record", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return fmt.Sprintf("%d %s", resp.StatusCode, b)
}

// TestAttack_RecordSaysNothingBeforeTheEnd: while the game goes on, every
// seat's token (whatever its card) asks for the game's record at night,
// before and after the night's moves: every answer is the
// same coded refusal, byte for byte, and an outsider's is one refusal too.
func TestAttack_RecordSaysNothingBeforeTheEnd(t *testing.T) {
	t.Parallel()
	tg := start(t, func(c *server.Config) { c.SeatsPerAddress = -1 })
	ctx := within(t, 60*time.Second)
	api := &client.API{Base: tg.base}
	timings := map[string]int64{"speech": 3600000, "defence": 3600000, "tie_speech": 3600000, "last_words": 3600000, "night": 3600000, "vote": 3600000}
	created, err := api.Create(ctx, client.CreateRequest{Name: "record", Players: 7, TimingsMS: timings})
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	var seats []*client.Conn
	for s := 1; s <= 7; s++ {
		tok := ""
		if s == 1 {
			tok = created.HostToken
		}
		j, err := api.Join(ctx, created.Table, fmt.Sprintf("player %d", s), s, tok)
		if err != nil {
			t.Fatal(err)
		}
		c, err := api.Dial(ctx, created.Table, j.Token, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		tokens, seats = append(tokens, j.Token), append(seats, c)
	}
	alike := func(when string) {
		t.Helper()
		want := askRecord(ctx, t, tg.base, created.Table, tokens[0])
		if want[:3] != "409" {
			t.Errorf("%s: seat 1 is answered %s, want 409 not_over", when, want)
		}
		for i, tok := range tokens[1:] {
			if got := askRecord(ctx, t, tg.base, created.Table, tok); got != want {
				t.Errorf("%s: seat %d is answered %s, seat 1 %s", when, i+2, got, want)
			}
		}
		if got := askRecord(ctx, t, tg.base, created.Table, ""); got[:3] != "403" {
			t.Errorf("%s: an outsider is answered %s, want 403 bad_token", when, got)
		}
	}
	if _, err := roundTrip(ctx, seats[0], wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range seats {
		for c.View == nil || c.View.Phase != "night" {
			if _, err := c.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	alike("night 1, before any move")
	for _, c := range seats {
		l := c.View.Legal
		for _, m := range []struct {
			verb    string
			targets []int
		}{{"kill", l.Kill}, {"check", l.Check}, {"heal", l.Heal}} {
			if len(m.targets) > 0 {
				if _, err := roundTrip(ctx, c, wire.ClientMessage{Type: "command", Verb: m.verb, Target: m.targets[0]}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	alike("night 1, after the moves")
}
