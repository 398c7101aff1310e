package assist_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/locale"
)

// TestATokenInAURLIsRefused: whatever a request asks for, a secret in its
// URL (a query parameter named like a token, or a path segment or query
// value shaped like one) is refused with token_in_url in the request's
// language, kept by no cache, and changes nothing, even when the token is
// right and nothing else would have refused it.
func TestATokenInAURLIsRefused(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealLinks)
	card := c.Cards[2].Token
	host := c.HostToken
	game := "/host/api/games/" + c.ID
	sync := map[string]any{"commands": hosttest.Entries(0, hosttest.Next)}
	for _, tc := range []struct {
		rule, method, path string
		body               any
	}{
		{"a card token as ?t= (the old QR code's address)", "GET", game + "/cards/3/qr.svg?t=" + card, nil},
		{"a card token as ?t= on the card itself", "GET", game + "/cards/3?t=" + card, nil},
		{"a card token under any name", "GET", game + "/cards/3?lang=ka&x=" + card, nil},
		{"a host token as ?token=", "GET", game + "?token=" + host, nil},
		{"a host token in a sync's query", "POST", game + "/sync?host_token=" + host, sync},
		{"a parameter named like a token, whatever its value", "GET", game + "/protocol.json?access_token=x", nil},
		{"a host token in upper case", "GET", game + "/cards?k=" + strings.ToUpper(host), nil},
		{"a token as a path segment", "GET", "/host/card/" + c.ID + "/3/" + card, nil},
		{"a token as a page's path", "GET", "/host/" + host, nil},
		{"a query that cannot be read", "GET", game + "/cards?%zz", nil},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			var body io.Reader
			if tc.body != nil {
				b, _ := json.Marshal(tc.body)
				body = strings.NewReader(string(b))
			}
			req, _ := http.NewRequest(tc.method, ts.URL+tc.path, body)
			req.Header.Set("Authorization", "Bearer "+host)
			req.Header.Set("Accept-Language", "ka")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var a hosttest.SyncAnswer
			if err := json.NewDecoder(res.Body).Decode(&a); err != nil {
				t.Fatalf("%s: not a JSON refusal: %v", res.Status, err)
			}
			want := locale.New(locale.Ka).T("assist.error.token_in_url", nil)
			if res.StatusCode != http.StatusBadRequest || a.Error == nil || a.Error.Code != string(assist.CodeTokenInURL) || a.Error.Message != want {
				t.Fatalf("%s %+v, want 400 token_in_url %q", res.Status, a.Error, want)
			}
			if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", cc)
			}
		})
	}
	// Nothing was applied or noted: no entry, and no card seen.
	if n := len(ts.StoredEntries(t, c.ID)); n != 0 {
		t.Errorf("the refused sync stored %d entries", n)
	}
	var seen struct{ Viewed []int }
	hosttest.Call(t, "GET", ts.URL+game+"/cards", host, nil, &seen)
	if len(seen.Viewed) != 0 {
		t.Errorf("a refused card request noted seats %v as seen", seen.Viewed)
	}
	// The same requests with the token where it belongs are answered.
	if code := hosttest.Call(t, "GET", ts.URL+game+"/cards/3?lang=ka", card, nil, nil); code != http.StatusOK {
		t.Errorf("the card with its token in the header: %d", code)
	}
	if code, a := hosttest.SyncUp(t, ts, c, hosttest.Entries(0, hosttest.Next)...); code != http.StatusOK || a.Applied != 1 {
		t.Errorf("the sync with the token in the header: %d %+v", code, a)
	}
}

// TestEveryAnswerThatHoldsATokenIsNotStored: the answers that carry a
// secret (the create, with the host's token and every card token; a
// phone's create; a card; the game for another phone) are Cache-Control:
// no-store, and nothing the server answers points at a URL with a token.
func TestEveryAnswerThatHoldsATokenIsNotStored(t *testing.T) {
	ts := hosttest.StartServer(t)
	req := map[string]any{"names": []string{"A", "B", "C", "D", "E", "F", "G"}, "deal": "links"}
	b, _ := json.Marshal(req)
	res, err := http.Post(ts.URL+"/host/api/games", "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	var c hosttest.Created
	if err := json.NewDecoder(res.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if cc := res.Header.Get("Cache-Control"); res.StatusCode != http.StatusCreated || cc != "no-store" {
		t.Fatalf("create: %s, Cache-Control %q", res.Status, cc)
	}
	for _, card := range c.Cards {
		path, frag, ok := strings.Cut(card.URL, "#")
		if !ok || frag != card.Token || strings.Contains(path, card.Token) {
			t.Errorf("card link %q does not keep its token in the fragment only", card.URL)
		}
	}
	phone := hosttest.PhoneCreate(t, []string{"A", "B", "C", "D", "E", "F", "G"}, record.DealPass, "77")
	b, _ = json.Marshal(phone)
	res, err = http.Post(ts.URL+"/host/api/games", "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if cc := res.Header.Get("Cache-Control"); res.StatusCode != http.StatusCreated || cc != "no-store" {
		t.Fatalf("a phone's create: %s, Cache-Control %q", res.Status, cc)
	}
	for _, g := range []struct{ path, token string }{
		{"/host/api/games/" + c.ID + "/cards/2", c.Cards[1].Token},
		{"/host/api/games/" + c.ID, c.HostToken},
		{"/host/api/games/" + c.ID + "/cards", c.HostToken},
		{"/host/api/games/" + c.ID + "/protocol.json", c.HostToken},
		{"/host/api/games/" + c.ID + "/protocol.csv", c.HostToken},
		{"/host/games/" + c.ID, c.HostToken}, // the running game's printable protocol shows every card
	} {
		req, _ := http.NewRequest("GET", ts.URL+g.path, nil)
		req.Header.Set("Authorization", "Bearer "+g.token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if cc := res.Header.Get("Cache-Control"); res.StatusCode != http.StatusOK || cc != "no-store" {
			t.Errorf("GET %s: %s, Cache-Control %q", g.path, res.Status, cc)
		}
	}
}
