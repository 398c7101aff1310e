package assist_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// liveClock is the clock part of GET /host/api/games/{id}/live's answer.
type liveClock struct {
	Clock *assist.Clock
	Now   time.Time
}

// join invites a referee to game c and joins with the code: the key.
func join(t *testing.T, ts *hosttest.Server, c hosttest.Created, name string) string {
	t.Helper()
	base := ts.URL + "/host/api/games/" + c.ID
	var inv struct{ Code string }
	if code := hosttest.Call(t, "POST", base+"/cohosts", c.HostToken, map[string]any{"name": name}, &inv); code != http.StatusOK {
		t.Fatalf("invite: %d", code)
	}
	var joined struct{ Key string }
	if code := hosttest.Call(t, "POST", base+"/cohosts/join", "", map[string]any{"code": inv.Code}, &joined); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	return joined.Key
}

// TestClock_TheRefereeReadsTheHostsLastClockStampedByTheServer: the live
// game carries no clock until the host's phone tells one; then the last
// state it told (a later one replaces the earlier), stamped with the
// server's time, with the server's time now, so the referee's phone counts
// the time left without trusting either phone's own clock. Only the host
// tells the clock: the referee and a stranger are refused.
func TestClock_TheRefereeReadsTheHostsLastClockStampedByTheServer(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	base := ts.URL + "/host/api/games/" + c.ID
	key := join(t, ts, c, "Keti")
	var l liveClock
	if code := hosttest.Call(t, "GET", base+"/live", key, nil, &l); code != http.StatusOK || l.Clock != nil || l.Now.IsZero() {
		t.Fatalf("before the host told a clock: %d %+v", code, l)
	}
	running := map[string]any{"key": "speech:1:3", "seat": 3, "total": 60000, "left": 58000, "running": true}
	paused := map[string]any{"key": "speech:1:3", "seat": 3, "total": 60000, "left": 41250, "running": false}
	for _, body := range []map[string]any{running, paused} {
		if code := hosttest.Call(t, "PUT", base+"/clock", c.HostToken, body, nil); code != http.StatusOK {
			t.Fatalf("the host tells %v: %d", body, code)
		}
	}
	if code := hosttest.Call(t, "GET", base+"/live", key, nil, &l); code != http.StatusOK || l.Clock == nil {
		t.Fatalf("the referee reads: %d %+v", code, l)
	}
	if got := *l.Clock; got.Key != "speech:1:3" || got.Seat != 3 || got.Total != 60000 || got.Left != 41250 || got.Running || got.At.IsZero() || got.At.After(l.Now) {
		t.Fatalf("the referee reads %+v (now %v): want the last state told, paused at 41250 ms", got, l.Now)
	}
	var e refusal
	for who, tok := range map[string]string{"the referee": key, "a stranger": "feedfacefeedfacefeedfacefeedface"} {
		if code := hosttest.Call(t, "PUT", base+"/clock", tok, running, &e); code != http.StatusForbidden || e.Error.Message == "" {
			t.Errorf("%s tells the clock: %d %+v", who, code, e)
		}
	}
	// A step without a clock (the vote, the night) is told as no key.
	if code := hosttest.Call(t, "PUT", base+"/clock", c.HostToken, map[string]any{"key": ""}, nil); code != http.StatusOK {
		t.Fatalf("no clock: %d", code)
	}
	if code := hosttest.Call(t, "GET", base+"/live", key, nil, &l); code != http.StatusOK || l.Clock == nil || l.Clock.Key != "" || l.Clock.Running {
		t.Fatalf("after no clock the referee reads %d %+v", code, l.Clock)
	}
}

// TestClock_AStateNotWellFormedIsRefusedAndTheLastIsKept: every field of
// the clock is bounded (the step's key, the seat within the table, the
// length within the settings' longest clock, the time left within the
// length, no time for a step without a clock, a body within 1 KiB); a
// state outside is refused with bad_clock (a sentence, in each
// language) and the clock held stays the one before it.
func TestClock_AStateNotWellFormedIsRefusedAndTheLastIsKept(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	base := ts.URL + "/host/api/games/" + c.ID
	good := map[string]any{"key": "speech:1:2", "seat": 2, "total": 60000, "left": 30000, "running": false}
	if code := hosttest.Call(t, "PUT", base+"/clock", c.HostToken, good, nil); code != http.StatusOK {
		t.Fatalf("a good state: %d", code)
	}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for a, b := range good {
			m[a] = b
		}
		m[k] = v
		return m
	}
	for _, bad := range []struct {
		name string
		body map[string]any
		code string
	}{
		{"a key too long", with("key", strings.Repeat("k", assist.MaxClockKey+1)), "bad_clock"},
		{"a seat beyond the table", with("seat", 8), "bad_clock"},
		{"a negative seat", with("seat", -1), "bad_clock"},
		{"a clock longer than the longest step", map[string]any{"key": "speech:1:2", "seat": 2, "total": assist.MaxClockMS + 1, "left": 0}, "bad_clock"},
		{"more time left than the clock's length", with("left", 60001), "bad_clock"},
		{"a negative time left", with("left", -5), "bad_clock"},
		{"a seat without a step", map[string]any{"key": "", "seat": 2}, "bad_clock"},
		{"a running clock without a step", map[string]any{"key": "", "running": true}, "bad_clock"},
		{"a body too long", with("key", strings.Repeat("k", 2000)), "bad_request"},
		{"an unknown field", with("until", 5), "bad_request"},
	} {
		var e refusal
		if code := hosttest.Call(t, "PUT", base+"/clock", c.HostToken, bad.body, &e); code != http.StatusBadRequest || e.Error.Code != bad.code || e.Error.Message == "" || e.Error.Message == bad.code {
			t.Errorf("%s: %d %+v, want 400 %s with a sentence", bad.name, code, e, bad.code)
		}
	}
	for lang, want := range map[string]string{"ka": "საათის", "en": "clock", "ru": "часов"} {
		req, _ := http.NewRequest("PUT", base+"/clock?lang="+lang, strings.NewReader(`{"key":"speech:1:2","seat":9,"total":1,"left":0}`))
		req.Header.Set("Authorization", "Bearer "+c.HostToken)
		req.Header.Set("Accept-Language", lang)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e refusal
		err = json.NewDecoder(res.Body).Decode(&e)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if e.Error.Code != "bad_clock" || !strings.Contains(e.Error.Message, want) {
			t.Errorf("in %s the refusal says %+v", lang, e)
		}
	}
	var l liveClock
	if code := hosttest.Call(t, "GET", base+"/live", c.HostToken, nil, &l); code != http.StatusOK || l.Clock == nil || l.Clock.Left != 30000 || l.Clock.Seat != 2 {
		t.Fatalf("after the refusals the clock is %+v", l.Clock)
	}
}

// TestClock_ToldTooOftenIsRefusedAndTheLastKept: each clock state
// rewrites the game's record, so a phone (or a script with the host's key)
// that tells it faster than MaxClockRate a second, past a burst of
// MaxClockBurst, is refused with 429 clock_too_often (a sentence, in each
// language) and the state held stays the last one taken. The states are
// told as fast as loopback answers, until the first refusal: the limit's
// refill (2 a second) cannot keep up with that, so a refusal comes within
// the bound, however slow the machine.
func TestClock_ToldTooOftenIsRefusedAndTheLastKept(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	base := ts.URL + "/host/api/games/" + c.ID
	taken := -1
	for i := 0; ; i++ {
		if i == 400 {
			t.Fatalf("400 clock states told back to back, none refused (the last taken %d)", taken)
		}
		var e refusal
		body := map[string]any{"key": "speech:1:2", "seat": 2, "total": 60000, "left": 1000 + i, "running": false}
		code := hosttest.Call(t, "PUT", base+"/clock", c.HostToken, body, &e)
		if code == http.StatusOK {
			taken = 1000 + i
			continue
		}
		if code != http.StatusTooManyRequests || e.Error.Code != "clock_too_often" || e.Error.Message == "" || e.Error.Message == "clock_too_often" {
			t.Fatalf("state %d: %d %+v, want 429 clock_too_often with a sentence", i, code, e)
		}
		if i < assist.MaxClockBurst {
			t.Fatalf("refused at the %d. state, within the burst of %d", i+1, assist.MaxClockBurst)
		}
		break
	}
	var l liveClock
	if code := hosttest.Call(t, "GET", base+"/live", c.HostToken, nil, &l); code != http.StatusOK || l.Clock == nil || l.Clock.Left != taken {
		t.Fatalf("after the refusal the clock is %+v, want the last taken (left %d)", l.Clock, taken)
	}
	// Each language's sentence: told until refused again (the limit may
	// have taken one more state meanwhile).
	for lang, want := range map[string]string{"ka": "ხშირად", "en": "too often", "ru": "слишком часто"} {
		var e refusal
		for i := 0; e.Error.Code == ""; i++ {
			if i == 100 {
				t.Fatalf("in %s: 100 states told back to back, none refused", lang)
			}
			req, _ := http.NewRequest("PUT", base+"/clock", strings.NewReader(`{"key":"speech:1:2","seat":2,"total":60000,"left":5,"running":false}`))
			req.Header.Set("Authorization", "Bearer "+c.HostToken)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept-Language", lang)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != http.StatusOK {
				err = json.NewDecoder(res.Body).Decode(&e)
			}
			res.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		if e.Error.Code != "clock_too_often" || !strings.Contains(e.Error.Message, want) {
			t.Errorf("in %s the refusal says %+v", lang, e)
		}
	}
}
