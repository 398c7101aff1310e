package server

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"testing"
	"time"

	"mafia/room"
)

// The helpers of the tests of the server's limits and guards.

// fromAddr is an HTTP client whose connections leave from a loopback
// address of their own (Linux routes all of 127.0.0.0/8 to loopback), so
// that one test can be several client addresses.
func fromAddr(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, ForceAttemptHTTP2: false}}
}

// apiError is the body of a refusal.
type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// refusedWith checks that a WebSocket dial was answered before the upgrade
// with status and a JSON error of code, its sentence in lang.
func refusedWith(t *testing.T, where string, resp *http.Response, err error, status int, code, lang string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: the WebSocket opened; want %d %s", where, status, code)
		return
	}
	if resp == nil {
		t.Errorf("%s: no HTTP answer (%v); want %d %s", where, err, status, code)
		return
	}
	var body apiError
	if resp.Body != nil {
		_ = json.NewDecoder(resp.Body).Decode(&body)
	}
	if resp.StatusCode != status || body.Error.Code != code {
		t.Errorf("%s: %d %q (%v); want %d %q", where, resp.StatusCode, body.Error.Code, err, status, code)
		return
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("%s: Content-Type %q", where, ct)
	}
	checkSentence(t, where, lang, code, body.Error.Message)
}

// fakeClocked tunes a server onto a fake clock, returned in *clk.
func fakeClocked(clk **room.FakeClock) func(*Config) {
	return func(c *Config) {
		*clk = room.NewFakeClock(time.Unix(1_800_000_000, 0))
		c.Clock = *clk
	}
}

// both applies tunes in order.
func both(tunes ...func(*Config)) func(*Config) {
	return func(c *Config) {
		for _, f := range tunes {
			if f != nil {
				f(c)
			}
		}
	}
}

// open dials a table's WebSocket and reads its welcome.
func open(ctx context.Context, t *testing.T, base, table, token string, o dialOpts) *wsConn {
	t.Helper()
	c, _, err := dialWS(ctx, base, table, token, 0, o)
	if err != nil {
		t.Fatalf("dial %s (token %v): %v", table, token != "", err)
	}
	if _, m, err := c.read(ctx); err != nil || m.Type != "welcome" {
		t.Fatalf("dial %s: %v %+v", table, err, m)
	}
	return c
}
