package network

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/locale"
	"mafia/store/sqlite"
	"mafia/wire"
)

// stoppable is the assistant on a fixed loopback address over one SQLite
// file that a test can really stop (the listener closed, every connection
// cut, the database closed) and start again on the same address and file,
// as a venue's server that goes away and comes back. The browser keeps its
// origin (so its stored games and service worker) across the restart.
type stoppable struct {
	*hosttest.Server
	t     *testing.T
	path  string
	addr  string
	srv   *http.Server
	seeds atomic.Uint64
	// swVersion, when set, replaces the version the service worker is
	// served with (a new build of the page, as the phone sees it).
	swVersion atomic.Value
}

func startStoppable(t *testing.T) *stoppable {
	t.Helper()
	s := &stoppable{t: t, path: filepath.Join(t.TempDir(), "mafia.db"), addr: "127.0.0.1:0"}
	s.start()
	t.Cleanup(func() {
		if s.srv != nil {
			s.stop()
		}
	})
	return s
}

// start serves the assistant again on the same address and file.
func (s *stoppable) start() {
	s.t.Helper()
	db, err := sqlite.Open(s.path)
	if err != nil {
		s.t.Fatal(err)
	}
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		db.Close()
		s.t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	s.Server = &hosttest.Server{URL: "http://" + s.addr, DB: db,
		H: assist.New(assist.Config{Store: db, Seed: func() uint64 { return s.seeds.Add(1) }})}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go s.srv.Serve(ln)
}

// stop closes the listener and every connection and the database.
func (s *stoppable) stop() {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		s.srv.Close()
	}
	s.srv = nil
	if err := s.DB.Close(); err != nil {
		s.t.Error(err)
	}
	if _, err := http.Get(s.URL + "/host/"); err == nil {
		s.t.Fatal("the server still answers after it was stopped")
	}
}

func (s *stoppable) serve(w http.ResponseWriter, r *http.Request) {
	if v, _ := s.swVersion.Load().(string); v != "" && r.URL.Path == "/host/sw.js" {
		rec := httptest.NewRecorder()
		s.Server.Serve(rec, r)
		body := strings.Replace(rec.Body.String(), `const VERSION = "`+assist.Version()+`"`, `const VERSION = "`+v+`"`, 1)
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write([]byte(body))
		return
	}
	s.Server.Serve(w, r)
}

// openKept opens the assistant and waits until the service worker keeps
// the page (it controls the tab: its install has cached every file).
func openKept(t *testing.T, s *stoppable, name string) *hosttest.Host {
	t.Helper()
	h := hosttest.OpenHost(t, s.Server, name)
	h.WaitJS(60*time.Second, `!!navigator.serviceWorker && !!navigator.serviceWorker.controller`)
	keys := hosttest.EvalAwait[[]string](h.Tab, `caches.keys()`)
	if !slices.Equal(keys, []string{"assist-" + assist.Version()}) {
		t.Fatalf("the caches are %v, want the one of version %s", keys, assist.Version())
	}
	return h
}

// TestTheGameReopensWithoutTheServer starts a game with the server up,
// stops the server, reloads the page (the service worker serves it, the
// game is at the same screen), keeps playing and reloads again, then starts
// a new server on the same address and database file: every entry made
// meanwhile arrives, once.
func TestTheGameReopensWithoutTheServer(t *testing.T) {
	t.Parallel()
	s := startStoppable(t)
	h := openKept(t, s, "host")
	id := h.Create(hosttest.GameSpec{Names: hosttest.Names7, Deal: record.DealPass})

	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "speech" && st.Round == 1 }
	h.Play(d)
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	online := len(h.LocalEntries(id))

	s.stop()
	screen, st := h.Screen(), h.State()
	h.Reload(true)
	h.SameScreen(screen, st, online)
	h.Shot("reload-offline-same-screen")

	// Day 1 goes on without the server, and the page is reloaded again.
	var reloaded bool
	d.Stop = func(st record.State) bool { return st.Phase == "night" && st.Round == 2 }
	d.Each = func(screen string, st record.State) {
		if screen == "speech" && st.Speaker != 0 && !reloaded && len(h.LocalEntries(id)) > online+2 {
			n := len(h.LocalEntries(id))
			h.Reload(true)
			h.SameScreen(screen, st, n)
			reloaded = true
		}
	}
	h.Play(d)
	if !reloaded {
		t.Fatal("the page was not reloaded during day 1")
	}
	made := len(h.LocalEntries(id)) - online
	if made < 5 {
		t.Fatalf("only %d entries were made without the server", made)
	}
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.state === 'offline' && document.getElementById('sync').dataset.waiting === '`+hosttest.Itoa(made)+`'`)

	s.start()
	if got := len(s.StoredEntries(t, id)); got != online {
		t.Fatalf("the restarted server holds %d entries before the phone sends, want %d", got, online)
	}
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	hosttest.SameEntries(t, s.Server, h, id)
	h.Shot("reload-offline-synced")
}

// TestAGameMadeWithoutTheServer opens the page, stops the server, reloads
// the page from the phone alone, makes a game there (card links are not
// offered), plays its first night and day with a reload on the way, and
// then brings the server back on the same address and database file: the
// game is made on the server with the phone's deal, every entry arrives
// once, the game is played to the end, and the club's history and the
// protocol are the engine's.
func TestAGameMadeWithoutTheServer(t *testing.T) {
	t.Parallel()
	s := startStoppable(t)
	h := openKept(t, s, "host")
	s.stop()
	h.Reload(false)
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="new-game"]')`)
	en := locale.New(locale.En)
	h.WaitJS(10*time.Second, `document.querySelector('[data-t="history"]').textContent === `+hosttest.JsString(en.T("assist.history_offline", nil)))

	// Card links need the server: the setup says so and does not offer them.
	h.Tap("new-game")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	if !hosttest.Eval[bool](h.Tab, `document.querySelector('[data-t="deal-links"]').disabled`) {
		t.Fatal("card links are offered without the server")
	}
	if got := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="links-offline"]').textContent`); got != en.T("assist.offline.links_offline", nil) {
		t.Fatalf("the setup says %q about card links", got)
	}
	h.Shot("made-offline-setup")
	h.Do(5*time.Second, chromedp.Navigate(s.URL+"/host/#/"))
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="new-game"]')`)
	id := h.Create(hosttest.GameSpec{Names: hosttest.Names7, Deal: record.DealPass,
		Options: map[string]string{"second_tie": "nobody"}})
	h.WaitJS(5*time.Second, `(document.getElementById('toast') || {}).textContent === `+hosttest.JsString(en.T("assist.offline.made_here", nil)))
	h.WaitJS(10*time.Second, `document.getElementById('sync').textContent === `+hosttest.JsString(en.T("assist.offline.game_waits", nil)))
	h.Shot("made-offline-deal")
	var rec struct {
		Token    string
		Settings record.Settings
		Create   map[string]any
	}
	if err := json.Unmarshal([]byte(h.StoredRecord(id)), &rec); err != nil {
		t.Fatal(err)
	}
	if len(id) != assist.GameIDLen || len(rec.Token) != 48 || rec.Create == nil || rec.Create["seed"] != rec.Settings.Seed {
		t.Fatalf("the phone's game: id %q, token %q, create %v, settings %+v", id, rec.Token, rec.Create, rec.Settings)
	}

	// The first night and day, with a reload, all without the server.
	var reloaded bool
	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "night" && st.Round == 2 }
	d.Each = func(screen string, st record.State) {
		if screen == "speech" && !reloaded {
			n := len(h.LocalEntries(id))
			h.Reload(true)
			h.SameScreen(screen, st, n)
			reloaded = true
		}
	}
	h.Play(d)
	made := len(h.LocalEntries(id))
	if !reloaded || made < 10 {
		t.Fatalf("reloaded %v, %d entries made without the server", reloaded, made)
	}
	// The light says "Sending the game…" while a retry is under way (the
	// server is still away), then what waits again: waited for, not read
	// once (CI read it mid-retry).
	want := en.Plural("assist.offline.game_and_entries", made, map[string]any{"Count": made})
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '`+hosttest.Itoa(made+1)+`' && document.getElementById('sync').textContent === `+hosttest.JsString(want))

	// The server comes back: the game is made there first, then the entries.
	s.start()
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	var after struct{ Create map[string]any }
	if err := json.Unmarshal([]byte(h.StoredRecord(id)), &after); err != nil || after.Create != nil {
		t.Fatal("the phone still holds the game's create after the server took it")
	}
	hosttest.SameEntries(t, s.Server, h, id)
	var server struct {
		Settings record.Settings
	}
	s.GetJSON(t, "/host/api/games/"+id, rec.Token, &server)
	a, _ := json.Marshal(server.Settings)
	b, _ := json.Marshal(rec.Settings)
	if string(a) != string(b) {
		t.Fatalf("the server's settings %s, the phone's %s", a, b)
	}

	// The rest of the game, with the server.
	d.Stop, d.Each = nil, nil
	h.Play(d)
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	hosttest.SameEntries(t, s.Server, h, id)
	g, log := s.Replay(t, id)
	if !g.Ended() {
		t.Fatal("the server's game has not ended")
	}
	p := s.Protocol(t, h, id)
	hosttest.CheckLog(t, p.Events, log)
	var browser []wire.Event
	if err := json.Unmarshal([]byte(hosttest.Eval[string](h.Tab, `JSON.stringify(JSON.parse(window.mafiaAssist.protocol()).events)`)), &browser); err != nil {
		t.Fatal(err)
	}
	hosttest.CheckLog(t, browser, log)
	var list struct{ Games []assist.Summary }
	s.GetJSON(t, "/host/api/games", rec.Token, &list) // listed to its host
	if len(list.Games) != 1 || list.Games[0].ID != id || !list.Games[0].Ended || list.Games[0].Winner != g.Winner().String() ||
		list.Games[0].Players != 7 {
		t.Fatalf("the club's history: %+v", list.Games)
	}
	h.Tap("home")
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="history"] tr[data-id="`+id+`"]')`)
	h.Shot("made-offline-history")
}

// TestANewVersionReplacesTheKeptPage serves the service worker of a new
// build: it installs its own cache, takes over, and the old cache is gone.
func TestANewVersionReplacesTheKeptPage(t *testing.T) {
	t.Parallel()
	s := startStoppable(t)
	h := openKept(t, s, "host")
	s.swVersion.Store("0123456789ab")
	hosttest.EvalAwait[bool](h.Tab, `navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)`)
	h.WaitJS(60*time.Second, `caches.keys().then((k) => k.length === 1 && k[0] === 'assist-0123456789ab')`)
	s.swVersion.Store("")
	hosttest.EvalAwait[bool](h.Tab, `navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)`)
	h.WaitJS(60*time.Second, `caches.keys().then((k) => k.length === 1 && k[0] === 'assist-`+assist.Version()+`')`)
	// The page of the current build opens without the server again.
	s.stop()
	h.Reload(false)
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="new-game"]')`)
}

// TestAnAddressThatCannotKeepThePageSaysSo opens the page on a plain-http
// address that is not the machine itself (lan.test, mapped to loopback by
// the browser's resolver rules), where browsers allow no service worker:
// the page works, and says once that it cannot open without the server.
func TestAnAddressThatCannotKeepThePageSaysSo(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(ts.URL, "http://"))
	h := hosttest.OpenHost(t, &hosttest.Server{URL: "http://" + lanHost + ":" + port}, "host")
	if hosttest.Eval[bool](h.Tab, `window.isSecureContext`) {
		t.Fatal("the LAN address is a secure context: the test proves nothing")
	}
	want := locale.New(locale.En).T("assist.offline.no_sw", nil)
	h.WaitJS(5*time.Second, `(document.querySelector('[data-t="no-worker"] p') || {}).textContent === `+hosttest.JsString(want))
	h.Shot("no-worker-note")
	h.Tap("no-worker-ok")
	h.WaitJS(5*time.Second, `!document.querySelector('[data-t="no-worker"]')`)
	h.Reload(false)
	if h.Exists("no-worker") {
		t.Fatal("the note shows again after it was acknowledged")
	}
	// The page works there as before: a game is made by the server.
	id := h.Create(hosttest.GameSpec{Names: hosttest.Names7, Deal: record.DealPass})
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	if got := len(ts.StoredEntries(t, id)); got != 0 {
		t.Fatalf("a new game holds %d entries", got)
	}
}

// lanHost is a name the test browser resolves to loopback (hosttest.Browser:
// host-resolver-rules): a plain-http address that is not a secure context.
const lanHost = "lan.test"
