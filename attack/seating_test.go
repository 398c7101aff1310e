package attack

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"mafia/assist"
	"mafia/engine"
	"mafia/locale"
)

// TestAttack_SeatingFloodOfManyAddresses: the host's seating cards
// (/host/seating) are open to anyone, and each seating is up to
// seating.MaxMoves of annealing (seconds of a core; before the bound, 300
// players of 100 games each took 76 s). Eight addresses ask at once for
// eight different seatings: the server makes one at a time, so those that
// come while one is made are refused 503 with seating_busy's sentence in
// the reader's language, and none is answered any other way. The flood is
// sent again with new seeds until one is refused (at most five times:
// without the gate none ever is; with it, eight requests sent at once
// that all miss each other's generation, five times over, would need a
// machine that holds each for longer than a seating takes). A seating
// refused is made when asked again after the flood. A real player plays
// meanwhile.
func TestAttack_SeatingFloodOfManyAddresses(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 3*time.Minute)
	wait := tg.playsMeanwhile(ctx, t, "127.0.180.1")
	// 20 players at 2 tables for 1 game: 60,000 moves, 14 ms of a core (0.3 s
	// under the race detector on an idle machine). 40 players at 4 tables
	// for 2 games took 1.2 s under the race detector at rest, and past the
	// suite's write timeout of 8 s beside the rest of CI, which ended the
	// answer with EOF.
	names := strings.TrimSuffix(strings.Repeat("p\n", 20), "\n")
	form := func(lang string, seed int) string {
		q := url.Values{"lang": {lang}, "names": {names}, "tables": {"2"}, "games": {"1"}, "seed": {fmt.Sprint(seed)}}
		return tg.base + "/host/seating?" + q.Encode()
	}
	busy := html.EscapeString(locale.New(locale.Ru).Refusal(&engine.Error{Code: assist.CodeSeatingBusy}))
	const n = 8
	type result struct {
		status int
		page   string
		err    error
	}
	refusedSeed := 0
	for round := 0; round < 5 && refusedSeed == 0; round++ {
		results := make([]result, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequestWithContext(ctx, "GET", form("ru", round*n+i+1), nil)
				resp, err := from(fmt.Sprintf("127.0.181.%d", i+1)).Do(req)
				if err != nil {
					results[i].err = err
					return
				}
				defer resp.Body.Close()
				body, err := io.ReadAll(resp.Body)
				results[i] = result{resp.StatusCode, string(body), err}
			}()
		}
		wg.Wait()
		made, refused := 0, 0
		for i, r := range results {
			switch {
			case r.err != nil:
				t.Fatalf("seating %d: %v", round*n+i+1, r.err)
			case r.status == http.StatusOK && strings.Contains(r.page, `class="seating-card"`):
				made++
			case r.status == http.StatusServiceUnavailable && strings.Contains(r.page, `data-t="seating-error">`+busy+`<`):
				refused++
				refusedSeed = round*n + i + 1
			default:
				t.Fatalf("seating %d: %d, neither the cards nor seating_busy's sentence", round*n+i+1, r.status)
			}
		}
		t.Logf("round %d: %d seatings asked at once, %d made, %d refused seating_busy", round+1, n, made, refused)
	}
	if refusedSeed == 0 {
		t.Fatalf("five floods of %d seatings asked at once were all made: nothing holds the generator to one at a time", n)
	}
	// Once the flood is over, a seating refused is made when asked again.
	if a := ask(ctx, t, from("127.0.182.1"), "GET", form("en", refusedSeed), nil, ""); a.status != http.StatusOK {
		t.Errorf("seating %d asked again after the flood: %d", refusedSeed, a.status)
	}
	wait()
}

// TestAttack_OneAddressCannotKeepTheSeatingGeneratorToItself: one address
// asking for new seating after new seating (one at a time, so never
// refused busy) is refused 429 rate_limited with a Retry-After once past
// its burst (assist.SeatingBurst), while another address's new seating is
// made. The seatings here are of one table that seats everyone, which the
// generator makes without annealing: the rate counts seatings, not their
// cost.
func TestAttack_OneAddressCannotKeepTheSeatingGeneratorToItself(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 90*time.Second)
	names := strings.TrimSuffix(strings.Repeat("p\n", 10), "\n")
	form := func(seed int) string {
		q := url.Values{"lang": {"ka"}, "names": {names}, "tables": {"1"}, "games": {"1"}, "seed": {fmt.Sprint(seed)}}
		return tg.base + "/host/seating?" + q.Encode()
	}
	hog := from("127.0.183.1")
	made := 0
	for seed := 1; seed <= assist.SeatingBurst+5; seed++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", form(seed), nil)
		resp, err := hog.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			made++
			continue
		}
		retry := resp.Header.Get("Retry-After")
		if resp.StatusCode != http.StatusTooManyRequests || retry == "" || retry == "0" || !strings.Contains(string(body), `data-t="seating-error">`) {
			t.Fatalf("seating %d from one address: %d, Retry-After %q; want 200 or 429 with the refusal", seed, resp.StatusCode, retry)
		}
		break
	}
	if made != assist.SeatingBurst {
		t.Fatalf("one address made %d new seatings before a refusal; want the burst, %d", made, assist.SeatingBurst)
	}
	if a := ask(ctx, t, from("127.0.183.2"), "GET", form(1000), nil, ""); a.status != http.StatusOK {
		t.Errorf("another address's new seating meanwhile: %d", a.status)
	}
}
