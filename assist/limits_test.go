package assist_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/bot"
	"mafia/engine"
	"mafia/internal/sqlitetest"
	"mafia/rng"
	"mafia/store/sqlite"
)

// postJSON sends body as JSON with the host's token and the language, and
// returns the status, the Retry-After header and the body.
func postJSON(t *testing.T, url, token, lang string, body any) (int, string, []byte) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Language", lang)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Retry-After"), out
}

// limitRefusal is a refused request's body.
type limitRefusal struct {
	Applied *int `json:"applied"`
	Error   struct {
		Code, Message string
	} `json:"error"`
}

func readRefusal(t *testing.T, b []byte) limitRefusal {
	t.Helper()
	var r limitRefusal
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return r
}

// TestLimits_AGameHoldsAtMostMaxEntries: a phone that keeps sending
// entries (here a foul and its undo, over and over) fills the game to its
// most (Config.MaxEntries, small here: the default's size is the next
// test's); the next entry, and a rewrite that would leave more, are refused
// entries_full in the host's language, and the game keeps the entries and
// events it holds.
func TestLimits_AGameHoldsAtMostMaxEntries(t *testing.T) {
	const most = 41
	db, _ := sqlitetest.New(t)
	hs := httptest.NewServer(assist.New(assist.Config{Store: db, MaxEntries: most}))
	t.Cleanup(hs.Close)
	ts := &hosttest.Server{URL: hs.URL, DB: db}
	c := hosttest.Create7(t, ts, record.DealManual)
	list := hosttest.Entries(0, hosttest.Kill7, hosttest.Next, hosttest.Next)
	for len(list) < most {
		seq := len(list)
		list = append(list, hosttest.Entries(seq, foul(1))[0])
		if len(list) < most {
			list = append(list, undoOf(seq+1, seq))
		}
	}
	for from := 0; from < len(list); from += 10 {
		code, a := hosttest.SyncUp(t, ts, c, list[from:min(from+10, len(list))]...)
		if code != http.StatusOK || a.Applied != min(from+10, len(list)) {
			t.Fatalf("batch from %d: %d %+v", from, code, a)
		}
	}
	events := len(hosttest.StoredEvents(t, ts, c.ID))
	url := ts.URL + "/host/api/games/" + c.ID + "/sync"
	one := undoOf(most, most-1)
	code, _, b := postJSON(t, url, c.HostToken, "ka", map[string]any{"commands": []record.Command{one}})
	r := readRefusal(t, b)
	if code != http.StatusTooManyRequests || r.Error.Code != "entries_full" || r.Applied == nil || *r.Applied != most ||
		!strings.Contains(r.Error.Message, "41 ჩანაწერი") {
		t.Fatalf("the entry past the most: %d %s", code, b)
	}
	// A rewrite of the last entry into two would leave one more.
	last := list[most-1]
	two := hosttest.Entries(most-1, foul(2), foul(3))
	code, _, b = postJSON(t, url, c.HostToken, "ru", map[string]any{"commands": two,
		"rewrite": map[string]any{"from": most - 1, "was": last.ID}})
	r = readRefusal(t, b)
	if code != http.StatusTooManyRequests || r.Error.Code != "entries_full" || !strings.Contains(r.Error.Message, "41 запись,") {
		t.Fatalf("the rewrite past the most: %d %s", code, b)
	}
	if n := len(ts.StoredEntries(t, c.ID)); n != most {
		t.Fatalf("the store holds %d entries, want %d", n, most)
	}
	if n := len(hosttest.StoredEvents(t, ts, c.ID)); n != events {
		t.Fatalf("the store holds %d events after the refusals, %d before", n, events)
	}
}

// TestLimits_TheDefaultMostHoldsFiveTimesTheLongestGame: a game the bots
// play to its end at random (the longest of 2,000) has far fewer entries
// than a game may hold, so a host's fouls, undos and corrections never
// meet the limit.
func TestLimits_TheDefaultMostHoldsFiveTimesTheLongestGame(t *testing.T) {
	setup, err := engine.Preset(11)
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for seed := uint64(1); seed <= 2000; seed++ {
		roles := setup.Deal(seed, nil)
		var g engine.Game
		start, err := g.Start(engine.DefaultRules(), roles, seed)
		if err != nil {
			t.Fatal(err)
		}
		tb := bot.Table{Game: &g, Bots: make([]bot.Bot, len(roles)+1)}
		rs := make([]bot.Random, len(roles)+1)
		for s := 1; s < len(tb.Bots); s++ {
			rs[s].Src.Seed(rng.Derive(seed, uint64(s)))
			tb.Bots[s] = &rs[s]
		}
		n := 0
		tb.OnEvents = func(engine.Command, []engine.Event) { n++ }
		tb.Begin(start)
		if !tb.Play(100_000) {
			t.Fatalf("seed %d: the game did not end", seed)
		}
		longest = max(longest, n)
	}
	if longest == 0 || assist.DefaultMaxEntries < 5*longest {
		t.Fatalf("the longest game has %d entries: a game may hold %d, want at least five times it", longest, assist.DefaultMaxEntries)
	}
}

// limitedHost is the assistant with the new-game rate `mafia serve` gives
// it, on a clock the test moves, over a SQLite file.
func limitedHost(t *testing.T, unlimited ...netip.Prefix) (url string, clock *fakeNow, db *sqlite.DB) {
	t.Helper()
	db, _ = sqlitetest.New(t)
	clock = &fakeNow{t: time.Date(2026, 12, 6, 20, 0, 0, 0, time.UTC)}
	h := assist.New(assist.Config{Store: db, Now: clock.now, NewGames: assist.NewGameRates(), Unlimited: unlimited})
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return hs.URL, clock, db
}

type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeNow) now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.t }
func (f *fakeNow) add(d time.Duration) {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.mu.Unlock()
}

var sevenNames = map[string]any{"names": []string{"A", "B", "C", "D", "E", "F", "G"}, "deal": record.DealManual, "roles": hosttest.Roles7}

// TestLimits_OneAddressMakesAtMostABurstOfNewGamesThenOneAMinute: a
// tournament's round starts every table at once from one network (30
// games), the next game is refused 429 rate_limited with Retry-After in
// the host's language and nothing is stored; a minute later one more is
// taken.
func TestLimits_OneAddressMakesAtMostABurstOfNewGamesThenOneAMinute(t *testing.T) {
	url, clock, db := limitedHost(t)
	for i := range assist.NewGameBurst {
		if code, _, b := postJSON(t, url+"/host/api/games", "", "en", sevenNames); code != http.StatusCreated {
			t.Fatalf("game %d of the burst: %d %s", i+1, code, b)
		}
	}
	code, retry, b := postJSON(t, url+"/host/api/games", "", "ka", sevenNames)
	r := readRefusal(t, b)
	if code != http.StatusTooManyRequests || r.Error.Code != "rate_limited" || retry != fmt.Sprint(assist.NewGameEvery) ||
		!strings.Contains(r.Error.Message, fmt.Sprint(assist.NewGameEvery)+" წამში") {
		t.Fatalf("the game past the burst: %d Retry-After %q %s", code, retry, b)
	}
	if n := hosttest.TableCount(t, &hosttest.Server{DB: db}); n != assist.NewGameBurst {
		t.Fatalf("%d games stored, want %d", n, assist.NewGameBurst)
	}
	clock.add(time.Duration(assist.NewGameEvery) * time.Second)
	if code, _, b := postJSON(t, url+"/host/api/games", "", "en", sevenNames); code != http.StatusCreated {
		t.Fatalf("a minute later: %d %s", code, b)
	}
	if code, _, _ := postJSON(t, url+"/host/api/games", "", "en", sevenNames); code != http.StatusTooManyRequests {
		t.Fatalf("the one after it: %d, want 429", code)
	}
}

// TestLimits_AnUnlimitedAddressIsNotCounted: the server's --unlimited
// addresses (a load generator, a club's own gateway) make games past the
// burst.
func TestLimits_AnUnlimitedAddressIsNotCounted(t *testing.T) {
	url, _, _ := limitedHost(t, netip.MustParsePrefix("127.0.0.1/32"))
	for i := range assist.NewGameBurst + 5 {
		if code, _, b := postJSON(t, url+"/host/api/games", "", "en", sevenNames); code != http.StatusCreated {
			t.Fatalf("game %d: %d %s", i+1, code, b)
		}
	}
}
