package assist_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
	"mafia/locale"
	"mafia/store"
)

func TestAGameMadeOnThePhoneIsStoredAsThePhoneMadeIt(t *testing.T) {
	ts := hosttest.StartServer(t)
	const seed = "18446744073709551557" // near the top of uint64: no rounding anywhere
	req := hosttest.PhoneCreate(t, hosttest.Names7, record.DealPass, seed)
	want := hosttest.PhoneDeal(t, req, seed)

	var c hosttest.Created
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", req, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if c.ID != req["id"] || c.HostToken != req["host_token"] {
		t.Fatalf("the server answered id %q token %q, the phone's are %q %q", c.ID, c.HostToken, req["id"], req["host_token"])
	}
	if c.Settings.Seed != seed || !slices.Equal(c.Settings.Roles, want.Roles) || len(c.Cards) != 0 {
		t.Fatalf("the server's settings %+v, the phone's %+v", c.Settings, want)
	}
	// The server's own engine, from the seed alone, deals the same cards.
	n, _ := strconv.ParseUint(seed, 10, 64)
	p, _ := engine.Preset(7)
	if got := record.RoleNames(p.Deal(n, make([]engine.Role, 7))); !slices.Equal(got, want.Roles) {
		t.Fatalf("the engine deals %v from the seed, the phone dealt %v", got, want.Roles)
	}
	tbl, _, err := ts.DB.Table(context.Background(), store.KindInPerson, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	phoneDate, _ := time.Parse(time.RFC3339Nano, req["created"].(string))
	if !tbl.CreatedAt.Equal(phoneDate) || tbl.Name != "Friday" || tbl.Seed != n {
		t.Fatalf("stored table: created %v (phone %v), name %q, seed %d", tbl.CreatedAt, phoneDate, tbl.Name, tbl.Seed)
	}
	events := len(hosttest.StoredEvents(t, ts, c.ID))

	// The answer was lost: the phone sends the same create again.
	var again hosttest.Created
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", req, &again); code != http.StatusOK {
		t.Fatalf("the same create again: %d", code)
	}
	a, _ := json.Marshal(again)
	b, _ := json.Marshal(c)
	if string(a) != string(b) {
		t.Fatalf("the repeat answers %s, the first %s", a, b)
	}
	if got := len(hosttest.StoredEvents(t, ts, c.ID)); got != events || hosttest.TableCount(t, ts) != 1 {
		t.Fatalf("after a repeat: %d events (was %d), %d games", got, events, hosttest.TableCount(t, ts))
	}

	// The phone's token is the host's: its entries are taken.
	g, _, _ := record.Replay(&c.Settings, nil)
	var mafia engine.Seat
	for s := 1; s <= 7; s++ {
		if g.Role(engine.Seat(s)) == engine.Don {
			mafia = engine.Seat(s)
		}
	}
	victim := engine.Seat(1)
	if victim == mafia || g.Role(victim).Team() == engine.TeamMafia {
		victim = 7
		if g.Role(victim).Team() == engine.TeamMafia {
			victim = 6
		}
	}
	cmds := record.MafiaCommands(g, victim)
	var list []record.Command
	for i, ec := range cmds {
		rc := record.FromEngine(ec)
		rc.Seq, rc.ID = i, "e"+strconv.Itoa(i)
		list = append(list, rc)
	}
	if code, ans := hosttest.SyncUp(t, ts, c, list...); code != http.StatusOK || ans.Applied != len(list) {
		t.Fatalf("sync with the phone's token: %d %+v", code, ans)
	}
}

func TestConcurrentRepeatsOfAPhoneGameMakeOneGame(t *testing.T) {
	ts := hosttest.StartServer(t)
	req := hosttest.PhoneCreate(t, hosttest.Names7, record.DealPass, "42")
	var wg sync.WaitGroup
	codes := make([]int, 8)
	for i := range codes {
		wg.Go(func() { codes[i] = hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", req, nil) })
	}
	wg.Wait()
	made := 0
	for _, c := range codes {
		switch c {
		case http.StatusCreated:
			made++
		case http.StatusOK:
		default:
			t.Fatalf("answers %v", codes)
		}
	}
	if made != 1 || hosttest.TableCount(t, ts) != 1 {
		t.Fatalf("answers %v, %d games", codes, hosttest.TableCount(t, ts))
	}
	if got := len(hosttest.StoredEvents(t, ts, "0123456789abcdef")); got != 2 {
		t.Fatalf("%d events stored, want GameStarted and NightBegan once", got)
	}
}

func TestADifferentGameUnderATakenIDIsRefused(t *testing.T) {
	ts := hosttest.StartServer(t)
	first := hosttest.PhoneCreate(t, hosttest.Names7, record.DealPass, "7")
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", first, nil); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	before := ts.StoredTable(t, "0123456789abcdef")
	online := hosttest.Create7(t, ts, record.DealPass) // an id the server made

	other := func(change func(m map[string]any)) map[string]any {
		m := hosttest.PhoneCreate(t, hosttest.Names7, record.DealPass, "7")
		change(m)
		return m
	}
	for name, req := range map[string]map[string]any{
		"other names": other(func(m map[string]any) {
			m["names"] = []string{"A", "B", "C", "D", "E", "F", "G"}
		}),
		"other token": other(func(m map[string]any) { m["host_token"] = strings.Repeat("cd", 24) }),
		"other seed": func() map[string]any {
			m := hosttest.PhoneCreate(t, hosttest.Names7, record.DealPass, "8")
			return m
		}(),
		"other clocks": other(func(m map[string]any) {
			m["timings"] = map[string]int{"speech": 45, "defence": 30, "tie_speech": 30, "last_words": 60}
		}),
		"the server's own game": other(func(m map[string]any) { m["id"] = online.ID }),
	} {
		var r hosttest.Refused
		code := hosttest.Call(t, "POST", ts.URL+"/host/api/games?lang=ru", "", req, &r)
		if code != http.StatusConflict || r.Error == nil || r.Error.Code != "id_taken" {
			t.Errorf("%s: %d %+v, want 409 id_taken", name, code, r.Error)
			continue
		}
		if want := locale.New(locale.Ru).T("assist.error.id_taken", nil); r.Error.Message != want {
			t.Errorf("%s: the sentence %q, want %q", name, r.Error.Message, want)
		}
	}
	if after := ts.StoredTable(t, "0123456789abcdef"); after != before {
		t.Fatalf("a refused create changed the game:\n%s\n%s", before, after)
	}
	if hosttest.TableCount(t, ts) != 2 {
		t.Fatalf("%d games, want 2", hosttest.TableCount(t, ts))
	}
}

func TestAPhoneGameWithBadFieldsIsRefused(t *testing.T) {
	ts := hosttest.StartServer(t)
	base := func(change func(m map[string]any)) map[string]any {
		m := hosttest.PhoneCreate(t, hosttest.Names7, record.DealPass, "99")
		change(m)
		return m
	}
	swapped := hosttest.PhoneDeal(t, map[string]any{"names": hosttest.Names7, "deal": "pass"}, "99").Roles
	swapped = slices.Clone(swapped)
	i := slices.IndexFunc(swapped, func(r string) bool { return r != swapped[0] })
	swapped[0], swapped[i] = swapped[i], swapped[0]

	cases := []struct {
		name   string
		req    map[string]any
		status int
		code   string
	}{
		{"short id", base(func(m map[string]any) { m["id"] = "0123abcd" }), 400, "bad_game_id"},
		{"long id", base(func(m map[string]any) { m["id"] = strings.Repeat("a", 17) }), 400, "bad_game_id"},
		{"capitals in the id", base(func(m map[string]any) { m["id"] = "0123456789ABCDEF" }), 400, "bad_game_id"},
		{"not hex", base(func(m map[string]any) { m["id"] = "0123456789abcdeg" }), 400, "bad_game_id"},
		{"a path in the id", base(func(m map[string]any) { m["id"] = "../../0123456789" }), 400, "bad_game_id"},
		{"no id", base(func(m map[string]any) { delete(m, "id") }), 400, "bad_game_id"},
		{"short token", base(func(m map[string]any) { m["host_token"] = strings.Repeat("a", 31) }), 400, "bad_host_token"},
		{"long token", base(func(m map[string]any) { m["host_token"] = strings.Repeat("a", 65) }), 400, "bad_host_token"},
		{"token not hex", base(func(m map[string]any) { m["host_token"] = strings.Repeat("z", 48) }), 400, "bad_host_token"},
		{"no token", base(func(m map[string]any) { delete(m, "host_token") }), 400, "bad_host_token"},
		{"seed not a number", base(func(m map[string]any) { m["seed"] = "abc" }), 400, "bad_settings"},
		{"negative seed", base(func(m map[string]any) { m["seed"] = "-1" }), 400, "bad_settings"},
		{"seed with a sign", base(func(m map[string]any) { m["seed"] = "+99" }), 400, "bad_settings"},
		{"seed beyond 64 bits", base(func(m map[string]any) { m["seed"] = "18446744073709551616" }), 400, "bad_settings"},
		{"no seed", base(func(m map[string]any) { delete(m, "seed") }), 400, "bad_settings"},
		{"a seed for cards by hand", func() map[string]any {
			m := hosttest.PhoneCreate(t, hosttest.Names7, record.DealManual, "0")
			m["seed"] = "5"
			return m
		}(), 400, "bad_settings"},
		{"card links", base(func(m map[string]any) { m["deal"] = "links" }), 400, "bad_settings"},
		{"no deal", base(func(m map[string]any) { delete(m, "dealt") }), 400, "bad_request"},
		{"another deal", base(func(m map[string]any) { m["dealt"] = swapped }), 409, "deal_mismatch"},
		{"a short deal", base(func(m map[string]any) { m["dealt"] = swapped[:6] }), 409, "deal_mismatch"},
		{"bad settings", base(func(m map[string]any) { m["names"] = hosttest.Names7[:3] }), 400, "too_few_seats"},
	}
	for _, c := range cases {
		var r hosttest.Refused
		code := hosttest.Call(t, "POST", ts.URL+"/host/api/games?lang=ka", "", c.req, &r)
		if code != c.status || r.Error == nil || r.Error.Code != c.code {
			t.Errorf("%s: %d %+v, want %d %s", c.name, code, r.Error, c.status, c.code)
			continue
		}
		if r.Error.Message == "" || strings.Contains(r.Error.Message, "assist.") || !isGeorgian(r.Error.Message) {
			t.Errorf("%s: the sentence %q is not Georgian", c.name, r.Error.Message)
		}
	}
	if n := hosttest.TableCount(t, ts); n != 0 {
		t.Fatalf("refused creates made %d games", n)
	}
	// The sentences of the new codes are the catalog's.
	var r hosttest.Refused
	hosttest.Call(t, "POST", ts.URL+"/host/api/games?lang=en", "", cases[18].req, &r)
	if want := locale.New(locale.En).T("assist.error.deal_mismatch", nil); r.Error.Message != want {
		t.Errorf("deal_mismatch says %q, want %q", r.Error.Message, want)
	}
	hosttest.Call(t, "POST", ts.URL+"/host/api/games?lang=en", "", cases[16].req, &r)
	if want := locale.New(locale.En).T("assist.error.bad_settings_deal_links", nil); r.Error.Message != want {
		t.Errorf("card links say %q, want %q", r.Error.Message, want)
	}
}

func isGeorgian(s string) bool {
	for _, r := range s {
		if r >= 0x10D0 && r <= 0x10FF {
			return true
		}
	}
	return false
}

func TestAPhoneGameDealtByHandAndItsDate(t *testing.T) {
	ts := hosttest.StartServer(t)
	req := hosttest.PhoneCreate(t, hosttest.Names7, record.DealManual, "0")
	req["created"] = time.Now().Add(time.Hour).UTC().Format(time.RFC3339) // a phone's clock ahead
	before := time.Now()
	var c hosttest.Created
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", req, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if c.Settings.Seed != "0" || !slices.Equal(c.Settings.Roles, hosttest.Roles7) || c.Settings.Deal != record.DealManual {
		t.Fatalf("settings %+v", c.Settings)
	}
	tbl, _, err := ts.DB.Table(context.Background(), store.KindInPerson, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if tbl.CreatedAt.Before(before.Add(-time.Second)) || tbl.CreatedAt.After(time.Now().Add(time.Second)) {
		t.Fatalf("a date in the future was kept: %v", tbl.CreatedAt)
	}
	// A deal by hand that the phone sends as another deal is refused.
	other := hosttest.PhoneCreate(t, hosttest.Names7, record.DealManual, "0")
	other["id"] = "fedcba9876543210"
	other["dealt"] = []string{"don", "citizen", "citizen", "mafia", "detective", "doctor", "citizen"}
	var r hosttest.Refused
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", other, &r); code != http.StatusConflict || r.Error.Code != "deal_mismatch" {
		t.Fatalf("a hand deal with other cards: %d %+v", code, r.Error)
	}
}
