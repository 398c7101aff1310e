package attack

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"mafia/server"
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
	// The burst as served (200), its refill slowed from 20 GETs a second
	// to 1: at 20, a flood of pages that each took 400 ms to answer (under
	// the race detector beside the rest of CI) was given back as fast as it
	// came, and 400 GETs of /players/pagehost were all answered (CI,
	// 2026-12-08). At 1 a second the burst is past within any 90 s.
	tg := start(t, func(c *server.Config) { c.Limits.GetRate = 1 })
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
		answered, limited := floodGets(ctx, t, flooder, tg.base+path, n)
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

// floodWorkers is how many GETs a flooder keeps in flight: the address's
// rate (20 a second as served; 1 in TestAttack_GetFloodEveryPart) must be
// outpaced however slowly one request goes. One
// at a time, 400 GETs of /api/account/me were all answered under the race
// detector beside browser tests (2026-12-07): each took about the 50 ms in
// which the rate gives a GET back.
const floodWorkers = 8

// floodGets sends GETs of url from one client, floodWorkers at a time, until
// one is refused 429 (checked to be rate_limited with a Retry-After) or n
// are sent; it returns how many were answered otherwise, and whether one
// was refused.
func floodGets(ctx context.Context, t *testing.T, c *http.Client, url string, n int) (answered int, limited bool) {
	t.Helper()
	var (
		mu     sync.Mutex
		sent   int
		failed error
	)
	take := func() bool {
		mu.Lock()
		defer mu.Unlock()
		if limited || failed != nil || sent >= n {
			return false
		}
		sent++
		return true
	}
	var wg sync.WaitGroup
	for range floodWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for take() {
				req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
				resp, err := c.Do(req)
				if err != nil {
					mu.Lock()
					failed = err
					mu.Unlock()
					return
				}
				if resp.StatusCode == http.StatusTooManyRequests {
					var body struct {
						Error struct{ Code string } `json:"error"`
					}
					_ = json.NewDecoder(resp.Body).Decode(&body)
					if retry, _ := strconv.Atoi(resp.Header.Get("Retry-After")); retry < 1 || body.Error.Code != "rate_limited" {
						t.Errorf("GET %s refused %q with Retry-After %q, want rate_limited and a Retry-After", url, body.Error.Code, resp.Header.Get("Retry-After"))
					}
					mu.Lock()
					limited = true
					mu.Unlock()
				} else {
					mu.Lock()
					answered++
					mu.Unlock()
				}
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	if failed != nil {
		t.Fatalf("GET %s: %v", url, failed)
	}
	return answered, limited
}
