package attack

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/internal/httpguard"
	"mafia/server"
)

// TestAttack_ForeignPages (issue 17, items 17 and 18): a server behind an
// https proxy (`mafia serve --public-url https://mafia.example.ge`) sets
// every cookie Secure and HttpOnly, its own and the host's assistant's
// (SameSite=Strict; the assistant's host cookie Lax). A foreign page, whose requests the browser sends with the
// player's cookies, tries every state change: a new table, a join, a
// leave, a WebSocket, the assistant's new game and sync; with its own
// Origin, with the public URL's host over http, with only Sec-Fetch-Site:
// cross-site, and as the simple requests a page may send without asking
// (text/plain, a form, no type). Each is refused (403 cross_origin, 415
// json_required) and changes nothing: no table, no seat taken or given
// back, no entry stored; the same requests from the server's own page are
// taken. A token in a URL of the assistant (a query, as the old QR
// codes had it) is refused with token_in_url and nothing is applied; the
// card links the assistant hands out carry their tokens in the fragment
// only. A real player plays meanwhile.
func TestAttack_ForeignPages(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	const public = "https://mafia.example.ge"
	g, err := httpguard.New(httpguard.Config{PublicURL: public})
	if err != nil {
		t.Fatal(err)
	}
	tg := start(t, func(c *server.Config) { c.Guard = g })
	ctx := within(t, 60*time.Second)
	wait := tg.playsMeanwhile(ctx, t, "127.0.110.9")
	hc := from("127.0.110.1")
	ours := map[string]string{"Origin": public, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json"}
	secure := func(what string, cookies []*http.Cookie) {
		t.Helper()
		if len(cookies) == 0 {
			t.Errorf("%s set no cookie", what)
		}
		for _, c := range cookies {
			// The assistant's host cookie is Lax (the printable protocol
			// opens from a link); its state changes are guarded by Origin.
			sameSite := c.SameSite == http.SameSiteStrictMode || (strings.HasPrefix(c.Name, "assist_") && c.SameSite == http.SameSiteLaxMode)
			if !c.Secure || !c.HttpOnly || !sameSite {
				t.Errorf("%s: the cookie %s is Secure=%v HttpOnly=%v SameSite=%v", what, c.Name, c.Secure, c.HttpOnly, c.SameSite)
			}
		}
	}
	a := ask(ctx, t, hc, "POST", tg.base+"/api/tables", ours, `{"name":"ours","players":5,"public":true}`)
	var created client.Created
	if a.status != http.StatusCreated || json.Unmarshal(a.body, &created) != nil {
		t.Fatalf("our page's create: %d %s", a.status, a.code)
	}
	secure("our page's create", a.cookies)
	var jar []string
	for _, c := range a.cookies {
		jar = append(jar, c.Name+"="+c.Value)
	}
	cookie := strings.Join(jar, "; ") // the host's cookie and the client's
	table := "/api/tables/" + created.Table

	foreign := []struct {
		name string
		hdr  map[string]string
		code string
	}{
		{"a foreign page", map[string]string{"Origin": "https://evil.example", "Content-Type": "application/json"}, "cross_origin"},
		{"our host over http", map[string]string{"Origin": "http://mafia.example.ge", "Content-Type": "application/json"}, "cross_origin"},
		{"a cross-site fetch without an Origin", map[string]string{"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, "cross_origin"},
		{"text/plain", map[string]string{"Origin": public, "Content-Type": "text/plain"}, "json_required"},
		{"a form", map[string]string{"Origin": public, "Content-Type": "application/x-www-form-urlencoded"}, "json_required"},
		{"no type", map[string]string{"Origin": public}, "json_required"},
	}
	status := map[string]int{"cross_origin": http.StatusForbidden, "json_required": http.StatusUnsupportedMediaType}
	try := func(what, url, body, cookie string) {
		t.Helper()
		for _, f := range foreign {
			hdr := map[string]string{"Cookie": cookie}
			for k, v := range f.hdr {
				hdr[k] = v
			}
			if a := ask(ctx, t, hc, "POST", url, hdr, body); a.status != status[f.code] || a.code != f.code {
				t.Errorf("%s, from %s: %d %s, want %d %s", what, f.name, a.status, a.code, status[f.code], f.code)
			}
		}
	}
	try("a new table", tg.base+"/api/tables", `{"name":"theirs","players":5,"public":true}`, cookie)
	try("the host's join", tg.base+table+"/join", `{"name":"Nino"}`, cookie)
	// The host sits (from our page); then the foreign page tries to make it leave.
	if a := ask(ctx, t, hc, "POST", tg.base+table+"/join", mergeHeaders(ours, map[string]string{"Cookie": cookie}), `{"name":"Nino"}`); a.status != http.StatusOK {
		t.Fatalf("our page's join: %d %s", a.status, a.code)
	} else {
		secure("our page's join", a.cookies)
	}
	try("the host's leave", tg.base+table+"/leave", "", cookie)
	for _, origin := range []string{"https://evil.example", "http://mafia.example.ge"} {
		_, resp, err := websocket.Dial(ctx, tg.wsURL(created.Table, ""), &websocket.DialOptions{HTTPClient: hc,
			HTTPHeader: http.Header{"Origin": {origin}, "Cookie": {cookie}}})
		if st, code := refusal(resp, err); st != http.StatusForbidden || code != "cross_origin" {
			t.Errorf("a WebSocket from %s with the host's cookie: %d %q, want 403 cross_origin", origin, st, code)
		}
	}
	ws, _, err := websocket.Dial(ctx, tg.wsURL(created.Table, ""), &websocket.DialOptions{HTTPClient: hc,
		HTTPHeader: http.Header{"Origin": {public}, "Cookie": {cookie}}})
	if err != nil {
		t.Fatalf("a WebSocket from our page: %v", err)
	}
	ws.CloseNow()
	l, err := (&client.API{Base: tg.base}).Table(ctx, created.Table)
	if err != nil {
		t.Fatal(err)
	}
	if !l.Seats[0].Taken || l.Seats[1].Taken {
		t.Errorf("after the foreign requests: seat 1 taken %v (want true), seat 2 taken %v (want false)", l.Seats[0].Taken, l.Seats[1].Taken)
	}
	if list, err := (&client.API{Base: tg.base}).Tables(ctx); err != nil || len(list) != 2 { // ours and the real player's
		t.Errorf("%d public tables after the foreign creates (%v), want 2", len(list), err)
	}

	// The host's assistant.
	game := `{"names":["A","B","C","D","E","F","G"],"deal":"links"}`
	a = ask(ctx, t, hc, "POST", tg.base+"/host/api/games", ours, game)
	var made struct {
		ID        string `json:"id"`
		HostToken string `json:"host_token"`
		Cards     []struct {
			URL   string `json:"url"`
			Token string `json:"token"`
		} `json:"cards"`
	}
	if a.status != http.StatusCreated || json.Unmarshal(a.body, &made) != nil || len(made.Cards) != 7 {
		t.Fatalf("our page's new game: %d %s %s", a.status, a.code, a.body)
	}
	secure("the assistant's new game", a.cookies)
	for _, c := range made.Cards {
		if path, frag, _ := strings.Cut(c.URL, "#"); strings.Contains(path, c.Token) || frag != c.Token {
			t.Errorf("a card link carries its token outside the fragment: %s", c.URL)
		}
	}
	hostCookie := a.cookies[0].Name + "=" + a.cookies[0].Value
	gameURL := tg.base + "/host/api/games/" + made.ID
	entry := `{"commands":[{"id":"e0","seq":0,"verb":"next"}]}`
	try("the assistant's new game", tg.base+"/host/api/games", game, hostCookie)
	try("the assistant's sync", gameURL+"/sync", entry, hostCookie)
	bearer := map[string]string{"Authorization": "Bearer " + made.HostToken}
	for _, u := range []string{
		gameURL + "?token=" + made.HostToken,
		gameURL + "/cards/3?t=" + made.Cards[2].Token,
		gameURL + "/cards/3/qr.svg?t=" + made.Cards[2].Token,
		gameURL + "/protocol.json?x=" + made.HostToken,
	} {
		if a := ask(ctx, t, hc, "GET", u, bearer, ""); a.status != http.StatusBadRequest || a.code != "token_in_url" {
			t.Errorf("GET %s: %d %s, want 400 token_in_url", strings.TrimPrefix(u, tg.base), a.status, a.code)
		}
	}
	if a := ask(ctx, t, hc, "POST", gameURL+"/sync?host_token="+made.HostToken, mergeHeaders(bearer, ours), entry); a.status != http.StatusBadRequest || a.code != "token_in_url" {
		t.Errorf("a sync with the host's token in its query: %d %s, want 400 token_in_url", a.status, a.code)
	}
	a = ask(ctx, t, hc, "GET", gameURL, bearer, "")
	var stored struct{ Commands []json.RawMessage }
	if a.status != http.StatusOK || json.Unmarshal(a.body, &stored) != nil || len(stored.Commands) != 0 {
		t.Errorf("the game after the refused syncs: %d, %d entries stored", a.status, len(stored.Commands))
	}
	if a := ask(ctx, t, hc, "POST", gameURL+"/sync", mergeHeaders(ours, map[string]string{"Cookie": hostCookie}), entry); a.status != http.StatusOK {
		t.Errorf("our page's sync: %d %s", a.status, a.code)
	}
	wait()
}

// mergeHeaders is a and b together (b wins).
func mergeHeaders(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range []map[string]string{a, b} {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
