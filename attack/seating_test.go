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
// eight different seatings, each a second or more of the generator: the
// server makes one at a time, so at least one is refused 503 with
// seating_busy's sentence in the reader's language, none is answered any
// other way, and the same form asked again afterwards is answered (kept or
// made). A real player plays meanwhile.
func TestAttack_SeatingFloodOfManyAddresses(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 3*time.Minute)
	wait := tg.playsMeanwhile(ctx, t, "127.0.180.1")
	names := strings.TrimSuffix(strings.Repeat("p\n", 100), "\n")
	form := func(lang string, seed int) string {
		q := url.Values{"lang": {lang}, "names": {names}, "tables": {"10"}, "games": {"4"}, "seed": {fmt.Sprint(seed)}}
		return tg.base + "/host/seating?" + q.Encode()
	}
	busy := html.EscapeString(locale.New(locale.Ru).Refusal(&engine.Error{Code: assist.CodeSeatingBusy}))
	const n = 8
	type result struct {
		status int
		page   string
		err    error
	}
	results := make([]result, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, "GET", form("ru", i+1), nil)
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
			t.Fatalf("seating %d: %v", i+1, r.err)
		case r.status == http.StatusOK && strings.Contains(r.page, `class="seating-card"`):
			made++
		case r.status == http.StatusServiceUnavailable && strings.Contains(r.page, `data-t="seating-error">`+busy+`<`):
			refused++
		default:
			t.Errorf("seating %d: %d, neither the cards nor seating_busy's sentence", i+1, r.status)
		}
	}
	t.Logf("%d seatings asked at once: %d made, %d refused seating_busy", n, made, refused)
	if refused == 0 {
		t.Errorf("%d seatings asked at once were all made: nothing holds the generator to one at a time", n)
	}
	// Once the flood is over, a seating refused is made when asked again.
	for i, r := range results {
		if r.status != http.StatusServiceUnavailable {
			continue
		}
		if a := ask(ctx, t, from("127.0.182.1"), "GET", form("en", i+1), nil, ""); a.status != http.StatusOK {
			t.Errorf("seating %d asked again after the flood: %d", i+1, a.status)
		}
		break
	}
	wait()
}
