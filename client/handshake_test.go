package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/server"
	"mafia/store/sqlite"
)

// TestDial_RefusedHandshakeSaysItsStatus: a handshake answered with an
// HTTP error is a HandshakeError with the status, the error's code and the
// Retry-After asked for, as an API request's refusal is (client.Error),
// and its text is the library's (which names the
// status); a welcome's seq is the seat's count even when it carries no
// events (a since past the seat's count).
func TestDial_RefusedHandshakeSaysItsStatus(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: db})
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close(); srv.Close(); db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	api := &client.API{Base: hs.URL}
	_, err = api.Dial(ctx, "nosuchtable", "", 0)
	var he *client.HandshakeError
	if !errors.As(err, &he) || he.Status != http.StatusNotFound || he.Code != "not_found" || !strings.Contains(err.Error(), "404") {
		t.Fatalf("dial of an unknown table: %#v (%v); want a 404 not_found HandshakeError", he, err)
	}

	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "2")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"error":{"code":"relay_unavailable","message":"try again"}}`))
	}))
	defer busy.Close()
	_, err = (&client.API{Base: busy.URL}).Dial(ctx, "t", "", 0)
	if !errors.As(err, &he) || he.Status != http.StatusServiceUnavailable || he.Code != "relay_unavailable" || he.RetryAfter != 2*time.Second {
		t.Fatalf("dial of a busy node: %#v (%v); want 503 relay_unavailable, Retry-After 2 s", he, err)
	}
	var ae *client.Error
	if _, err = (&client.API{Base: busy.URL}).Join(ctx, "t", "Nino", 1, ""); !errors.As(err, &ae) ||
		ae.Status != http.StatusServiceUnavailable || ae.Code != "relay_unavailable" || ae.RetryAfter != 2*time.Second {
		t.Fatalf("a join on a busy node: %#v (%v); want 503 relay_unavailable, Retry-After 2 s", ae, err)
	}
	if _, err = api.Join(ctx, "nosuchtable", "Nino", 1, ""); !errors.As(err, &ae) || ae.Status != http.StatusNotFound || ae.RetryAfter != 0 {
		t.Fatalf("a join of an unknown table: %#v (%v); want 404 with no Retry-After", ae, err)
	}

	created, err := api.Create(ctx, client.CreateRequest{Name: "seq", Players: 5})
	if err != nil {
		t.Fatal(err)
	}
	j, err := api.Join(ctx, created.Table, "Nino", 1, created.HostToken)
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.Dial(ctx, created.Table, j.Token, 7) // no game: the seat's count is 0
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if c.Seq != 0 || len(c.Events) != 0 {
		t.Fatalf("a lobby's welcome after since=7: seq %d, %d events; want 0 and none", c.Seq, len(c.Events))
	}
}
