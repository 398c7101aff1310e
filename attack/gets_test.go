package attack

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestAttack_GetFloodEveryPart (issue 25, item 12, the parts left open):
// one address pours out GETs of each public part that is not the lobby's
// API, one path per address: a player's page data, the account's me and
// bots, the catalogs, the browser client's pages and the host's
// assistant's lists. Past its burst each is refused with 429 rate_limited
// and a Retry-After, the same rate the lobby's GETs take from, while
// another address's GETs of the same paths are answered (and a GET of the
// lobby's API is counted once, not twice), and the limited
// address still gets the files its page is made of. A real player plays
// meanwhile. Today's build answered every one of these GETs.
func TestAttack_GetFloodEveryPart(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 90*time.Second)
	wait := tg.playsMeanwhile(ctx, t, "127.0.170.1")
	jsonHdr := map[string]string{"Content-Type": "application/json"}
	if a := ask(ctx, t, from("127.0.170.2"), "POST", tg.base+"/api/account/signup", jsonHdr,
		`{"name":"pagehost","password":"the real password"}`); a.status != http.StatusOK {
		t.Fatalf("signup: %d %s", a.status, a.code)
	}
	paths := []string{
		"/api/players/pagehost",
		"/api/account/me",
		"/api/account/bots",
		"/api/account/nothing-here",
		"/api/i18n/ka",
		"/players/pagehost",
		"/t/abcdef",
		"/host/api/games",
		"/host/api/clubs/mine",
		"/host/",
		"/api/tables", // the server's own: counted once, not again by the face
	}
	n := count(1000, 400)
	for i, path := range paths {
		flooder := from(fmt.Sprintf("127.0.171.%d", i+1))
		answered, limited := 0, false
		for j := 0; j < n && !limited; j++ {
			req, _ := http.NewRequestWithContext(ctx, "GET", tg.base+path, nil)
			resp, err := flooder.Do(req)
			if err != nil {
				t.Fatalf("GET %s: %v", path, err)
			}
			if resp.StatusCode == http.StatusTooManyRequests {
				limited = true
				var body struct {
					Error struct{ Code string } `json:"error"`
				}
				_ = json.NewDecoder(resp.Body).Decode(&body)
				if retry, _ := strconv.Atoi(resp.Header.Get("Retry-After")); retry < 1 || body.Error.Code != "rate_limited" {
					t.Errorf("GET %s refused %q with Retry-After %q, want rate_limited and a Retry-After", path, body.Error.Code, resp.Header.Get("Retry-After"))
				}
			} else {
				answered++
			}
			resp.Body.Close()
		}
		if !limited {
			t.Errorf("%d GETs of %s from one address: all answered, none rate_limited", n, path)
			continue
		}
		if a := ask(ctx, t, from("127.0.172.1"), "GET", tg.base+path, nil, ""); a.status == http.StatusTooManyRequests {
			t.Errorf("another address's GET %s meanwhile: %d %s", path, a.status, a.code)
		}
		if answered < 200 { // the burst: a GET counted twice would be refused at about half
			t.Errorf("GET %s refused after %d answered, fewer than the burst of 200", path, answered)
		}
		t.Logf("GET %s: %d answered, then rate_limited", path, answered)
	}
	// The limited address still loads its page's files and the probes answer.
	page := ask(ctx, t, from("127.0.172.2"), "GET", tg.base+"/", nil, "")
	if page.status != http.StatusOK {
		t.Fatalf("the page: %d", page.status)
	}
	limitedOne := from("127.0.171.1")
	for _, path := range []string{"/healthz", "/favicon.ico"} {
		if a := ask(ctx, t, limitedOne, "GET", tg.base+path, nil, ""); a.status == http.StatusTooManyRequests {
			t.Errorf("GET %s from a limited address: %d %s", path, a.status, a.code)
		}
	}
	wait()
}
