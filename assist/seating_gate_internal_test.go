package assist

import (
	"context"
	"errors"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"mafia/engine"
	"mafia/internal/httpguard"
	"mafia/locale"
	"mafia/seating"
)

// blockedGenerator is a seating generator a test holds: each call says it
// began on began and returns the real seating once release is closed.
type blockedGenerator struct {
	calls   atomic.Int32
	began   chan seating.Config
	release chan struct{}
}

func newBlockedGenerator() *blockedGenerator {
	return &blockedGenerator{began: make(chan seating.Config, 16), release: make(chan struct{})}
}

func (b *blockedGenerator) generate(c seating.Config) (seating.Seating, error) {
	b.calls.Add(1)
	b.began <- c
	<-b.release
	return seating.Generate(c)
}

// countingGate is a gate on the real generator that counts its calls.
func countingGate() (*seatingGate, *atomic.Int32) {
	calls := new(atomic.Int32)
	return &seatingGate{generate: func(c seating.Config) (seating.Seating, error) {
		calls.Add(1)
		return seating.Generate(c)
	}}, calls
}

// seatingForm is the page's address for twenty players at two tables for
// two games, in lang, with seed.
func seatingForm(base, lang, seed string) string {
	q := url.Values{"lang": {lang}, "names": {strings.Repeat("p\n", 19) + "p"}, "tables": {"2"}, "games": {"2"}, "seed": {seed}}
	return base + "/host/seating?" + q.Encode()
}

func seatingCfg(seed uint64) seating.Config {
	return seating.Config{Players: 20, Tables: 2, Seats: 10, Games: 2, Seed: seed}
}

func codeIs(err error, c engine.Code) bool {
	var e *engine.Error
	return errors.As(err, &e) && e.Code == c
}

// TestSeatingGate_OneSeatingIsMadeAtATime: while a seating is being made,
// a request for another is refused seating_busy at once, and a request for
// the same one waits for it and gets it without a second generation.
func TestSeatingGate_OneSeatingIsMadeAtATime(t *testing.T) {
	b := newBlockedGenerator()
	g := &seatingGate{generate: b.generate}
	type result struct {
		s   seating.Seating
		err error
	}
	first, same := make(chan result, 1), make(chan result, 1)
	go func() {
		s, err := g.Seating(context.Background(), seatingCfg(1), nil)
		first <- result{s, err}
	}()
	<-b.began // the first is being made
	if _, err := g.Seating(context.Background(), seatingCfg(2), nil); !codeIs(err, CodeSeatingBusy) {
		t.Fatalf("another seating while one is made: %v; want %s", err, CodeSeatingBusy)
	}
	go func() {
		s, err := g.Seating(context.Background(), seatingCfg(1), nil)
		same <- result{s, err}
	}()
	for waits := 0; waits == 0; runtime.Gosched() { // until the twin waits for the first
		g.mu.Lock()
		waits = g.waits
		g.mu.Unlock()
	}
	close(b.release)
	a, c := <-first, <-same
	if a.err != nil || c.err != nil || len(a.s.Rounds) == 0 {
		t.Fatalf("the seating and its twin: %v, %v", a.err, c.err)
	}
	if want, _ := seating.Generate(seatingCfg(1)); !reflect.DeepEqual(a.s, want) || !reflect.DeepEqual(c.s, want) {
		t.Fatal("the waiting request got another seating than the generator's")
	}
	if n := b.calls.Load(); n != 1 {
		t.Fatalf("%d generations for one seating asked twice; want 1", n)
	}
	// Once it is done, another seating is made.
	if _, err := g.Seating(context.Background(), seatingCfg(2), nil); err != nil {
		t.Fatalf("another seating after the first was done: %v", err)
	}
}

// TestSeatingGate_TheLastSeatingsAreKept: the same form again is answered
// without the generator, for the last seatingKept forms; an older one is
// made again.
func TestSeatingGate_TheLastSeatingsAreKept(t *testing.T) {
	g, calls := countingGate()
	for seed := uint64(1); seed <= seatingKept; seed++ {
		if _, err := g.Seating(context.Background(), seatingCfg(seed), nil); err != nil {
			t.Fatal(err)
		}
	}
	for seed := uint64(seatingKept); seed >= 1; seed-- { // all kept, the oldest last
		if _, err := g.Seating(context.Background(), seatingCfg(seed), nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := calls.Load(); n != seatingKept {
		t.Fatalf("%d generations for %d seatings each asked twice; want %d", n, seatingKept, seatingKept)
	}
	// A refusal is kept too: it is the generator's answer for that form.
	bad := seatingCfg(1)
	bad.Players = 21 // 42 games in rounds of 20 seats
	for range 2 {
		if _, err := g.Seating(context.Background(), bad, nil); !codeIs(err, seating.CodeSeatingUneven) {
			t.Fatalf("an uneven seating: %v", err)
		}
	}
	if n := calls.Load(); n != seatingKept+1 {
		t.Fatalf("%d generations; want %d (the refusal kept)", n, seatingKept+1)
	}
	// Asked last, seating 1 is the most recent and seating 8 the least:
	// the refusal put it out, so it is made again and 1 is not.
	if _, err := g.Seating(context.Background(), seatingCfg(1), nil); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != seatingKept+1 {
		t.Fatalf("%d generations after asking for a kept one; want %d", n, seatingKept+1)
	}
	if _, err := g.Seating(context.Background(), seatingCfg(8), nil); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != seatingKept+2 {
		t.Fatalf("%d generations after asking for the one put out; want %d", n, seatingKept+2)
	}
}

// TestSeatingGate_AGeneratorThatPanicsOpensTheGateAgain: net/http recovers
// a handler's panic, so a panic inside the generator must not leave every
// later seating refused busy.
func TestSeatingGate_AGeneratorThatPanicsOpensTheGateAgain(t *testing.T) {
	panics := true
	g := &seatingGate{generate: func(c seating.Config) (seating.Seating, error) {
		if panics {
			panic("the generator's bug")
		}
		return seating.Generate(c)
	}}
	func() {
		defer func() { _ = recover() }()
		_, _ = g.Seating(context.Background(), seatingCfg(1), nil)
	}()
	panics = false
	if _, err := g.Seating(context.Background(), seatingCfg(2), nil); err != nil {
		t.Fatalf("a seating after the generator panicked: %v", err)
	}
}

// TestSeatingPage_AnotherSeatingWhileOneIsMadeIsRefusedInTheReadersLanguage:
// the page's refusal while the server is making another seating: 503 and
// seating_busy's sentence, in Georgian, English and Russian, no cards.
func TestSeatingPage_AnotherSeatingWhileOneIsMadeIsRefusedInTheReadersLanguage(t *testing.T) {
	h := New(Config{})
	b := newBlockedGenerator()
	h.seatings.generate = b.generate
	ts := httptest.NewServer(h)
	defer ts.Close()
	form := func(lang, seed string) string { return seatingForm(ts.URL, lang, seed) }
	done := make(chan int, 1)
	go func() {
		res, err := http.Get(form("en", "1"))
		if err != nil {
			done <- 0
			return
		}
		res.Body.Close()
		done <- res.StatusCode
	}()
	<-b.began
	for _, lang := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		res, err := http.Get(form(string(lang), "2"))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		page := string(body)
		say := html.EscapeString(locale.New(lang).Refusal(&engine.Error{Code: CodeSeatingBusy}))
		if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(page, `data-t="seating-error">`+say+`<`) ||
			strings.Contains(page, `class="seating-card"`) {
			t.Errorf("%s: %d, page without %q or with cards; want 503", lang, res.StatusCode, say)
		}
	}
	close(b.release)
	if st := <-done; st != http.StatusOK {
		t.Fatalf("the seating being made: %d; want 200", st)
	}
}

// TestSeatingGate_ASeatingItsRateRefusesIsNotMade: allow's refusal (the
// address's rate of new seatings) is the answer, the generator is not
// called and the gate is not held; a kept seating asks allow nothing.
func TestSeatingGate_ASeatingItsRateRefusesIsNotMade(t *testing.T) {
	g, calls := countingGate()
	refuse := func() error { return &engine.Error{Code: CodeRateLimited, N: 20} }
	if _, err := g.Seating(context.Background(), seatingCfg(1), refuse); !codeIs(err, CodeRateLimited) {
		t.Fatalf("a seating its rate refuses: %v; want %s", err, CodeRateLimited)
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("%d generations for a refused seating", n)
	}
	if _, err := g.Seating(context.Background(), seatingCfg(1), nil); err != nil {
		t.Fatalf("the same seating, allowed, after the refusal: %v (the gate held?)", err)
	}
	if _, err := g.Seating(context.Background(), seatingCfg(1), refuse); err != nil {
		t.Fatalf("a kept seating asked again: %v; want it without asking the rate", err)
	}
}

// TestSeatingPage_OneAddressesNewSeatingsAreRated: past its burst of new
// seatings, an address's next new one is refused 429 rate_limited with a
// Retry-After and its sentence in the reader's language; the seatings it
// already had are still answered.
func TestSeatingPage_OneAddressesNewSeatingsAreRated(t *testing.T) {
	h := New(Config{Seatings: httpguard.NewRates(1.0/3600, 2)})
	ts := httptest.NewServer(h)
	defer ts.Close()
	get := func(lang, seed string) (int, string, string) {
		res, err := http.Get(seatingForm(ts.URL, lang, seed))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res.StatusCode, string(body), res.Header.Get("Retry-After")
	}
	for _, seed := range []string{"1", "2"} {
		if st, _, _ := get("en", seed); st != http.StatusOK {
			t.Fatalf("seating %s within the burst: %d", seed, st)
		}
	}
	for _, lang := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		st, page, retry := get(string(lang), "3")
		if st != http.StatusTooManyRequests || retry == "" || retry == "0" || !strings.Contains(page, `data-t="seating-error">`) ||
			strings.Contains(page, `class="seating-card"`) {
			t.Errorf("%s: a new seating past the burst: %d, Retry-After %q; want 429 with the refusal and no cards", lang, st, retry)
			continue
		}
		n, _ := strconv.Atoi(retry)
		say := html.EscapeString(locale.New(lang).Refusal(&engine.Error{Code: CodeRateLimited, N: n}))
		if !strings.Contains(page, `data-t="seating-error">`+say+`<`) {
			t.Errorf("%s: the refusal is not rate_limited's sentence %q", lang, say)
		}
	}
	if st, _, _ := get("ru", "1"); st != http.StatusOK {
		t.Fatalf("a seating the address had, asked again past its rate: %d; want it kept", st)
	}
}
