package server

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mafia/bot"
	"mafia/engine"
	"mafia/internal/secret"
	"mafia/locale"
	"mafia/rng"
	"mafia/room"
	"mafia/store"
	"mafia/store/sqlite"
)

// logBuffer collects a server's JSON log lines, safe for its goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// lines returns the log lines whose message contains msg.
func (l *logBuffer) lines(msg string) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(l.b.String(), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			if s, _ := m["msg"].(string); strings.Contains(s, msg) {
				out = append(out, m)
			}
		}
	}
	return out
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// logTo makes a server log JSON lines into l, and render its refusals from
// the catalogs, as mafia serve does.
func logTo(l *logBuffer) func(*Config) {
	return func(c *Config) {
		c.Log = slog.New(slog.NewJSONHandler(l, nil))
		c.Render = func(lang string, err error) string {
			l, _ := locale.Parse(lang)
			return locale.New(l).Refusal(err)
		}
	}
}

// storedFile is a database file written by the real store, as a server
// that stopped would have left it: tables in play, in the lobby and ended.
type storedFile struct {
	path   string
	logs   map[string][]engine.Event
	tokens map[string]string // a seat-1 token per table with people
}

// The tables of a storedFile.
const (
	tPlaying  = "playing000000001" // the one damaged, in most cases
	tPlaying2 = "playing000000002"
	tPlaying3 = "playing000000003"
	tLobby    = "lobby00000000004"
	tEnded    = "ended00000000005"
)

// slowTimings keep a resumed game where it is for the length of a test.
var slowTimings = map[string]int64{"speech": 3_600_000, "defence": 3_600_000, "tie_speech": 3_600_000,
	"last_words": 3_600_000, "night": 3_600_000, "vote": 3_600_000}

// gameLog plays an 11-seat game with bots from seed, a step at a time, and
// returns its log: the whole game if whole, else the steps up to the first
// that leaves at least minEvents events (nil if the game ends first).
func gameLog(seed uint64, minEvents int, whole bool) []engine.Event {
	setup, _ := engine.Preset(11)
	g, log, err := engine.New(engine.DefaultRules(), setup.Deal(seed, nil), seed)
	if err != nil {
		panic(err)
	}
	log = append([]engine.Event(nil), log...)
	bots := make([]bot.Bot, 12)
	for s := 1; s <= 11; s++ {
		bots[s] = bot.NewRandom(rng.Derive(seed, uint64(s)))
	}
	tb := &bot.Table{Game: g, Bots: bots, OnEvents: func(_ engine.Command, evs []engine.Event) {
		log = append(log, evs...)
	}}
	for tb.Step() {
		if !whole && len(log) >= minEvents {
			return log
		}
	}
	if whole {
		return log
	}
	return nil
}

// writeStoredFile writes a storedFile with the real store: three games in
// play of people who have not acted for a while (their seats are people's,
// their logs long enough to fill several pages), a lobby table and an ended
// game.
func writeStoredFile(t *testing.T) storedFile {
	t.Helper()
	f := storedFile{path: filepath.Join(t.TempDir(), "mafia.db"), logs: map[string][]engine.Event{},
		tokens: map[string]string{}}
	db, err := sqlite.Open(f.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	setup, _ := engine.Preset(11)
	conf, _ := json.Marshal(room.Settings{Name: "stored", Public: true, Setup: setup, TimingMS: slowTimings})
	seed := uint64(1)
	add := func(id string, status store.Status, log []engine.Event) {
		t.Helper()
		tb := store.Table{ID: id, Kind: store.KindOnline, Name: "stored " + id, Public: true, Status: status, Data: conf,
			HostToken: secret.Hash("host of " + id)}
		var seats []store.Seat
		for s := 1; s <= 11; s++ {
			tok := fmt.Sprintf("token of %s seat %d", id, s)
			seats = append(seats, store.Seat{Seat: s, Name: fmt.Sprint("player ", s), TokenHash: secret.Hash(tok)})
			if s == 1 {
				f.tokens[id] = tok
			}
		}
		if len(log) > 0 {
			g, err := engine.Replay(log)
			if err != nil {
				t.Fatal(err)
			}
			tb.Seed = g.Seed()
			if g.Ended() {
				tb.Winner = g.Winner().String()
			}
		}
		if err := db.CreateTable(ctx, tb, seats); err != nil {
			t.Fatal(err)
		}
		if len(log) > 0 {
			if err := db.AppendEvents(ctx, id, 0, log); err != nil {
				t.Fatal(err)
			}
			if status == store.StatusPlaying {
				c := store.Clock{Step: len(log) - 1, Deadline: time.Now().Add(time.Hour), Left: time.Hour}
				if err := db.SaveClock(ctx, id, c); err != nil {
					t.Fatal(err)
				}
			}
		}
		f.logs[id] = log
	}
	for _, id := range []string{tPlaying, tPlaying2, tPlaying3} {
		var log []engine.Event
		for log == nil {
			log = gameLog(seed, 90, false)
			seed++
		}
		add(id, store.StatusPlaying, log)
	}
	add(tLobby, store.StatusLobby, nil)
	add(tEnded, store.StatusEnded, gameLog(seed, 0, true))
	if err := db.Heartbeat(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	return f
}

// rawExec runs SQL on the file directly, as damage or an operator would,
// with no store open.
func rawExec(t *testing.T, path, query string, args ...any) {
	t.Helper()
	c, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.Exec(query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		t.Fatalf("%s changed nothing", query)
	}
}

// damagePageOf overwrites, in the database file itself, a page of the events
// that holds rows of table id and of no other table, as a bad sector or a
// torn copy would leave it. The page is found with SQLite's dbstat.
func damagePageOf(t *testing.T, path, id string, others []string) int {
	t.Helper()
	n, on := damagePage(t, path, "events", id, others, true)
	if len(on) > 0 {
		t.Fatalf("page %d holds %v too", n, on)
	}
	return n
}

// damagePage overwrites a leaf page of the b-tree name (a table or index)
// that holds id, alone if alone, and returns it and which of others it held.
func damagePage(t *testing.T, path, name, id string, others []string, alone bool) (int, []string) {
	t.Helper()
	c, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var pageSize int
	if err := c.QueryRow(`PRAGMA page_size`).Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	rows, err := c.Query(`SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno`, name)
	if err != nil {
		t.Fatal(err)
	}
	var pages []int
	for rows.Next() {
		var n int
		rows.Scan(&n)
		pages = append(pages, n)
	}
	rows.Close()
	c.Close() // the last connection: the WAL is copied into the file and removed
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Fatal("the WAL outlived the last connection; the page on disk may not be the page SQLite reads")
	}
	file, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	page := make([]byte, pageSize)
	for _, n := range pages {
		if _, err := file.ReadAt(page, int64(n-1)*int64(pageSize)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(page, []byte(id)) {
			continue
		}
		var on []string
		for _, o := range others {
			if bytes.Contains(page, []byte(o)) {
				on = append(on, o)
			}
		}
		if alone && len(on) > 0 {
			continue
		}
		src := rng.New(uint64(n))
		for i := range page {
			page[i] = byte(src.Intn(256))
		}
		if _, err := file.WriteAt(page, int64(n-1)*int64(pageSize)); err != nil {
			t.Fatal(err)
		}
		return n, on
	}
	t.Fatalf("no leaf of %s holds %s's rows (alone: %v) among %d leaves", name, id, alone, len(pages))
	return 0, nil
}

// refusedAsDamaged checks that a table is refused over HTTP and the
// WebSocket with table_damaged, in the asker's language.
func refusedAsDamaged(ctx context.Context, t *testing.T, ts *testServer, id, token string) {
	t.Helper()
	resp, err := http.Get(ts.api.Base + "/api/tables/" + id + "?lang=ka")
	if err != nil {
		t.Fatal(err)
	}
	var body errorBody
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	json.Unmarshal(data, &body)
	if resp.StatusCode != http.StatusGone || body.Error.Code != string(CodeTableDamaged) ||
		!strings.Contains(body.Error.Message, "დაზიანებულია") {
		t.Errorf("GET the damaged table: %d %s; want 410 table_damaged in Georgian", resp.StatusCode, data)
	}
	_, err = ts.api.Dial(ctx, id, token, 0)
	if err == nil || !strings.Contains(err.Error(), "410") {
		t.Errorf("a seat's WebSocket to the damaged table: %v; want the handshake refused with 410", err)
	}
	if _, err := ts.api.Join(ctx, id, "somebody", 0, ""); err == nil || !strings.Contains(err.Error(), "table_damaged") {
		t.Errorf("join the damaged table: %v; want table_damaged", err)
	}
}

// servesTheRest checks that every table but the damaged one is served as
// the file has it: the games in play reach their seats with their whole
// log, the lobby is a lobby, the ended game shows its result.
func servesTheRest(ctx context.Context, t *testing.T, ts *testServer, f storedFile, damaged ...string) {
	t.Helper()
	for _, id := range []string{tPlaying, tPlaying2, tPlaying3, tLobby, tEnded} {
		if slices.Contains(damaged, id) {
			continue
		}
		l, err := ts.api.Table(ctx, id)
		if err != nil {
			t.Errorf("table %s: %v", id, err)
			continue
		}
		want := map[string]string{tPlaying: "playing", tPlaying2: "playing", tPlaying3: "playing",
			tLobby: "lobby", tEnded: "ended"}[id]
		if l.Status != want {
			t.Errorf("table %s: status %q, want %q", id, l.Status, want)
		}
		if id == tLobby {
			continue
		}
		c, err := ts.api.Dial(ctx, id, f.tokens[id], 0)
		if err != nil {
			t.Errorf("seat 1 of %s: %v", id, err)
			continue
		}
		if c.View == nil || c.View.Seat != 1 || c.Seq != len(shareOfSeat(t, f.logs[id], 1)) {
			t.Errorf("seat 1 of %s: welcome at seq %d (view %v), want its share of the %d stored events",
				id, c.Seq, c.View != nil, len(f.logs[id]))
		}
		c.Close()
	}
}

// shareOfSeat is the events of a log that seat s is sent.
func shareOfSeat(t *testing.T, log []engine.Event, s int) []engine.Event {
	t.Helper()
	g, err := engine.Replay(log)
	if err != nil {
		t.Fatal(err)
	}
	var out []engine.Event
	for _, e := range log {
		if v, ok := g.EventFor(e, engine.Seat(s)); ok {
			out = append(out, v)
		}
	}
	return out
}

// TestDamage_OneBadTableIsSetAsideAndTheRestServe damages one table of a
// real file in each way a file goes bad (an event that does not decode, a
// gap in the log, an event that does not fit the game, an impossible clock
// time, a page of its rows overwritten; an ended table's log, which is read
// on request), starts a server on it, and checks that the server starts,
// logs the table and sets it aside (refused in the asker's language with
// table_damaged, never a 500), serves every other table as it was, and
// does not try the damaged table again at the next start.
func TestDamage_OneBadTableIsSetAsideAndTheRestServe(t *testing.T) {
	for _, c := range []struct {
		name   string
		target string
		damage func(t *testing.T, f storedFile)
	}{
		{"event that does not decode", tPlaying, func(t *testing.T, f storedFile) {
			rawExec(t, f.path, `UPDATE events SET json = '{"kind":"no_such_event","round":1}' WHERE table_id = ? AND seq = 7`, tPlaying)
		}},
		{"gap in the log", tPlaying, func(t *testing.T, f storedFile) {
			rawExec(t, f.path, `DELETE FROM events WHERE table_id = ? AND seq = 12`, tPlaying)
		}},
		{"event that does not fit the game", tPlaying, func(t *testing.T, f storedFile) {
			rawExec(t, f.path, `UPDATE events SET json = (SELECT json FROM events WHERE table_id = ?1 AND seq = 0),
				kind = 'game_started' WHERE table_id = ?1 AND seq = 9`, tPlaying)
		}},
		{"impossible clock time", tPlaying, func(t *testing.T, f storedFile) {
			rawExec(t, f.path, `UPDATE clocks SET deadline = '2026-02-30T25:61:00.000000000Z' WHERE table_id = ?`, tPlaying)
		}},
		{"impossible creation time", tPlaying, func(t *testing.T, f storedFile) {
			rawExec(t, f.path, `UPDATE tables SET created_at = 'yesterday' WHERE id = ?`, tPlaying)
		}},
		{"damaged page of its events", tPlaying, func(t *testing.T, f storedFile) {
			n := damagePageOf(t, f.path, tPlaying, []string{tPlaying2, tPlaying3, tLobby, tEnded})
			t.Logf("overwrote page %d, a leaf of the events holding %s's rows alone", n, tPlaying)
		}},
		{"ended game whose event does not decode", tEnded, func(t *testing.T, f storedFile) {
			rawExec(t, f.path, `UPDATE events SET json = 'not json' WHERE table_id = ? AND seq = 20`, tEnded)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Each case has its own file, server and log, and holds no
			// connection unread (a seat dials, reads its welcome and
			// closes): the cases run side by side, in the package's
			// parallel slots (main_test.go), while the other serial
			// tests wait for this one.
			t.Parallel()
			ctx := within(t, time.Minute)
			f := writeStoredFile(t)
			c.damage(t, f)
			var log logBuffer
			ts := startServerWith(t, f.path, logTo(&log))
			refusedAsDamaged(ctx, t, ts, c.target, f.tokens[c.target])
			servesTheRest(ctx, t, ts, f, c.target)
			if got := log.lines("set aside as damaged"); len(got) != 1 || got[0]["table"] != c.target {
				t.Errorf("the log says of tables set aside: %v; want one line naming %s\n%s", got, c.target, log.String())
			}
			ts.close()

			// The next start does not try it again, and still refuses it.
			var log2 logBuffer
			ts = startServerWith(t, f.path, logTo(&log2))
			if c.target != tEnded {
				if got := log2.lines("set aside"); len(got) != 0 {
					t.Errorf("the second start tried the damaged table again: %v", got)
				}
			}
			refusedAsDamaged(ctx, t, ts, c.target, f.tokens[c.target])
			servesTheRest(ctx, t, ts, f, c.target)
			ts.close()

			db, err := sqlite.Open(f.path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, _, err := db.Table(ctx, store.KindOnline, c.target); !errors.Is(err, store.ErrDamaged) {
				t.Errorf("the store's Table for the damaged table: %v, want ErrDamaged", err)
			}
		})
	}
}

// TestDamage_AnUnreadableHeartbeatCostsTimeNotService: a heartbeat row with
// an impossible time stops nothing; the games resume, each step with its
// full time (nobody knows when the server stopped).
func TestDamage_AnUnreadableHeartbeatCostsTimeNotService(t *testing.T) {
	ctx := within(t, time.Minute)
	f := writeStoredFile(t)
	rawExec(t, f.path, `UPDATE heartbeat SET at = '2026-13-45T99:00:00.000000000Z'`)
	var log logBuffer
	ts := startServerWith(t, f.path, logTo(&log))
	servesTheRest(ctx, t, ts, f)
	if len(log.lines("last heartbeat unreadable")) != 1 {
		t.Errorf("the unreadable heartbeat was not logged:\n%s", log.String())
	}
}

// TestDamage_APageOfTheTablesRowsLosesOnlyItsTables overwrites the page of
// the file that holds one table's own row (with whichever tables share it):
// the server starts, the tables on that page are refused as damaged when
// asked for, and every other table is served.
func TestDamage_APageOfTheTablesRowsLosesOnlyItsTables(t *testing.T) {
	ctx := within(t, time.Minute)
	f := writeStoredFile(t)
	all := []string{tPlaying, tPlaying2, tPlaying3, tLobby, tEnded}
	n, on := damagePage(t, f.path, "tables", tPlaying, all[1:], false)
	lost := append([]string{tPlaying}, on...)
	t.Logf("overwrote page %d, the leaf of the tables' rows that holds %v", n, lost)
	if len(lost) == len(all) {
		t.Fatal("every table's row is on the one page: nothing would be left to serve")
	}
	var log logBuffer
	ts := startServerWith(t, f.path, logTo(&log))
	for _, id := range lost {
		refusedAsDamaged(ctx, t, ts, id, f.tokens[id])
	}
	servesTheRest(ctx, t, ts, f, lost...)
	if got := log.lines("list tables"); len(got) == 0 {
		t.Errorf("the unreadable rows were not logged:\n%s", log.String())
	}
}
