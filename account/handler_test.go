package account

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// web is the accounts' handler on a real loopback server.
type web struct {
	*httptest.Server
	svc   *Service
	clock *fakeClock
}

func newWeb(t *testing.T, cfg Config) *web {
	t.Helper()
	svc, clock := newTestService(t, cfg)
	hs := httptest.NewServer(NewHandler(HandlerConfig{Service: svc}))
	t.Cleanup(hs.Close)
	return &web{Server: hs, svc: svc, clock: clock}
}

// call makes one request: body as JSON (nil: none), with a bearer token
// (""; none) and an http.Client (nil: a fresh one without cookies).
func (w *web) call(t *testing.T, c *http.Client, method, path, bearer string, body any) (int, string, *http.Response) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, w.URL+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	if c == nil {
		c = &http.Client{}
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data), resp
}

func jar(t *testing.T) *http.Client {
	j, _ := cookiejar.New(nil)
	return &http.Client{Jar: j}
}

func tokenIn(t *testing.T, body string) string {
	t.Helper()
	var out struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil || out.Token == "" {
		t.Fatalf("no token in %s", body)
	}
	return out.Token
}

// TestHTTP_WrongPasswordAndUnknownNameAreIndistinguishable: the same
// status, the same body byte for byte, and one hash each.
func TestHTTP_WrongPasswordAndUnknownNameAreIndistinguishable(t *testing.T) {
	w := newWeb(t, Config{})
	if code, body, _ := w.call(t, nil, "POST", "/api/account/signup", "", map[string]any{"name": "Nino", "password": "password1"}); code != 200 {
		t.Fatalf("signup: %d %s", code, body)
	}
	type answer struct {
		code   int
		body   string
		hashes uint64
	}
	var got []answer
	for _, c := range []map[string]any{{"name": "nino", "password": "password2"}, {"name": "nobody", "password": "password1"}} {
		before := w.svc.Hashes()
		code, body, resp := w.call(t, nil, "POST", "/api/account/login", "", c)
		if len(resp.Cookies()) != 0 {
			t.Errorf("a refused login set cookies: %v", resp.Cookies())
		}
		got = append(got, answer{code, body, w.svc.Hashes() - before})
	}
	if got[0] != got[1] || got[0].code != http.StatusForbidden || !strings.Contains(got[0].body, `"code":"bad_login"`) || got[0].hashes != 1 {
		t.Errorf("wrong password %+v, unknown name %+v: want one 403 bad_login after one hash each", got[0], got[1])
	}
}

// TestHTTP_LoginFloodIsLimited: past the name's burst the answer is 429
// login_limited.
func TestHTTP_LoginFloodIsLimited(t *testing.T) {
	w := newWeb(t, Config{PerName: Limit{Every: time.Minute, Burst: 5}})
	codes := map[int]int{}
	var last string
	for range 12 {
		code, body, _ := w.call(t, nil, "POST", "/api/account/login", "", map[string]any{"name": "nino", "password": "guess1234"})
		codes[code]++
		last = body
	}
	if codes[403] != 5 || codes[429] != 7 || !strings.Contains(last, `"code":"login_limited"`) {
		t.Errorf("answers %v, last %s; want 5 refusals then 7 limited", codes, last)
	}
}

// TestHTTP_LogoutEverywhereEndsTheCookieAndTheBearer: a browser's login
// (an HttpOnly, SameSite=Lax cookie) and a program's (a bearer token) both
// stop working once either logs out everywhere.
func TestHTTP_LogoutEverywhereEndsTheCookieAndTheBearer(t *testing.T) {
	w := newWeb(t, Config{})
	browser := jar(t)
	code, body, resp := w.call(t, browser, "POST", "/api/account/signup", "", map[string]any{"name": "Nino", "password": "password1"})
	if code != 200 || strings.Contains(body, "token") {
		t.Fatalf("signup: %d %s (a browser's answer holds no token)", code, body)
	}
	var c *http.Cookie
	for _, k := range resp.Cookies() {
		if k.Name == CookieName {
			c = k
		}
	}
	if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure {
		t.Fatalf("the login cookie: %+v", c)
	}
	_, body, _ = w.call(t, nil, "POST", "/api/account/login", "", map[string]any{"name": "nino", "password": "password1", "bearer": true})
	bearer := tokenIn(t, body)
	for _, who := range []struct {
		c *http.Client
		b string
	}{{browser, ""}, {nil, bearer}} {
		if code, body, _ := w.call(t, who.c, "GET", "/api/account/me", who.b, nil); code != 200 || !strings.Contains(body, `{"account":{"name":"Nino"`) {
			t.Fatalf("me: %d %s", code, body)
		}
	}
	if code, body, _ := w.call(t, nil, "POST", "/api/account/logout-all", bearer, nil); code != 204 {
		t.Fatalf("logout-all: %d %s", code, body)
	}
	// A program is told its login has ended; a page, that nobody is
	// logged in (and its cookie is cleared).
	if code, body, _ := w.call(t, nil, "GET", "/api/account/me", bearer, nil); code != 403 || !strings.Contains(body, `"code":"not_logged_in"`) {
		t.Errorf("me with the bearer after log out everywhere: %d %s", code, body)
	}
	if code, body, _ := w.call(t, browser, "GET", "/api/account/me", "", nil); code != 200 || body != `{"account":null}`+"\n" {
		t.Errorf("me with the cookie after log out everywhere: %d %s", code, body)
	}
	if code, _, _ := w.call(t, browser, "POST", "/api/account/password", "", map[string]any{"old": "password1", "new": "password2"}); code != 403 {
		t.Errorf("a change of password with the ended cookie: %d", code)
	}
}

// TestHTTP_ACrossOriginStateChangeWithTheCookieIsRefused: a foreign page's
// request with the login cookie changes nothing.
func TestHTTP_ACrossOriginStateChangeWithTheCookieIsRefused(t *testing.T) {
	w := newWeb(t, Config{})
	browser := jar(t)
	w.call(t, browser, "POST", "/api/account/signup", "", map[string]any{"name": "Nino", "password": "password1"})
	req, _ := http.NewRequest("POST", w.URL+"/api/account/logout-all", nil)
	req.Header.Set("Origin", "https://evil.example")
	resp, err := browser.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("a foreign page's log out everywhere: %d, want 403", resp.StatusCode)
	}
	if code, _, _ := w.call(t, browser, "GET", "/api/account/me", "", nil); code != 200 {
		t.Errorf("the login after a foreign page's attempt: %d, want it alive", code)
	}
}

// TestHTTP_ABotTokenCannotActAsItsOwner: a bot's token reads as the bot
// (me names its owner) and is refused every account action.
func TestHTTP_ABotTokenCannotActAsItsOwner(t *testing.T) {
	w := newWeb(t, Config{})
	_, body, _ := w.call(t, nil, "POST", "/api/account/signup", "", map[string]any{"name": "Nino", "password": "password1", "bearer": true})
	owner := tokenIn(t, body)
	code, body, _ := w.call(t, nil, "POST", "/api/account/bots", owner, map[string]any{"name": "Robo"})
	if code != 200 {
		t.Fatalf("create bot: %d %s", code, body)
	}
	bot := tokenIn(t, body)
	if code, body, _ := w.call(t, nil, "GET", "/api/account/me", bot, nil); code != 200 || !strings.Contains(body, `{"account":{"name":"Robo","created_ms":`) ||
		!strings.Contains(body, `"bot":true,"owner":"Nino"`) {
		t.Errorf("me as the bot: %d %s", code, body)
	}
	for _, c := range []struct {
		path string
		body any
	}{
		{"/api/account/password", map[string]any{"old": "password1", "new": "password2"}},
		{"/api/account/logout-all", nil}, {"/api/account/logout", nil},
		{"/api/account/bots", map[string]any{"name": "Robo2"}}, {"/api/account/bots/Robo/token", nil},
		{"/api/account/keep", map[string]any{"table": "x", "token": "y"}},
	} {
		if code, body, _ := w.call(t, nil, "POST", c.path, bot, c.body); code != 403 || !strings.Contains(body, `"code":"bot_credential"`) {
			t.Errorf("%s with the bot's token: %d %s", c.path, code, body)
		}
	}
	if code, body, _ := w.call(t, nil, "GET", "/api/account/bots", bot, nil); code != 403 {
		t.Errorf("bots with the bot's token: %d %s", code, body)
	}
	if code, _, _ := w.call(t, nil, "GET", "/api/account/me", owner, nil); code != 200 {
		t.Errorf("the owner's login after the bot's attempts: %d", code)
	}
	if code, body, _ := w.call(t, nil, "GET", "/api/account/bots", owner, nil); code != 200 || !strings.Contains(body, `"name":"Robo"`) {
		t.Errorf("the owner's bots: %d %s", code, body)
	}
}
