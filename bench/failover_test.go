package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/server"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/wire"
)

// update is a game frame for a seat: its count and its events' kinds.
func update(seq int, kinds ...string) []byte {
	evs := make([]string, len(kinds))
	for i, k := range kinds {
		evs[i] = fmt.Sprintf(`{"kind":%q,"round":1}`, k)
	}
	ev := ""
	if len(kinds) > 0 {
		ev = `"events":[` + strings.Join(evs, ",") + `],`
	}
	sq := ""
	if seq > 0 {
		sq = fmt.Sprintf(`"seq":%d,`, seq)
	}
	return []byte(`{"v":1,"type":"update","seat":3,` + sq + ev + `"view":{"phase":"day","step":4,"legal":{}},"now":1}`)
}

// TestSeatLost_CountsWhatAFailoverSkippedOrRewrote feeds a seat frames by
// hand, as the server would send them, and then a reconnect's welcome: a
// stream one by one, and a welcome that goes on from since or resends the
// same events, lose nothing; a gap, numbers that go back, an event told
// again as another kind, and events a new server no longer has are each
// counted, once per event.
func TestSeatLost_CountsWhatAFailoverSkippedOrRewrote(t *testing.T) {
	told := []string{"game_began", "day_began", "speech_began"}
	for _, c := range []struct {
		name    string
		frames  [][]byte // after the first three events, one by one
		welcome []string // then a welcome of these events (nil: none)
		seq     int      // the welcome's count
		lost    int64
		log     []string // what the seat has at the end
	}{
		{"a stream one by one loses nothing", [][]byte{update(4, "nominated"), update(4), update(6, "passed", "speech_began")}, nil, 0, 0,
			append(told, "nominated", "passed", "speech_began")},
		{"a welcome from since loses nothing", nil, []string{"nominated"}, 4, 0, append(told, "nominated")},
		{"a welcome with nothing missed loses nothing", nil, []string{}, 3, 0, told},
		{"a welcome resending the same events loses nothing", nil, append(told, "nominated"), 4, 0, append(told, "nominated")},
		{"a gap is lost", [][]byte{update(6, "passed")}, nil, 0, 2, append(told, "", "", "passed")},
		{"numbers that go back are lost", [][]byte{update(3, "speech_began")}, nil, 0, 1, told},
		{"a count that goes back is lost", [][]byte{update(2)}, nil, 0, 1, told[:2]},
		{"a welcome that rewrites an event is lost", nil, []string{"game_began", "night_began", "speech_began"}, 3, 1,
			[]string{"game_began", "night_began", "speech_began"}},
		{"events the new server no longer has are lost", nil, told[:1], 1, 2, told[:1]},
		{"a welcome with none of the events is all lost", nil, []string{}, 0, 3, []string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &run{cfg: Config{Failover: time.Second}, track: true, errs: map[string]int64{}}
			s := &seat{r: r, sv: &serverRun{errs: map[string]int64{}}, ctx: context.Background()}
			for _, f := range append([][]byte{update(0), update(1, "game_began"), update(3, "day_began", "speech_began")}, c.frames...) {
				s.absorb(kindUpdate, f)
			}
			if c.welcome != nil {
				r.lost.Add(int64(s.log.told(c.seq, c.welcome, true)))
			}
			if got := r.lost.Load(); got != c.lost {
				t.Errorf("lost %d, want %d", got, c.lost)
			}
			if strings.Join(s.log.kinds, ",") != strings.Join(c.log, ",") || s.log.seq() != len(c.log) {
				t.Errorf("the seat has %q, want %q", s.log.kinds, c.log)
			}
			if len(r.errs) != 0 {
				t.Errorf("errors %v", r.errs)
			}
		})
	}
}

// TestSeatConflicts_SeatsAgreeOnWhatEverySeatSees: seats whose logs differ
// only by the events some of them alone see (a check, a vote, the mafia's
// choice) agree; a seat told another public event, or one in another
// order, is a conflict; a seat with a gap is left out (it was counted).
func TestSeatConflicts_SeatsAgreeOnWhatEverySeatSees(t *testing.T) {
	public := []string{"game_began", "night_began", "day_began", "speech_began"}
	agree := [][]string{public,
		{"game_began", "night_began", "checked", "day_began", "speech_began"},
		{"game_began", "night_began", "mafia_chose", "day_began"}, // its game went no further
	}
	if n := seatConflicts(agree); n != 0 {
		t.Errorf("seats that differ by private events: %d conflicts, want 0", n)
	}
	if n := seatConflicts([][]string{public, {"game_began", "day_began", "night_began", "speech_began"}}); n != 2 {
		t.Errorf("two public events swapped: %d conflicts, want 2", n)
	}
	if n := seatConflicts([][]string{{"game_began", "", "day_began"}, public, {"game_began", "night_began", "day_began", "vote_began"}}); n != 1 {
		t.Errorf("a seat told another public event: %d conflicts, want 1", n)
	}
	for _, k := range []string{"checked", "healed", "shot", "skipped", "mafia_chose"} {
		if !privateKinds[k] {
			t.Errorf("%s is not among the events only some seats see: %v", k, privateKinds)
		}
	}
}

// TestBreakCause_ReconnectsAsTheProtocolSays: a broken connection and the
// closes docs/protocol.md says to reconnect after are taken back; a kick, a
// seat given up, an expired lobby and a flood are not; a refused handshake
// is tried again when it is a 503, 404 or 429, not a 403 or 410.
func TestBreakCause_ReconnectsAsTheProtocolSays(t *testing.T) {
	closeErr := func(code websocket.StatusCode, reason string) error {
		return fmt.Errorf("read: %w", websocket.CloseError{Code: code, Reason: reason})
	}
	for _, c := range []struct {
		err   error
		again bool
	}{
		{io.EOF, true},
		{closeErr(websocket.StatusGoingAway, "shutdown"), true},
		{closeErr(websocket.StatusServiceRestart, "node_gone"), true},
		{closeErr(websocket.StatusServiceRestart, "table_moved"), true},
		{closeErr(websocket.StatusInternalError, "relay_error"), true},
		{closeErr(websocket.StatusPolicyViolation, "too_slow"), true},
		{closeErr(websocket.StatusPolicyViolation, "stopped"), true},
		{closeErr(websocket.StatusPolicyViolation, "kicked"), false},
		{closeErr(websocket.StatusPolicyViolation, "seat_left"), false},
		{closeErr(websocket.StatusPolicyViolation, "expired"), false},
		{closeErr(websocket.StatusPolicyViolation, "flood"), false},
		{closeErr(websocket.StatusMessageTooBig, ""), false},
		{closeErr(websocket.StatusNormalClosure, ""), false},
	} {
		if _, again := breakCause(c.err); again != c.again {
			t.Errorf("%v: reconnect %v, want %v", c.err, again, c.again)
		}
	}
	for _, c := range []struct {
		err   error
		again bool
	}{
		{&client.HandshakeError{Status: 503, Err: io.EOF}, true},
		{&client.HandshakeError{Status: 404, Err: io.EOF}, true},
		{&client.HandshakeError{Status: 429, Err: io.EOF}, true},
		{&client.HandshakeError{Status: 403, Err: io.EOF}, false},
		{&client.HandshakeError{Status: 410, Err: io.EOF}, false},
		{&client.Error{Code: "busy"}, true},
		{&client.Error{Code: "bad_token"}, false},
		{&client.Error{Status: 503, Code: "draining"}, true},
		{&client.Error{Status: 503, Code: "table_moving"}, true},
		{&client.Error{Code: "table_moving"}, true},
		{&client.Error{Status: 409, Code: "table_full"}, false},
		{errors.New("dial tcp 127.0.0.1:1: connect: connection refused"), true},
	} {
		if got := retriable(c.err); got != c.again {
			t.Errorf("%#v: try again %v, want %v", c.err, got, c.again)
		}
	}
}

// failoverFixture is a server on a SQLite file at two URLs, the first its
// own, the second a stand-in for a cluster's other node (it serves the same
// server), until kill stops the server and a second server.New on the same
// store takes the second URL over, as a node that takes a dead node's
// tables over would (two servers cannot share a SQLite file at once).
type failoverFixture struct {
	db     *sqlite.DB
	a, b   string // the URLs
	hsA    *httptest.Server
	first  *server.Server
	second atomic.Pointer[server.Server]
	// gap answers the second URL while no server has the tables: a node
	// taking the table over.
	gap atomic.Bool
}

func newFailoverFixture(t *testing.T) *failoverFixture {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	fx := &failoverFixture{db: db, first: fx0server(t, db)}
	fx.hsA = httptest.NewServer(fx.first.Handler())
	hsB := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fx.gap.Load() {
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"error":{"code":"relay_unavailable","message":"taking the table over"}}`)
			return
		}
		if s := fx.second.Load(); s != nil {
			s.Handler().ServeHTTP(w, r)
			return
		}
		fx.first.Handler().ServeHTTP(w, r)
	}))
	fx.a, fx.b = fx.hsA.URL, hsB.URL
	t.Cleanup(func() {
		hsB.CloseClientConnections()
		hsB.Close()
		fx.hsA.CloseClientConnections()
		fx.hsA.Close()
		if s := fx.second.Load(); s != nil {
			s.Close() // and the first was closed by kill
		} else {
			fx.first.Close()
		}
		db.Close()
	})
	return fx
}

// fx0server is a server on db as the bench's tests run it, its tables
// resumed.
func fx0server(t *testing.T, db *sqlite.DB) *server.Server {
	t.Helper()
	srv := server.New(server.Config{Store: db, SeatsPerAddress: -1,
		Limits: server.Limits{Unlimited: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	return srv
}

// waitMidGame waits until a game is playing and has a few events stored.
func (fx *failoverFixture) waitMidGame(t *testing.T, ctx context.Context) {
	t.Helper()
	for ctx.Err() == nil {
		ids, err := fx.db.TableIDs(ctx, store.KindOnline, store.StatusPlaying)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if evs, err := fx.db.Events(ctx, id); err == nil && len(evs) >= 12 {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("no game began")
}

// kill stops the first server mid-game: its URL refuses connections from
// then on, the second answers 503 with Retry-After, and its WebSockets get
// 1001 shutdown; then a second server on the same store takes the second
// URL over. The listener closes before the server: a server.Server that
// has been closed still resumes a table a new request asks for.
func (fx *failoverFixture) kill(t *testing.T) {
	t.Helper()
	fx.gap.Store(true)
	fx.hsA.Close() // its WebSockets are the server's, not the listener's
	fx.first.Close()
	fx.second.Store(fx0server(t, fx.db))
	fx.gap.Store(false)
}

// runAcrossKill runs a bench of two tables over the fixture's two URLs and
// kills the first server once a game is under way.
func runAcrossKill(t *testing.T, failover time.Duration) (*failoverFixture, Result) {
	t.Helper()
	fx := newFailoverFixture(t)
	tm := ShortTimings()
	tm["night"], tm["vote"] = 150, 400
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	type out struct {
		res Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := Run(ctx, Config{Servers: []string{fx.a, fx.b}, Players: 22, Games: 2, Timings: tm, Ramp: 1000,
			Timeout: 120 * time.Second, Seed: 7, Failover: failover, KeepTables: true})
		done <- out{res, err}
	}()
	fx.waitMidGame(t, ctx)
	fx.kill(t)
	o := <-done
	if o.err != nil {
		t.Fatal(o.err)
	}
	t.Logf("failover %v, first %s, second %s:\n%s", failover, fx.a, fx.b, o.res.Summary())
	return fx, o.res
}

// TestRun_FailoverTakesEverySeatBackAndEveryGameEnds stops the server
// mid-game, as a cluster loses a node: with failover every seat takes its
// seat back on the other URL (a second server on the same store, after a
// spell of 503s), with its since, and plays on; every game that began ends,
// with no error and nothing lost; each seat of each table was told every
// event number up to its last, no more events than the store's log holds.
func TestRun_FailoverTakesEverySeatBackAndEveryGameEnds(t *testing.T) {
	fx, res := runAcrossKill(t, 20*time.Second)
	if res.Errors != 0 {
		t.Errorf("errors %d %v", res.Errors, res.ErrorKinds)
	}
	if res.Reconnects == 0 || res.ReconnectCauses["1001/shutdown"] == 0 {
		t.Errorf("reconnects %d %v; want some after 1001 shutdown", res.Reconnects, res.ReconnectCauses)
	}
	if res.FailoverGapMaxMs <= 0 || res.FailoverGapP50ms > res.FailoverGapMaxMs {
		t.Errorf("failover gaps p50 %.1f ms, max %.1f ms", res.FailoverGapP50ms, res.FailoverGapMaxMs)
	}
	if res.GamesStarted < 2 || res.GamesUnfinished != 0 || res.Lost != 0 {
		t.Errorf("games started %d, unfinished %d, lost %d; want every game to end and nothing lost", res.GamesStarted, res.GamesUnfinished, res.Lost)
	}
	if int64(len(res.TablesSeen)) != res.GamesStarted {
		t.Fatalf("%d tables seen for %d games", len(res.TablesSeen), res.GamesStarted)
	}
	ctx := context.Background()
	reconnected := 0
	for _, ts := range res.TablesSeen {
		evs, err := fx.db.Events(ctx, ts.Table)
		if err != nil {
			t.Fatal(err)
		}
		if !ts.Ended || len(ts.Events) == 0 || len(ts.Events) > len(evs) {
			t.Errorf("table %s: ended %v, %d events seen, %d stored", ts.Table, ts.Ended, len(ts.Events), len(evs))
		}
		for _, s := range ts.Seats {
			reconnected += s.Reconnects
			for i, k := range s.Events {
				if k == "" {
					t.Errorf("table %s seat %d: event %d never told", ts.Table, s.Seat, i+1)
				}
			}
		}
	}
	if int64(reconnected) != res.Reconnects {
		t.Errorf("the seats reconnected %d times, the run counted %d", reconnected, res.Reconnects)
	}
	// The first URL refuses connections from the stop on: every seat came
	// back through the second.
	if len(res.PerServer) != 2 || res.PerServer[0].Reconnects != 0 || res.PerServer[1].Reconnects != res.Reconnects {
		t.Errorf("reconnects by server: %+v", res.PerServer)
	}
	if !strings.Contains(res.Summary(), "reconnects") {
		t.Errorf("the summary does not say the reconnects:\n%s", res.Summary())
	}
}

// TestRun_WithoutFailoverABreakIsAnError: the same stop without failover
// costs the games in play, each seat counted as dropped, as before.
func TestRun_WithoutFailoverABreakIsAnError(t *testing.T) {
	_, res := runAcrossKill(t, 0)
	if res.ErrorKinds["dropped"] == 0 || res.Reconnects != 0 {
		t.Errorf("errors %v, reconnects %d; want dropped seats and no reconnect", res.ErrorKinds, res.Reconnects)
	}
	if res.GamesUnfinished == 0 {
		t.Errorf("games started %d, unfinished %d; want the games in play lost", res.GamesStarted, res.GamesUnfinished)
	}
}

// TestOnServers_TheOthersInTurnThenTheLastOne: a failover tries the servers
// in turn from the one after the seat's own, its own last; a server that
// asked for time (Retry-After) is passed over until then; a refusal for
// good ends it at once; the first success is the server it stays on.
func TestOnServers_TheOthersInTurnThenTheLastOne(t *testing.T) {
	r := &run{srvs: []*serverRun{{url: "0"}, {url: "1"}, {url: "2"}}}
	ctx := context.Background()
	attempt := func(wait time.Duration, fail func(i int) error) ([]int, int, error) {
		var tried []int
		i, err := r.onServers(ctx, time.Now().Add(wait), 1, func(_ context.Context, sv *serverRun) error {
			n := int(sv.url[0] - '0')
			tried = append(tried, n)
			return fail(n)
		})
		return tried, i, err
	}

	tried, _, err := attempt(350*time.Millisecond, func(int) error { return io.EOF })
	if err != io.EOF || len(tried) == 0 {
		t.Fatalf("tried %v, %v", tried, err)
	}
	for k, n := range tried { // 1, 2, 0, 1, …: however many the wait held
		if n != (1+k)%3 {
			t.Fatalf("tried %v; want 1, 2, 0 in turn", tried)
		}
	}

	tried, _, _ = attempt(350*time.Millisecond, func(n int) error {
		if n == 1 {
			return &client.HandshakeError{Status: 503, RetryAfter: time.Hour, Err: io.EOF}
		}
		return io.EOF
	})
	if tried[0] != 1 || strings.Count(fmt.Sprint(tried), "1") != 1 {
		t.Errorf("tried %v; want server 1 once, then only the others", tried)
	}
	tried, _, _ = attempt(350*time.Millisecond, func(n int) error { // an API request's 503 table_moving
		if n == 1 {
			return &client.Error{Status: 503, Code: "table_moving", RetryAfter: time.Hour}
		}
		return io.EOF
	})
	if tried[0] != 1 || strings.Count(fmt.Sprint(tried), "1") != 1 {
		t.Errorf("an API request's Retry-After: tried %v; want server 1 once, then only the others", tried)
	}

	tried, _, err = attempt(time.Minute, func(int) error { return &client.HandshakeError{Status: 403, Err: io.EOF} })
	if len(tried) != 1 || err == nil {
		t.Errorf("a refusal for good: tried %v, %v; want one try and its error", tried, err)
	}

	tried, i, err := attempt(time.Minute, func(n int) error {
		if n == 0 {
			return nil
		}
		return io.EOF
	})
	if err != nil || i != 0 || fmt.Sprint(tried) != "[1 2 0]" {
		t.Errorf("tried %v, on %d, %v; want [1 2 0] and server 0", tried, i, err)
	}
}

// TestSeat_AHostActionInFlightAtABreakIsDecidedAgain: a stand-in server
// takes the host's start, sends the game's first update and breaks the
// connection before the reply; the seat reconnects with since = 2 (the
// events it was told), sees the game under way, and takes the start as
// done: no error, one reconnect, nothing lost, and the seat plays on to the
// end the welcome shows.
func TestSeat_AHostActionInFlightAtABreakIsDecidedAgain(t *testing.T) {
	var conns atomic.Int32
	var since atomic.Value
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		c, err := websocket.Accept(w, req, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := req.Context()
		if conns.Add(1) == 1 {
			c.Write(ctx, websocket.MessageText, []byte(`{"v":1,"type":"welcome","seat":1,"host":true}`))
			if _, data, err := c.Read(ctx); err != nil || !strings.Contains(string(data), `"start"`) {
				t.Errorf("the host sent %s, %v; want its start", data, err)
				return
			}
			c.Write(ctx, websocket.MessageText, []byte(`{"v":1,"type":"update","seat":1,"seq":2,"events":[{"kind":"game_began","round":0},{"kind":"night_began","round":1}],"view":{"phase":"night","step":1,"legal":{}}}`))
			return // broken, before the reply
		}
		since.Store(req.URL.Query().Get("since"))
		c.Write(ctx, websocket.MessageText, []byte(`{"v":1,"type":"welcome","seat":1,"host":true,"seq":3,"events":[{"kind":"game_ended","round":1}],"view":{"phase":"ended","step":2,"legal":{}}}`))
		c.Read(ctx) // until the seat goes
	}))
	defer hs.Close()

	api := &client.API{Base: hs.URL}
	r := &run{cfg: Config{Failover: 30 * time.Second}, track: true,
		errs: map[string]int64{}, refusals: map[string]int64{}, causes: map[string]int64{},
		srvs: []*serverRun{{url: hs.URL, api: api, errs: map[string]int64{}}}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := api.Dial(ctx, "t", "tok", 0)
	if err != nil {
		t.Fatal(err)
	}
	r.connect(1)
	s := newSeat(ctx, r, 0, c, 1, "t", "tok")
	played := make(chan error, 1)
	go func() { played <- s.play() }()
	if err := s.control(wireStart()); err != nil {
		t.Errorf("start: %v; want it taken as done after the reconnect", err)
	}
	if err := <-played; err != nil {
		t.Errorf("play: %v; want the game's end", err)
	}
	s.release()
	if got, _ := since.Load().(string); got != "2" {
		t.Errorf("reconnected with since=%q, want 2", got)
	}
	if r.reconnects.Load() != 1 || r.causes["broken"] != 1 || r.lost.Load() != 0 || len(r.errs) != 0 || r.connected.Load() != 0 {
		t.Errorf("reconnects %d %v, lost %d, errors %v, connected %d", r.reconnects.Load(), r.causes, r.lost.Load(), r.errs, r.connected.Load())
	}
	if fmt.Sprint(s.log.kinds) != "[game_began night_began game_ended]" {
		t.Errorf("the seat was told %v", s.log.kinds)
	}
}

func wireStart() wire.ClientMessage { return wire.ClientMessage{Type: "host", Action: "start"} }

// TestSeat_ACommandRefusedAsTheRoomStopsIsNoErrorWithFailover: a command on
// its way when the table's room stopped is answered stopped (table_moved
// for a handover) before the close that has the seat reconnect; with
// failover that is a refusal the seat gets over, not an error; without it,
// a server that stopped under the bench is an error, as is an internal
// refusal either way.
func TestSeat_ACommandRefusedAsTheRoomStopsIsNoErrorWithFailover(t *testing.T) {
	for _, c := range []struct {
		code     string
		failover time.Duration
		errs     int
	}{
		{"stopped", time.Second, 0},
		{"table_moved", time.Second, 0},
		{"stopped", 0, 1},
		{"internal", time.Second, 1},
	} {
		t.Run(fmt.Sprintf("%s failover %v", c.code, c.failover), func(t *testing.T) {
			r := &run{cfg: Config{Failover: c.failover}, errs: map[string]int64{}, refusals: map[string]int64{}}
			r.measuring.Store(true)
			sv := &serverRun{errs: map[string]int64{}}
			s := &seat{r: r, sv: sv, ctx: context.Background(), waiting: 9}
			s.absorb(kindError, []byte(fmt.Sprintf(`{"v":1,"type":"error","id":9,"code":%q,"message":"m"}`, c.code)))
			if n := r.errorCount(); n != int64(c.errs) {
				t.Errorf("errors %v, want %d", r.errs, c.errs)
			}
			if c.errs == 0 && r.refusals[c.code] != 1 {
				t.Errorf("refusals %v, want one %s", r.refusals, c.code)
			}
		})
	}
}
