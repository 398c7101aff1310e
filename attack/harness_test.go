package attack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/account"
	"mafia/assist"
	"mafia/client"
	"mafia/clubhttp"
	"mafia/internal/httpguard"
	"mafia/internal/site"
	"mafia/internal/sqlitetest"
	"mafia/locale"
	"mafia/rng"
	"mafia/room"
	"mafia/server"
	"mafia/wire"
)

// target is a real server under attack: its public address and its
// operator's, over a real SQLite file.
type target struct {
	srv  *server.Server
	base string // the public listener, http://127.0.0.1:port
	ops  string // the operator's listener
}

// suiteTimeouts are the server's request timeouts in the suite: shorter
// than the defaults (10, 20, 30, 30 s), so that the slow attacks end soon
// (their tests wait 20 s for it), yet long enough that an honest client of
// the suite's, whose goroutine a loaded machine can hold for a second or
// two, is never cut off by chance in the middle of sending a request
// (1 s and 2 s did that at loads of 40-50; 3 s for the headers once did it
// under the race detector beside browser tests: a fresh connection's first
// GET ended EOF, 2026-12-07). The idle time is the longest:
// a keep-alive closed by the server just as a client sends its next
// request on it fails that request by chance too (see clientIdle).
var suiteTimeouts = server.Timeouts{ReadHeader: 6 * time.Second, Read: 8 * time.Second, Write: 8 * time.Second, Idle: 10 * time.Second}

// attackHash is argon2id at its cheapest, for the suite's accounts.
var attackHash = account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}

// start runs a server as `mafia serve` does (its http.Server, its capped
// listener, the host's assistant under /host/ with the server's guard, an
// operator's listener), with the default limits unless tune changes them.
func start(t *testing.T, tune func(*server.Config)) *target {
	t.Helper()
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	// The bots move at once (instant pace): the attacks are not about time.
	cfg := server.Config{Store: db, Timeouts: suiteTimeouts, Pace: room.PaceInstant, Render: func(lang string, err error) string {
		l, ok := locale.Parse(lang)
		if !ok {
			l = locale.En
		}
		return locale.New(l).Refusal(err)
	}}
	if tune != nil {
		tune(&cfg)
	}
	if cfg.Guard == nil { // the server's default, shared with the assistant as serve.go does
		if cfg.Guard, err = httpguard.New(httpguard.Config{Origins: cfg.Origins}); err != nil {
			t.Fatal(err)
		}
	}
	// Accounts as `mafia serve` has them, with the default limits, only a
	// cheap hash: the floods are about the limits, not argon2id's cost.
	if cfg.Accounts == nil {
		cfg.Accounts = account.New(account.Config{Store: db, Params: attackHash,
			SeatName: func(n string) error { _, err := room.CheckName(n); return err }})
	}
	srv := server.New(cfg)
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	clubs := clubhttp.New(clubhttp.Config{Store: db, Games: assist.ClubGames(db, nil), Accounts: cfg.Accounts, Guard: cfg.Guard,
		Files: assist.Version()})
	// The assistant's new games per address as `mafia serve` bounds them.
	host := assist.New(assist.Config{Store: db, Guard: cfg.Guard, Clubs: clubs, NewGames: assist.NewGameRates(), Seatings: assist.SeatingRates(),
		Unlimited: cfg.Limits.Unlimited})
	acct := account.NewHandler(account.HandlerConfig{Service: cfg.Accounts, Guard: cfg.Guard, Render: cfg.Render, Clubs: clubs.PlayerClubs})
	hs := srv.HTTPServer(site.Handler(srv, host, site.WithAccounts(acct), site.WithClubs(clubs)))
	go hs.Serve(srv.Listener(ln))
	oln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ohs := &http.Server{Handler: srv.OpsHandler(""), ReadHeaderTimeout: 3 * time.Second, IdleTimeout: 10 * time.Second}
	go ohs.Serve(oln)
	t.Cleanup(func() {
		hs.Close()
		ohs.Close()
		srv.Close()
		db.Close()
	})
	return &target{srv: srv, base: "http://" + ln.Addr().String(), ops: "http://" + oln.Addr().String()}
}

var (
	manyAddrsOnce sync.Once
	manyAddrsErr  error
)

// needAddrs skips a test that needs client addresses of its own in
// 127.0.0.0/8 where the system has only 127.0.0.1 (not Linux), except in
// CI, where that is a failure.
func needAddrs(t *testing.T) {
	t.Helper()
	manyAddrsOnce.Do(func() {
		ln, err := net.Listen("tcp", "127.0.0.2:0")
		if err == nil {
			ln.Close()
		}
		manyAddrsErr = err
	})
	if manyAddrsErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no loopback addresses besides 127.0.0.1: %v", manyAddrsErr)
		}
		t.Skipf("skipped: no loopback addresses besides 127.0.0.1 here (%v)", manyAddrsErr)
	}
}

// clientIdle is how long the suite's clients keep an idle connection for
// another request: well under the servers' idle timeouts (suiteTimeouts'
// 10 s, the operator's listener's), since Go's client never sends a request
// (a POST above all, which it does not retry) on a connection idle for
// longer, while one the server is closing at that moment fails with a bare
// EOF: on a loaded machine, where a client's requests can be two seconds
// apart, that was a test failing by chance.
const clientIdle = 500 * time.Millisecond

// from is an HTTP client whose connections leave from ip (in 127.0.0.0/8).
func from(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4, IdleConnTimeout: clientIdle}}
}

// TestMain gives every client of the suite's that names no transport
// (ask's and client.API's default, http.DefaultClient) the same short idle
// time as from's.
func TestMain(m *testing.M) {
	http.DefaultTransport.(*http.Transport).IdleConnTimeout = clientIdle
	os.Exit(m.Run())
}

// dialTCP opens a raw TCP connection to the public listener from ip.
func (tg *target) dialTCP(t *testing.T, ip string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", strings.TrimPrefix(tg.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// wsURL is a table's WebSocket address.
func (tg *target) wsURL(table, lang string) string {
	u := "ws" + strings.TrimPrefix(tg.base, "http") + "/api/tables/" + table + "/ws"
	if lang != "" {
		u += "?lang=" + lang
	}
	return u
}

// refusal is what a refused WebSocket dial was answered: the HTTP status
// and the code of its JSON body (0, "" when it was not refused).
func refusal(resp *http.Response, err error) (int, string) {
	if err == nil || resp == nil {
		return 0, ""
	}
	var body struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if resp.Body != nil {
		_ = json.NewDecoder(resp.Body).Decode(&body)
	}
	return resp.StatusCode, body.Error.Code
}

// within bounds a test.
func within(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// count is n, or small under -short.
func count(n, small int) int {
	if testing.Short() {
		return small
	}
	return n
}

// gameTimings make a bots' game end in a few seconds.
var gameTimings = map[string]int64{"speech": 1000, "defence": 500, "tie_speech": 500, "last_words": 500, "night": 300, "vote": 500}

// player is a real player: from an address of its own it makes a table,
// takes a seat, connects, and plays.
type player struct {
	api   *client.API
	table string
	host  string
	conn  *client.Conn
	chats int // chat lines it has heard
}

// newPlayer makes a public table from ip, takes its first seat and
// connects; the table stays in the lobby until play.
func (tg *target) newPlayer(ctx context.Context, t *testing.T, ip string) *player {
	t.Helper()
	p := &player{api: &client.API{Base: tg.base, HTTP: from(ip)}}
	var opts map[string]string
	if testing.Short() {
		opts = map[string]string{"round_limit": "2"} // a shorter game, to its end all the same
	}
	created, err := p.api.Create(ctx, client.CreateRequest{Name: "a real table", Players: 5, TimingsMS: gameTimings, Public: true, Options: opts})
	if err != nil {
		t.Fatalf("the real player could not make a table: %v", err)
	}
	p.table, p.host = created.Table, created.HostToken
	if _, err := p.api.Join(ctx, p.table, "Nino", 1, p.host); err != nil {
		t.Fatalf("the real player could not take a seat: %v", err)
	}
	if p.conn, err = p.api.Dial(ctx, p.table, p.host, 0); err != nil {
		t.Fatalf("the real player could not connect: %v", err)
	}
	t.Cleanup(func() { p.conn.CloseNow() })
	return p
}

// call sends a message and reads until its answer.
func (p *player) call(ctx context.Context, m wire.ClientMessage) error {
	id, err := p.conn.Send(ctx, m)
	if err != nil {
		return err
	}
	for {
		got, err := p.conn.Read(ctx)
		if err != nil {
			return err
		}
		if got.Type == "chat" {
			p.chats++
		}
		if got.ID == id && got.Type == "reply" {
			return nil
		}
		if got.ID == id && got.Type == "error" {
			return &client.Error{Code: got.Code, Message: got.Message}
		}
	}
}

// play fills the table with bots, starts, and plays random legal moves to
// the game's end; any refusal of the start or a broken connection fails.
func (p *player) play(ctx context.Context, t *testing.T) {
	t.Helper()
	if err := p.playErr(ctx); err != nil {
		t.Fatal(err)
	}
}

// playsMeanwhile has a real player play a whole game from ip while an
// attack runs; wait returns once the game has ended.
func (tg *target) playsMeanwhile(ctx context.Context, t *testing.T, ip string) (wait func()) {
	t.Helper()
	p := tg.newPlayer(ctx, t, ip)
	done := make(chan struct{})
	failed := make(chan string, 1)
	go func() { // t.Fatal belongs to the test's goroutine: this one reports
		defer close(done)
		if err := p.playErr(ctx); err != nil {
			failed <- err.Error()
		}
	}()
	return func() {
		<-done
		select {
		case msg := <-failed:
			t.Errorf("while under attack, %s", msg)
		default:
		}
	}
}

// playErr is play reporting instead of failing (for another goroutine).
func (p *player) playErr(ctx context.Context) error {
	for _, a := range []string{"add_bots", "start"} {
		if err := p.call(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			return fmt.Errorf("the real player's %s: %w", a, err)
		}
	}
	return p.finish(ctx, 5)
}

// finish plays random legal moves to the game's end, which must take at
// least that many frames (a whole game from its start takes many; one taken
// up in its last round may end in a few).
func (p *player) finish(ctx context.Context, least int) error {
	src := rng.New(7)
	var waiting int64
	frames := 0
	for p.conn.View == nil || p.conn.View.Phase != "ended" {
		if v := p.conn.View; waiting == 0 && v != nil && v.Phase != "ended" {
			m, ok := client.RandomMove(v, &src)
			if !ok && v.Legal.Pass {
				m, ok = wire.ClientMessage{Type: "command", Verb: "pass"}, true
			}
			if ok {
				id, err := p.conn.Send(ctx, m)
				if err != nil {
					return fmt.Errorf("the real player's move: %w", err)
				}
				waiting = id
			}
		}
		m, err := p.conn.Read(ctx)
		if err != nil {
			return fmt.Errorf("the real player lost the game's frames after %d: %w", frames, err)
		}
		frames++
		if m.Type == "chat" {
			p.chats++
		}
		if (m.Type == "reply" || m.Type == "error") && m.ID == waiting {
			waiting = 0
		}
	}
	if frames < least {
		return fmt.Errorf("the real player's game ended after %d frames", frames)
	}
	return nil
}

// closeCode is the close status and reason of a WebSocket's read error.
func closeCode(err error) (websocket.StatusCode, string) {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code, ce.Reason
	}
	return -1, ""
}

// answer is what an HTTP request was answered: the status, the error's
// code and sentence (empty when it was not refused), the body and the
// cookies set.
type answer struct {
	status        int
	code, message string
	body          []byte
	cookies       []*http.Cookie
}

// ask makes one HTTP request as an attacker would, with any headers (a
// Cookie, an Origin, a Content-Type) and body, from hc (nil: the default
// client, from 127.0.0.1).
func ask(ctx context.Context, t *testing.T, hc *http.Client, method, url string, hdr map[string]string, body string) answer {
	t.Helper()
	if hc == nil {
		hc = http.DefaultClient // its transport tuned by TestMain
	}
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode, cookies: resp.Cookies()}
	if a.body, err = io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(a.body, &e) == nil {
		a.code, a.message = e.Error.Code, e.Error.Message
	}
	return a
}

// counter reads one counter of the operator's /metrics (0 if absent).
func (tg *target) counter(ctx context.Context, t *testing.T, name string) float64 {
	t.Helper()
	a := ask(ctx, t, nil, "GET", tg.ops+"/metrics", nil, "")
	if a.status != http.StatusOK {
		t.Fatalf("the operator's /metrics: %d", a.status)
	}
	for _, line := range strings.Split(string(a.body), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			var f float64
			if _, err := fmt.Sscan(v, &f); err != nil {
				t.Fatalf("%s: %q", name, line)
			}
			return f
		}
	}
	return 0
}

// sit takes a seat at a table through api (seat 0: any free one; the host
// passes its token) and opens the seat's connection, closed when the test
// ends.
func sit(ctx context.Context, t *testing.T, api *client.API, table, name string, seat int, token string) *client.Conn {
	t.Helper()
	j, err := api.Join(ctx, table, name, seat, token)
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.Dial(ctx, table, j.Token, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// readUntil reads c until the answer (reply, error or pong) to request id
// and returns it; other frames are absorbed into c (its view, its lobby).
func readUntil(ctx context.Context, c *client.Conn, id int64) (wire.ServerMessage, error) {
	for {
		m, err := c.Read(ctx)
		if err != nil {
			return m, err
		}
		if m.ID == id && (m.Type == "reply" || m.Type == "error" || m.Type == "pong") {
			return m, nil
		}
	}
}

// roundTrip sends m on c and returns its answer ("" code: accepted).
func roundTrip(ctx context.Context, c *client.Conn, m wire.ClientMessage) (wire.ServerMessage, error) {
	id, err := c.Send(ctx, m)
	if err != nil {
		return wire.ServerMessage{}, err
	}
	return readUntil(ctx, c, id)
}
