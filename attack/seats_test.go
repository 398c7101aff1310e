package attack

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/wire"
)

// browserFrom is a client from ip that keeps its cookies, as a browser does.
func browserFrom(t *testing.T, ip string) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	hc := from(ip)
	hc.Jar = jar
	return hc
}

// withJar is a client from ip carrying another client's cookies: the same
// browser on another network.
func withJar(ip string, jar http.CookieJar) *http.Client {
	hc := from(ip)
	hc.Jar = jar
	return hc
}

// join asks for a seat as hc and returns the status, the seat, its token
// and the refusal's code.
func join(ctx context.Context, t *testing.T, hc *http.Client, base, table, body string) (status, seat int, token, code string) {
	t.Helper()
	a := ask(ctx, t, hc, "POST", base+"/api/tables/"+table+"/join", map[string]string{"Content-Type": "application/json"}, body)
	var j client.Joined
	_ = json.Unmarshal(a.body, &j)
	return a.status, j.Seat, j.Token, a.code
}

// TestAttack_SeatHogging (issue 17, item 4): one address tries to take
// every seat of a real player's public table, round after round, without
// cookies, with one browser's cookies (asking again, and for another
// seat), and with a fresh browser each time, while the host kicks every
// seat it takes. It gets at most its share (3 seats, however many it
// tries; the browser is answered with its own seat, and already_seated
// for another), and once the host has kicked it, nothing more: every join
// from its address, and from the kicked browser on another address, is 403
// blocked; its kicked socket is closed (1008 "kicked", after an error frame that says so) and its token
// refused (bad_token). Someone else can still sit, and the host fills the
// table with bots and plays.
func TestAttack_SeatHogging(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	p := tg.newPlayer(ctx, t, "127.0.85.1")
	browser := browserFrom(t, "127.0.86.1")
	rounds, tries := count(6, 3), 12
	granted := map[string]int{} // the seats the attacker was ever given, by token
	var tokens []string
	refused := map[string]int{}
	for r := 0; r < rounds; r++ {
		for i := 0; i < tries; i++ {
			hc, body := from("127.0.86.1"), `{"name":"hog"}` // no cookies
			switch i % 4 {
			case 1:
				hc = browser // the same browser again
			case 2:
				hc, body = browser, fmt.Sprintf(`{"name":"hog","seat":%d}`, 2+i%4) // and for another seat
			case 3:
				hc = browserFrom(t, "127.0.86.1") // a fresh browser
			}
			st, seat, tok, code := join(ctx, t, hc, tg.base, p.table, body)
			if st != http.StatusOK {
				refused[fmt.Sprintf("%d %s", st, code)]++
				continue
			}
			if _, ok := granted[tok]; !ok {
				granted[tok] = seat
				tokens = append(tokens, tok)
			}
		}
		var kicked *websocket.Conn
		if r == 0 {
			if len(tokens) == 0 {
				t.Fatalf("the attacker got no seat at all (refused %v): nothing was tried", refused)
			}
			kicked = seatSocket(ctx, t, tg, p.table, tokens[0])
			if _, _, err := kicked.Read(ctx); err != nil { // its welcome
				t.Fatal(err)
			}
		}
		// The host kicks every seat but its own.
		lobby, err := (&client.API{Base: tg.base}).Table(ctx, p.table)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range lobby.Seats {
			if s.Taken && s.Seat != 1 {
				if m, err := roundTrip(ctx, p.conn, wire.ClientMessage{Type: "host", Action: "kick", Target: s.Seat}); err != nil || m.Type != "reply" {
					t.Fatalf("kick %d: %+v %v", s.Seat, m, err)
				}
			}
		}
		if kicked != nil { // the kicked seat's socket, and its token again
			if st, reason := closedAs(ctx, kicked); st != websocket.StatusPolicyViolation || reason != "kicked" {
				t.Errorf("the kicked seat's socket: closed %v %q, want 1008 kicked", st, reason)
			}
			ws := seatSocket(ctx, t, tg, p.table, tokens[0])
			var m wire.ServerMessage
			_, data, err := ws.Read(ctx)
			if err == nil {
				_ = json.Unmarshal(data, &m)
				_, _, err = ws.Read(ctx)
			}
			if m.Code != "bad_token" {
				t.Errorf("the kicked seat's token on a socket: %s %s, want bad_token", m.Type, m.Code)
			}
			ws.CloseNow()
		}
	}
	t.Logf("%d rounds of %d joins: %d seats given, refused %v", rounds, tries, len(granted), refused)
	if len(granted) > 3 {
		t.Errorf("one address was given %d seats of the table, over its share of 3", len(granted))
	}
	if refused["403 seat_limit"] == 0 || refused["409 already_seated"] == 0 || refused["403 blocked"] < (rounds-1)*tries {
		t.Errorf("refusals %v: want seat_limit and already_seated in the first round, every join blocked after the kick", refused)
	}
	for _, hc := range []*http.Client{from("127.0.86.1"), browserFrom(t, "127.0.86.1"), withJar("127.0.86.2", browser.Jar)} {
		if st, _, _, code := join(ctx, t, hc, tg.base, p.table, `{"name":"back again"}`); st != http.StatusForbidden || code != "blocked" {
			t.Errorf("a kicked client comes straight back: %d %s, want 403 blocked", st, code)
		}
	}
	// Someone else, from elsewhere, sits and leaves; the host plays.
	st, _, tok, code := join(ctx, t, from("127.0.88.1"), tg.base, p.table, `{"name":"Giorgi"}`)
	if st != http.StatusOK {
		t.Fatalf("a stranger's join after the kicks: %d %s", st, code)
	}
	if err := leave(ctx, tg.base, p.table, tok); err != nil {
		t.Fatal(err)
	}
	p.play(ctx, t)
}

// seatSocket opens a seat's WebSocket with its token.
func seatSocket(ctx context.Context, t *testing.T, tg *target, table, token string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(ctx, tg.wsURL(table, ""), &websocket.DialOptions{HTTPClient: from("127.0.87.1"),
		HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 20)
	t.Cleanup(func() { ws.CloseNow() })
	return ws
}

// closedAs reads ws until it closes and returns the close.
func closedAs(ctx context.Context, ws *websocket.Conn) (websocket.StatusCode, string) {
	for {
		if _, _, err := ws.Read(ctx); err != nil {
			return closeCode(err)
		}
	}
}
