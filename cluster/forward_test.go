package cluster

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// echo is a node's local server in the forward tests: it answers with
// what it was asked, and sets a cookie.
func echo(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	http.SetCookie(w, &http.Cookie{Name: "seat", Value: "s1", Path: "/"})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Not-Passed", "1")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]string{
		"method": r.Method, "path": r.URL.Path, "query": r.URL.RawQuery, "body": string(body),
		"remote": r.RemoteAddr, "hop": r.Header.Get(HopHeader), "lang": r.Header.Get("Accept-Language"),
	})
}

func TestForwardPassesARequestToTheOwnerAndItsAnswerBack(t *testing.T) {
	ctx := within(t, 30*time.Second)
	ca, cb := newFakeClock(), newFakeClock()
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick})
	b := startNode(t, Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Local: http.HandlerFunc(echo), Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.Forward(w, r, "b", "203.0.113.7")
	}))
	defer hs.Close()
	req, _ := http.NewRequest(http.MethodPost, hs.URL+"/api/tables/t1/join?lang=ka", strings.NewReader(`{"name":"ნინო"}`))
	req.Header.Set("Accept-Language", "ka")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got map[string]string
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("status %d, want the owner's 201", resp.StatusCode)
	}
	want := map[string]string{"method": "POST", "path": "/api/tables/t1/join", "query": "lang=ka", "body": `{"name":"ნინო"}`,
		"remote": "203.0.113.7:0", "hop": "a", "lang": "ka"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("the owner saw %s %q, want %q", k, got[k], v)
		}
	}
	if c := resp.Header.Get("Set-Cookie"); !strings.HasPrefix(c, "seat=s1") {
		t.Errorf("Set-Cookie %q: the owner's cookie must come back", c)
	}
	if resp.Header.Get("X-Not-Passed") != "" {
		t.Error("a header the relay does not pass came back")
	}
	if s := a.RelayStats(); s.Forwarded != 1 || s.ForwardFailed != 0 {
		t.Errorf("stats %+v, want one forwarded", s)
	}
}

func TestForwardToANodeThatDoesNotAnswerIsRelayUnavailable(t *testing.T) {
	ca := newFakeClock()
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick, OpenWait: 200 * time.Millisecond})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/api/tables/t1?lang=en", nil)
	a.Forward(rec, req, "nobody", "")
	if rec.Code != http.StatusServiceUnavailable || !bytes.Contains(rec.Body.Bytes(), []byte(CodeRelayUnavailable)) {
		t.Errorf("%d %s, want 503 relay_unavailable", rec.Code, rec.Body)
	}
	if s := a.RelayStats(); s.ForwardFailed != 1 {
		t.Errorf("stats %+v, want one failed", s)
	}
}

// TestARelaysRefusalIsInTheRequestsLanguage (issue 27, item 4): the
// relay's refusal picks the language as every handler does
// (negotiate.Lang: the lang cookie, then Accept-Language by its q-values),
// where it read the raw header before ("ru;q=0.5, ka" gave English), and
// asks the client to wait a second.
func TestARelaysRefusalIsInTheRequestsLanguage(t *testing.T) {
	ca := newFakeClock()
	said := map[string]string{"ka": "რელე", "ru": "реле", "en": "relay"}
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick, OpenWait: 100 * time.Millisecond,
		Say: func(lang, code string) string { return said[lang] + " " + code }})
	for _, c := range []struct {
		accept, cookie, want string
	}{
		{"ru;q=0.5, ka", "", "ka"},
		{"en-GB,en;q=0.9", "", "en"},
		{"en", "ru", "ru"},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/api/tables/t1", nil)
		req.Header.Set("Accept-Language", c.accept)
		if c.cookie != "" {
			req.AddCookie(&http.Cookie{Name: "lang", Value: c.cookie})
		}
		a.Forward(rec, req, "nobody", "")
		var body struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if want := said[c.want] + " " + string(CodeRelayUnavailable); body.Error.Message != want || rec.Header().Get("Retry-After") != "1" {
			t.Errorf("Accept-Language %q, cookie %q: %q (Retry-After %q), want %q", c.accept, c.cookie, body.Error.Message,
				rec.Header().Get("Retry-After"), want)
		}
	}
}

func TestForwardRefusesABodyOverItsBound(t *testing.T) {
	ca := newFakeClock()
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/api/tables/t1/join", bytes.NewReader(make([]byte, maxForwardBody+1)))
	a.Forward(rec, req, "a", "")
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("%d, want 503", rec.Code)
	}
}

func TestFreeTellsTheOtherNodes(t *testing.T) {
	ctx := within(t, 30*time.Second)
	ca, cb := newFakeClock(), newFakeClock()
	got := make(chan string, 1)
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick})
	b := startNode(t, Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Peers: []string{a.RouteURL()}, OnFree: func(t string) { got <- t }})
	meet(ctx, t, a, b)
	a.Free("t42")
	select {
	case tb := <-got:
		if tb != "t42" {
			t.Errorf("b was told %q, want t42", tb)
		}
	case <-ctx.Done():
		t.Fatal("b was never told")
	}
}
