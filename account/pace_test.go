package account

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestPacer_AnAddressesRefusalsAreSpacedAndCapped pins the pacer's
// arithmetic: one address's refusals asked for at the same moment wait
// one turn more each, never less than the hold nor more than its cap;
// another address has turns of its own; and past the addresses it keeps,
// a new one waits the cap.
func TestPacer_AnAddressesRefusalsAreSpacedAndCapped(t *testing.T) {
	t0 := time.Date(2026, 12, 5, 18, 0, 0, 0, time.UTC)
	p := newPacer(100*time.Millisecond, 250*time.Millisecond, time.Second, 2)
	var got []time.Duration
	for range 13 {
		got = append(got, p.wait("10.0.0.1", t0))
	}
	want := "[250ms 250ms 300ms 400ms 500ms 600ms 700ms 800ms 900ms 1s 1s 1s 1s]"
	if fmt.Sprint(got) != want {
		t.Errorf("13 refusals at once: waits %v, want %s", got, want)
	}
	if d := p.wait("10.0.0.2", t0); d != 250*time.Millisecond {
		t.Errorf("another address's first refusal waits %v, want the hold", d)
	}
	if d := p.wait("10.0.0.3", t0); d != time.Second || p.size() != 2 {
		t.Errorf("a third address past the two kept: waits %v (kept %d), want the cap", d, p.size())
	}
	later := t0.Add(2 * time.Second)
	if d := p.wait("10.0.0.3", later); d != 250*time.Millisecond || p.size() != 1 {
		t.Errorf("once the others' turns are past, a new address: waits %v (kept %d), want the hold and one kept", d, p.size())
	}
	if d := p.wait("10.0.0.1", later); d != 250*time.Millisecond {
		t.Errorf("an address asking again after its turns are past waits %v, want the hold", d)
	}
}

// TestHTTP_MoreConnectionsBuyAFloodNoMoreRefusals (issue 25, the login
// flood at many connections an address): a spent address that asks on 24
// connections at once gets its refusals one turn apart, not 24 at once
// after the hold, so its refusals a second do not grow with its
// connections. (The bound is a floor on the waiting: a slow machine
// only makes it longer.)
func TestHTTP_MoreConnectionsBuyAFloodNoMoreRefusals(t *testing.T) {
	const conns, every = 24, 50 * time.Millisecond
	svc, _ := newTestService(t, Config{PerAddress: Limit{Every: time.Hour, Burst: 1}})
	hs := httptest.NewServer(NewHandler(HandlerConfig{Service: svc, Hold: 10 * time.Millisecond, HoldEvery: every, HoldMax: 10 * time.Second}))
	t.Cleanup(hs.Close)
	post := func(c *http.Client) (int, string) {
		resp, err := c.Post(hs.URL+"/api/account/login", "application/json", strings.NewReader(`{"name":"nino","password":"guess1234"}`))
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 512)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, b.String()
	}
	if code, body := post(hs.Client()); code != http.StatusForbidden {
		t.Fatalf("the one guess of the address's burst: %d %s", code, body)
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			c := &http.Client{Transport: &http.Transport{}}
			defer c.CloseIdleConnections()
			if code, body := post(c); code != http.StatusTooManyRequests || !strings.Contains(body, `"code":"login_limited"`) {
				t.Errorf("a flood's connection: %d %s, want 429 login_limited", code, body)
			}
		})
	}
	wg.Wait()
	if took, floor := time.Since(start), (conns-1)*every; took < floor {
		t.Errorf("%d connections of one spent address were all refused within %v: want one refusal every %v (at least %v)", conns, took, every, floor)
	}
}
