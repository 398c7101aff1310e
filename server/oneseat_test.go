package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// joinWith posts a join with an HTTP client (its cookie jar, if any) and
// returns the status, the seat and the error code.
func joinWith(t *testing.T, hc *http.Client, base, table, body string) (int, int, string) {
	t.Helper()
	resp, err := hc.Post(base+"/api/tables/"+table+"/join", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Seat  int `json:"seat"`
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out.Seat, out.Error.Code
}

// answer sends m and returns the code of its answer ("" for a reply).
func answer(ctx context.Context, t *testing.T, c *wsConn, m wire.ClientMessage) string {
	t.Helper()
	id, err := c.send(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	for {
		_, got, err := c.read(ctx)
		if err != nil {
			t.Fatalf("waiting for the answer to %+v: %v", m, err)
		}
		if got.ID == id && (got.Type == "reply" || got.Type == "error") {
			return got.Code
		}
	}
}

func jarClient(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar}
}

// TestOneSeat_OneClientCannotHoldATable: the attack of the field test (one
// client kept 7 of 7 seats of a public table while the host kicked 186
// times), on a real server with the default limits. A browser (cookie jar)
// that joins again is answered with its seat; clients from one address
// get at most 3 seats; a kicked joiner cannot come straight back, with a
// fresh cookie or none.
func TestOneSeat_OneClientCannotHoldATable(t *testing.T) {
	ts := startServerWith(t, "", func(c *Config) { c.SeatsPerAddress = 0 }) // the default
	ctx := within(t, 60*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "public", Players: 7, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	base, id := ts.api.Base, created.Table

	// A browser joins twice (a double click): one seat.
	browser := jarClient(t)
	st, seat, code := joinWith(t, browser, base, id, `{"name":"Nino"}`)
	if st != 200 {
		t.Fatalf("the browser's join: %d %s", st, code)
	}
	if st, again, code := joinWith(t, browser, base, id, `{"name":"Nino"}`); st != 200 || again != seat {
		t.Errorf("the browser's second join: %d seat %d %s, want its seat %d", st, again, code, seat)
	}
	if st, _, code := joinWith(t, browser, base, id, `{"name":"Nino","seat":6}`); st != 409 || code != "already_seated" {
		t.Errorf("the browser asks for a second seat: %d %s", st, code)
	}

	// Anonymous clients from the same address (loopback): 3 seats in all.
	got := 1
	for i := 0; i < 10; i++ {
		st, _, code := joinWith(t, &http.Client{}, base, id, `{"name":"anon"}`)
		switch {
		case st == 200:
			got++
		case st != 403 || code != "seat_limit":
			t.Fatalf("anonymous join %d: %d %s", i, st, code)
		}
	}
	if got != 3 {
		t.Errorf("%d seats from one address, want 3", got)
	}

	// The host kicks one: nobody from that address (or that browser) comes
	// straight back.
	host, _, err := dialWS(ctx, base, id, created.HostToken, 0, dialOpts{})
	if err != nil {
		t.Fatal(err)
	}
	defer host.close()
	if code := answer(ctx, t, host, wire.ClientMessage{Type: "host", Action: "kick", Target: seat}); code != "" {
		t.Fatalf("kick: %s", code)
	}
	for _, hc := range []*http.Client{browser, {}, jarClient(t)} {
		if st, _, code := joinWith(t, hc, base, id, `{"name":"back again"}`); st != 403 || code != "blocked" {
			t.Errorf("a join after the kick: %d %s, want 403 blocked", st, code)
		}
	}
	lobby, err := ts.api.Table(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	taken := 0
	for _, s := range lobby.Seats {
		if s.Taken {
			taken++
		}
	}
	if taken != 2 {
		t.Errorf("%d seats taken after the kick, want 2", taken)
	}
	// The host's own join is neither limited nor blocked.
	if j, err := ts.api.Join(ctx, id, "Host", 0, created.HostToken); err != nil {
		t.Errorf("the host's join: %v", err)
	} else if j.Token != created.HostToken {
		t.Error("the host's join did not make the host's seat")
	}
}
