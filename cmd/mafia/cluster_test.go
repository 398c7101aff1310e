package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	natsserver "github.com/nats-io/nats-server/v2/server"

	"mafia/client"
	"mafia/engine"
	"mafia/internal/freeport"
	"mafia/internal/pgtest"
	"mafia/locale"
	"mafia/rng"
	"mafia/server"
	"mafia/store"
	"mafia/store/postgres"
	"mafia/wire"
)

// clusterTTL is the tests' lease time: short, so that a takeover comes
// within seconds.
const clusterTTL = "2s"

// freeAddr is a free loopback port's address (for an embedded NATS
// server's routes, which the other nodes must know before it starts),
// outside the range from which other listeners take theirs
// (internal/freeport).
func freeAddr(t *testing.T) string {
	t.Helper()
	a, err := freeport.Addr()
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// startCluster starts n nodes (`mafia serve --node`) as processes on one
// PostgreSQL database, each embedding a NATS server routed to the others,
// and returns them once every node hears every other (each one's lobby
// lists a table made on each node... checked by the tests that need it).
func startCluster(ctx context.Context, t *testing.T, db string, n int, extra ...string) []*servedProcess {
	t.Helper()
	return startClusterWith(ctx, t, db, n, nil, extra...)
}

// nodeURL is a node's --node-url, from its index (from 0) and the
// loopback address it listens at.
type nodeURL func(i int, addr string) string

// atItsAddress is the --node-url of a node reached at its real address.
func atItsAddress(_ int, addr string) string { return "http://" + addr }

// startClusterWith is startCluster with each node's --node-url from url
// and its --addr a free loopback port's (nil url: each listens where it
// likes and is named https://nN.mafia.test, which answers nothing).
func startClusterWith(ctx context.Context, t *testing.T, db string, n int, url nodeURL, extra ...string) []*servedProcess {
	t.Helper()
	routes := make([]string, n)
	for i := range routes {
		routes[i] = freeAddr(t)
	}
	secret := clusterSecret(t)
	nodes := make([]*servedProcess, n)
	for i := range nodes {
		var peers []string
		for j, r := range routes {
			if j != i {
				peers = append(peers, "nats-route://"+r)
			}
		}
		self := []string{"--node-url", fmt.Sprintf("https://n%d.mafia.test/", i+1)}
		if url != nil {
			addr := freeAddr(t)
			self = []string{"--addr", addr, "--node-url", url(i, addr)}
		}
		args := append(append(self, "--db", db, "--node", fmt.Sprint("n", i+1), "--nats-listen", routes[i],
			"--nats-peers", strings.Join(peers, ","), "--lease-ttl", clusterTTL, "--cluster-secret", secret), extra...)
		nodes[i] = startServe(ctx, t, args...)
	}
	return nodes
}

// sharedStore opens the cluster's database beside its nodes (the test's
// own look at the leases and logs).
func sharedStore(ctx context.Context, t *testing.T, db string) *postgres.DB {
	t.Helper()
	st, err := postgres.Open(ctx, db, postgres.Shared())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// awaitListed polls api's lobby until it lists table (the lobby of every
// node: the node and its peers hear each other).
func awaitListed(ctx context.Context, t *testing.T, api *client.API, table string) {
	t.Helper()
	for {
		ls, err := api.Tables(ctx)
		if err == nil {
			for _, l := range ls {
				if l.Table == table {
					return
				}
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the lobby at %s never listed %s", api.Base, table)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// metricsOf reads a node's /metrics from its operator's address (--ops,
// which its log names).
func metricsOf(ctx context.Context, t *testing.T, p *servedProcess) string {
	t.Helper()
	_, rest, ok := strings.Cut(p.log(), `"msg":"operator's address","addr":"`)
	if !ok {
		t.Fatalf("the node's log names no operator's address:\n%s", p.log())
	}
	addr, _, _ := strings.Cut(rest, `"`)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/metrics", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// grepLines is the lines of s that hold sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// holderOfTable is the node whose lease the table has now.
func holderOfTable(ctx context.Context, t *testing.T, st *postgres.DB, table string) string {
	t.Helper()
	l, err := st.Lease(ctx, table)
	if err != nil {
		return ""
	}
	return l.Node
}

// tableEnded reports whether the store has table id's game ended.
func tableEnded(ctx context.Context, t *testing.T, st *postgres.DB, id string) bool {
	t.Helper()
	tb, _, err := st.Table(ctx, store.KindOnline, id)
	return err == nil && tb.Status == store.StatusEnded
}

// clusterGame makes a public table of seven on maker, seats seven players
// through join (another node, perhaps), starts it and returns the table,
// the connections (each dialled through join too) and the seats' tokens.
func clusterGame(ctx context.Context, t *testing.T, maker, join *client.API) (string, []*client.Conn, []string) {
	t.Helper()
	timings := map[string]int64{"speech": 3000, "defence": 3000, "tie_speech": 3000, "last_words": 3000, "night": 300, "vote": 800}
	return startGame(ctx, t, maker, join, client.CreateRequest{Name: "cluster", Players: 7, Public: true, TimingsMS: timings})
}

// startGame makes the table req asks for on maker, seats a player in each
// of its seats through join (the first with the host's token), connects
// each through join, starts the game and returns the table, the
// connections and the seats' tokens. A public table is first waited for in
// join's lobby (another node's, perhaps).
func startGame(ctx context.Context, t *testing.T, maker, join *client.API, req client.CreateRequest) (string, []*client.Conn, []string) {
	t.Helper()
	created, err := maker.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if req.Public {
		awaitListed(ctx, t, join, created.Table)
	}
	conns := make([]*client.Conn, req.Players)
	tokens := make([]string, req.Players)
	for i := range conns {
		tok := ""
		if i == 0 {
			tok = created.HostToken
		}
		j, err := join.Join(ctx, created.Table, fmt.Sprint("p", i+1), 0, tok)
		if err != nil {
			t.Fatalf("join through %s: %v", join.Base, err)
		}
		tokens[i] = j.Token
		if conns[i], err = join.Dial(ctx, created.Table, j.Token, 0); err != nil {
			t.Fatalf("dial through %s: %v", join.Base, err)
		}
		t.Cleanup(func() { conns[i].CloseNow() })
	}
	if err := hostSays(ctx, conns[0], "start"); err != nil {
		t.Fatal(err)
	}
	for conns[0].Lobby == nil || conns[0].Lobby.Status != "playing" {
		if _, err := conns[0].Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return created.Table, conns, tokens
}

// playAll plays every seat to the end of its game and returns the first
// error.
func playAll(ctx context.Context, conns []*client.Conn) error {
	var wg sync.WaitGroup
	errs := make([]error, len(conns))
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = playOut(ctx, c, uint64(i+1))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestCluster_APlayerOnNodeAPlaysATableOwnedByNodeB runs two nodes as
// processes on one PostgreSQL: a table made on node 2 is listed by node
// 1's lobby, seven players join it, connect and play it to its end
// entirely through node 1 (the joins passed on over NATS, the WebSockets
// relayed), and the table's lease is node 2's throughout.
func TestCluster_APlayerOnNodeAPlaysATableOwnedByNodeB(t *testing.T) {
	t.Parallel()
	db := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	nodes := startCluster(ctx, t, db, 2, "--ops", "127.0.0.1:0")
	st := sharedStore(ctx, t, db)
	table, conns, _ := clusterGame(ctx, t, nodes[1].api, nodes[0].api)
	if h := holderOfTable(ctx, t, st, table); h != "n2" {
		t.Fatalf("the table's lease is %q's, want n2's", h)
	}
	// Node 1 names node 2 as the owner, with its --node-url: in the
	// cluster's lobby and in the table's row (passed on to node 2).
	owner := wire.TableOwner{Node: "n2", URL: "https://n2.mafia.test"}
	if l, err := nodes[0].api.Table(ctx, table); err != nil || l.Owner == nil || *l.Owner != owner {
		t.Errorf("the table's row at node 1: owner %+v %v, want %+v", l.Owner, err, owner)
	}
	listed, err := nodes[0].api.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range listed {
		if l.Table == table && (l.Owner == nil || *l.Owner != owner) {
			t.Errorf("node 1's lobby: owner %+v, want %+v", l.Owner, owner)
		}
	}
	// Each node's /metrics says what it did: node 2 took the table's
	// lease when it was made; node 1 relayed the seats' sessions and
	// passed their joins on.
	if m := metricsOf(ctx, t, nodes[1]); !strings.Contains(m, `mafia_leases_taken_total{why="create"} 1`) {
		t.Errorf("node 2's metrics do not count the lease it took:\n%s", grepLines(m, "mafia_leases"))
	}
	m := metricsOf(ctx, t, nodes[0])
	for _, want := range []string{`mafia_relay_sessions{side="a"} 7`, `mafia_relay_requests_total{result="ok"} 8`} {
		if !strings.Contains(m, want) {
			t.Errorf("node 1's metrics lack %s:\n%s", want, grepLines(m, "mafia_relay"))
		}
	}
	// A request through node 1 to the table's WebSocket path that is no
	// handshake (a plain GET, a handshake of another version) opens no
	// relayed session: node 1 passes it on as a plain request, and node 2
	// refuses it not_websocket, in the client's language.
	opened := grepLines(m, "mafia_relay_sessions_total")
	for _, h := range []http.Header{{}, {"Connection": {"Upgrade"}, "Upgrade": {"websocket"}, "Sec-WebSocket-Version": {"8"}, "Sec-WebSocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="}}} {
		req, _ := http.NewRequestWithContext(ctx, "GET", nodes[0].api.Base+"/api/tables/"+table+"/ws?lang=ru", nil)
		req.Header = h
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Error struct{ Code, Message string }
		}
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		want := locale.New(locale.Ru).Refusal(&engine.Error{Code: server.CodeNotWebSocket})
		if resp.StatusCode != http.StatusBadRequest || body.Error.Code != "not_websocket" || body.Error.Message != want {
			t.Errorf("no handshake, through node 1 (%v): %d %+v; want 400 not_websocket in Russian", h, resp.StatusCode, body.Error)
		}
	}
	if now := grepLines(metricsOf(ctx, t, nodes[0]), "mafia_relay_sessions_total"); now != opened {
		t.Errorf("node 1 opened relayed sessions for requests that were no handshake:\nbefore\n%s\nafter\n%s", opened, now)
	}
	if err := playAll(ctx, conns); err != nil {
		t.Fatalf("a seat playing through node 1: %v\nnode 1:\n%s\nnode 2:\n%s", err, nodes[0].log(), nodes[1].log())
	}
	if h := holderOfTable(ctx, t, st, table); h != "n2" {
		t.Errorf("after the game the table's lease is %q's, want n2's", h)
	}
	tb, _, err := st.Table(ctx, store.KindOnline, table)
	if err != nil || tb.Status != store.StatusEnded {
		t.Errorf("the stored table: %+v %v, want ended", tb.Status, err)
	}
	// Node 1 ran no room of it: every frame came from node 2.
	if strings.Contains(nodes[0].log(), `"msg":"table taken","table":"`+table) {
		t.Errorf("node 1 took the table:\n%s", nodes[0].log())
	}
}

// checkOneOwnerAtATime fails when a table's log has an event written under
// an older token after one written under a newer (two owners writing in
// turn), or an event written without a fence.
func checkOneOwnerAtATime(ctx context.Context, t *testing.T, st *postgres.DB, table string) {
	t.Helper()
	fences, err := st.EventFences(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range fences {
		if f == 0 {
			t.Errorf("table %s: event %d was written without a fence", table, i)
		}
		if i > 0 && f < fences[i-1] {
			t.Errorf("table %s: event %d was written under token %d after event %d under %d: two owners", table, i, f, i-1, fences[i-1])
		}
	}
}

// seatOnCluster is one player of a cluster test: it plays its seat with
// random legal moves through any node, reconnecting with since to the
// next node whenever its connection ends before the game does, and keeps
// every event it was told, across the reconnects. With no apis it plays
// through its one connection, and its end is an error (playOut).
type seatOnCluster struct {
	apis       []*client.API
	table      string
	token      string
	c          *client.Conn
	at         int // the index in apis of the node it is connected through
	told       []wire.Event
	reconnects int
	closes     map[string]int // why the connections ended: close reasons
}

// play plays to the end of the game; an error is a failure to go on
// (no node took the seat back within ctx, or a refusal).
func (p *seatOnCluster) play(ctx context.Context, seed uint64) error {
	src := rng.New(seed)
	var waiting int64
	fresh := true
	p.told = append(p.told, p.c.Events...)
	for {
		if v := p.c.View; v != nil && v.Phase == "ended" {
			return nil
		}
		if v := p.c.View; waiting == 0 && fresh && v != nil {
			fresh = false
			m, ok := client.RandomMove(v, &src)
			if !ok && v.Legal.Pass {
				m, ok = wire.ClientMessage{Type: "command", Verb: "pass", Step: v.Step}, true
			}
			if ok {
				id, err := p.c.Send(ctx, m)
				if err == nil {
					waiting = id
				}
			}
		}
		m, err := p.c.Read(ctx)
		if err != nil {
			if ctx.Err() != nil || len(p.apis) == 0 {
				return err
			}
			p.closes[closeReason(err)]++
			if err := p.reconnect(ctx); err != nil {
				return err
			}
			waiting, fresh = 0, true
			continue
		}
		if len(m.Events) > 0 {
			p.told = append(p.told, m.Events...)
		}
		if m.Type == "error" && m.ID == 0 && m.Code != "table_moved" {
			return fmt.Errorf("seat's error frame: %s %s", m.Code, m.Message)
		}
		if (m.Type == "reply" || m.Type == "error") && m.ID == waiting {
			waiting = 0
		}
		fresh = fresh || m.View != nil
	}
}

// reconnect dials the seat again with since through the next node, then
// the others in turn, until one takes it or ctx ends.
func (p *seatOnCluster) reconnect(ctx context.Context) error {
	since := p.c.Seq
	p.c.CloseNow()
	wait := 50 * time.Millisecond
	for {
		p.at = (p.at + 1) % len(p.apis)
		c, err := p.apis[p.at].Dial(ctx, p.table, p.token, since)
		if err == nil {
			p.c = c
			p.reconnects++
			p.told = append(p.told, c.Events...)
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("no node took the seat back: %v", err)
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

// closeReason is a connection's close reason, or what else ended it.
func closeReason(err error) string {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return fmt.Sprintf("%d %s", ce.Code, ce.Reason)
	}
	return "broken"
}

// checkToldIsStored fails when an event a seat was told is not in the
// table's stored log as that seat reads it back after the end (a new
// connection from the start, through api): what was acknowledged and
// shown was kept, in order, by whichever node wrote it.
func checkToldIsStored(ctx context.Context, t *testing.T, api *client.API, p *seatOnCluster) {
	t.Helper()
	c, err := api.Dial(ctx, p.table, p.token, 0)
	if err != nil {
		t.Fatalf("reading seat's history back: %v", err)
	}
	defer c.CloseNow()
	all := c.Events
	i := 0
	for _, e := range p.told {
		for i < len(all) && !reflect.DeepEqual(all[i], e) {
			i++
		}
		if i == len(all) {
			t.Errorf("table %s: the seat was told %+v, which the stored log does not hold where it was told it", p.table, e)
			return
		}
		i++
	}
}

// clusterTables makes n public tables of seven, the i-th on node i mod
// len(nodes), seats their players each through node (i + seat) mod
// len(nodes) (so that most connections are relayed), starts every game
// and returns the players.
func clusterTables(ctx context.Context, t *testing.T, nodes []*servedProcess, n int) [][]*seatOnCluster {
	t.Helper()
	apis := make([]*client.API, len(nodes))
	for i, p := range nodes {
		apis[i] = p.api
	}
	// Nights of a second: a game played at once lasts a few of them, so
	// that most are still in play when a test kills a node seconds in.
	timings := map[string]int64{"speech": 3000, "defence": 3000, "tie_speech": 3000, "last_words": 3000, "night": 1000, "vote": 800}
	out := make([][]*seatOnCluster, n)
	for i := range out {
		maker := apis[i%len(apis)]
		created, err := maker.Create(ctx, client.CreateRequest{Name: fmt.Sprint("cluster ", i+1), Players: 7, Public: true,
			TimingsMS: timings, Bots: "smart", Pace: "instant"})
		if err != nil {
			t.Fatal(err)
		}
		// Every third table has two of the server's bots: they must be
		// back in their seats after a takeover.
		people := 7
		if i%3 == 2 {
			people = 5
		}
		for s := 0; s < people; s++ {
			at := (i + s) % len(apis)
			tok := ""
			if s == 0 {
				tok = created.HostToken
			}
			var j client.Joined
			for {
				// A node that has not heard the table's owner yet passes
				// nothing on: table_moving, try again.
				if j, err = apis[at].Join(ctx, created.Table, fmt.Sprint("p", s+1), 0, tok); err == nil {
					break
				}
				var ce *client.Error
				if !errors.As(err, &ce) || ce.Code != "table_moving" || ctx.Err() != nil {
					t.Fatalf("join table %d seat %d through node %d: %v", i+1, s+1, at+1, err)
				}
				time.Sleep(100 * time.Millisecond)
			}
			c, err := apis[at].Dial(ctx, created.Table, j.Token, 0)
			if err != nil {
				t.Fatalf("dial table %d seat %d through node %d: %v", i+1, s+1, at+1, err)
			}
			p := &seatOnCluster{apis: apis, table: created.Table, token: j.Token, c: c, at: at, closes: map[string]int{}}
			t.Cleanup(func() { p.c.CloseNow() })
			out[i] = append(out[i], p)
		}
		host := out[i][0]
		if people < 7 {
			if err := hostSetsUp(ctx, host, "add_bots", func(l *wire.Lobby) bool { return seatsTaken(l) == 7 }); err != nil {
				t.Fatalf("table %d: add_bots: %v", i+1, err)
			}
		}
		if err := hostSetsUp(ctx, host, "start", func(l *wire.Lobby) bool { return l.Status == "playing" }); err != nil {
			t.Fatalf("table %d: start: %v", i+1, err)
		}
	}
	return out
}

// seatsTaken counts a lobby's taken seats.
func seatsTaken(l *wire.Lobby) int {
	n := 0
	for _, s := range l.Seats {
		if s.Taken {
			n++
		}
	}
	return n
}

// hostSetsUp sends a host's action before the game and reads until the
// lobby shows it done. A connection can end before the game starts: its
// table moved to another node (a lease not renewed in time on a loaded
// machine closes its seats 1012 table_moved), or the server's pings went
// unanswered while the test set up the other tables (this library's
// connection answers them only while it reads). The host then does what a
// client does, dials its seat again through the nodes in turn, and sends
// the action again unless the lobby it finds shows it done already. A
// refusal (an error frame) fails.
func hostSetsUp(ctx context.Context, host *seatOnCluster, action string, done func(*wire.Lobby) bool) error {
	for {
		if l := host.c.Lobby; l != nil && done(l) {
			return nil
		}
		err := hostSays(ctx, host.c, action)
		for err == nil {
			if l := host.c.Lobby; l != nil && done(l) {
				return nil
			}
			_, err = host.c.Read(ctx)
		}
		var no refusal
		if ctx.Err() != nil || errors.As(err, &no) {
			return err
		}
		if err := host.reconnect(ctx); err != nil {
			return err
		}
	}
}

// hostSays sends a host's action and waits for its reply.
func hostSays(ctx context.Context, host *client.Conn, action string) error {
	id, err := host.Send(ctx, wire.ClientMessage{Type: "host", Action: action})
	if err != nil {
		return err
	}
	for {
		m, err := host.Read(ctx)
		if err != nil {
			return err
		}
		if m.ID == id {
			if m.Type == "error" {
				return refusal{m.Code, m.Message}
			}
			return nil
		}
	}
}

// refusal is a host's action refused by the table (an error frame).
type refusal struct{ code, message string }

func (r refusal) Error() string { return r.code + ": " + r.message }

// playTables plays every seat of every table to its game's end, and
// returns the seats' errors joined.
func playTables(ctx context.Context, tables [][]*seatOnCluster) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for i, seats := range tables {
		for s, p := range seats {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := p.play(ctx, uint64(100*i+s+1)); err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("table %d seat %d: %w", i+1, s+1, err))
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	return errors.Join(errs...)
}

// checkTables checks every table after its game: ended in the store, one
// owner at a time in its log, and every event each seat was told stored.
func checkTables(ctx context.Context, t *testing.T, st *postgres.DB, api *client.API, tables [][]*seatOnCluster) (reconnects int, closes map[string]int) {
	t.Helper()
	closes = map[string]int{}
	for _, seats := range tables {
		id := seats[0].table
		tb, _, err := st.Table(ctx, store.KindOnline, id)
		if err != nil || tb.Status != store.StatusEnded {
			t.Errorf("table %s: stored %v %v, want ended", id, tb.Status, err)
		}
		checkOneOwnerAtATime(ctx, t, st, id)
		for _, p := range seats {
			checkToldIsStored(ctx, t, api, p)
			reconnects += p.reconnects
			for k, v := range p.closes {
				closes[k] += v
			}
		}
	}
	return reconnects, closes
}

// underWay is how many events a table's stored log holds once its game is
// under way: the deal, and the players' first moves after it.
const underWay = 4

// awaitUnderWay waits until every table's game is under way (its stored log
// holds underWay events, or it has ended already), or ctx ends: the point
// at which a test stops a node with the games in play, waited for, not
// guessed with a sleep.
func awaitUnderWay(ctx context.Context, t *testing.T, st *postgres.DB, tables [][]*seatOnCluster) {
	t.Helper()
	for _, seats := range tables {
		id := seats[0].table
		for {
			evs, err := st.Events(ctx, id)
			if err == nil && len(evs) >= underWay || tableEnded(ctx, t, st, id) {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("table %s: the game never got under way (%d events, %v)", id, len(evs), err)
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
}

// TestCluster_ADrainedNodeHandsEveryTableOver drains node 1 of two
// (SIGTERM) with four games in play on it: it hands each table over to
// node 2 (its players closed 1012 table_moved, and back through node 2
// with since), every game is played to its end with no error frame, each
// table's log has one owner at a time, every event a seat was told is
// stored, and node 1 exits 0 saying it handed every table over.
func TestCluster_ADrainedNodeHandsEveryTableOver(t *testing.T) {
	t.Parallel()
	db := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	nodes := startCluster(ctx, t, db, 2, "--drain-timeout", "30s")
	st := sharedStore(ctx, t, db)
	// Every table on node 1, every seat connected to it directly.
	tables := clusterTables(ctx, t, nodes[:1], 4)
	for _, seats := range tables {
		for _, p := range seats {
			p.apis = []*client.API{nodes[0].api, nodes[1].api}
			p.at = 0
		}
	}
	done := make(chan error, 1)
	go func() { done <- playTables(ctx, tables) }()
	awaitUnderWay(ctx, t, st, tables)
	if err := nodes[0].cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("%v\nnode 1:\n%s\nnode 2:\n%s", err, nodes[0].log(), nodes[1].log())
	}
	if code := nodes[0].wait(ctx, t); code != 0 {
		t.Errorf("node 1 exited %d", code)
	}
	if !strings.Contains(nodes[0].log(), "drained: every table handed over") {
		t.Errorf("node 1 did not say it handed every table over:\n%s", nodes[0].log())
	}
	reconnects, closes := checkTables(ctx, t, st, nodes[1].api, tables)
	for _, seats := range tables {
		if h := holderOfTable(ctx, t, st, seats[0].table); h != "n2" && h != "" {
			t.Errorf("table %s is %q's after the drain, want node 2's", seats[0].table, h)
		}
	}
	if closes["1012 table_moved"] == 0 {
		t.Errorf("no seat was closed 1012 table_moved: %v", closes)
	}
	t.Logf("%d reconnects; closes %v", reconnects, closes)
}

// TestCluster_KillNineOfOneNodeOfThreeLosesNoGame runs three nodes with 36
// games of seven in play (228 people, and two of the server's bots at
// every third table), their tables and their players' connections spread
// over the nodes (most connections relayed), and kills one node with
// SIGKILL: the other two take its tables over once their leases run out
// (the time it took is logged), bots back in their seats, the players
// reconnect through the live nodes with since, every game is played to its
// end, no table's log has an event written by two owners in turn, and
// every event any seat was told is in the stored log.
func TestCluster_KillNineOfOneNodeOfThreeLosesNoGame(t *testing.T) {
	t.Parallel()
	db := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	nodes := startCluster(ctx, t, db, 3)
	st := sharedStore(ctx, t, db)
	tables := clusterTables(ctx, t, nodes, 36)
	var victims []string
	for _, seats := range tables {
		if holderOfTable(ctx, t, st, seats[0].table) == "n2" {
			victims = append(victims, seats[0].table)
		}
	}
	if len(victims) == 0 {
		t.Fatal("node 2 holds no table")
	}
	done := make(chan error, 1)
	go func() { done <- playTables(ctx, tables) }()
	awaitUnderWay(ctx, t, st, tables)
	killed := time.Now()
	if err := nodes[1].cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	endedBefore := 0
	for _, id := range victims {
		if tableEnded(ctx, t, st, id) {
			endedBefore++
		}
	}
	// The takeover: until each of node 2's tables has another holder, or
	// is found ended (a quick game may end before the kill, on a quiet
	// machine: its lease is then let go, not taken over).
	for _, id := range victims {
		for h := holderOfTable(ctx, t, st, id); (h == "n2" || h == "") && !tableEnded(ctx, t, st, id); h = holderOfTable(ctx, t, st, id) {
			select {
			case <-ctx.Done():
				tb, _, err := st.Table(context.Background(), store.KindOnline, id)
				t.Fatalf("table %s was never taken over (holder %q, status %q, %v)\nnode 1:\n%s\nnode 3:\n%s",
					id, h, tb.Status, err, nodes[0].log(), nodes[2].log())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	took := time.Since(killed)
	if endedBefore == len(victims) {
		t.Fatalf("every one of node 2's %d games had ended before the kill: nothing was taken over", len(victims))
	}
	if err := <-done; err != nil {
		t.Fatalf("%v\nnode 1:\n%s\nnode 3:\n%s", err, nodes[0].log(), nodes[2].log())
	}
	reconnects, closes := checkTables(ctx, t, st, nodes[0].api, tables)
	t.Logf("kill -9 of node 2 (%d of %d tables, %d of them ended before it, lease ttl %s): every table taken over %.1f s after the kill; %d reconnects; closes %v",
		len(victims), len(tables), endedBefore, clusterTTL, took.Seconds(), reconnects, closes)
}

// TestCluster_OverAnExternalNATS runs two nodes that embed no NATS server
// but share an external one (`--nats`), started by the test on loopback:
// a player through node 1 plays node 2's table to its end.
func TestCluster_OverAnExternalNATS(t *testing.T) {
	t.Parallel()
	db := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: natsserver.RANDOM_PORT, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("the NATS server did not start")
	}
	defer ns.Shutdown()
	nodes := make([]*servedProcess, 2)
	secret := clusterSecret(t)
	for i := range nodes {
		nodes[i] = startServe(ctx, t, "--db", db, "--node", fmt.Sprint("x", i+1), "--nats", ns.ClientURL(), "--lease-ttl", clusterTTL, "--cluster-secret", secret)
	}
	st := sharedStore(ctx, t, db)
	table, conns, _ := clusterGame(ctx, t, nodes[1].api, nodes[0].api)
	if err := playAll(ctx, conns); err != nil {
		t.Fatalf("%v\nnode 1:\n%s\nnode 2:\n%s", err, nodes[0].log(), nodes[1].log())
	}
	if h := holderOfTable(ctx, t, st, table); h != "x2" {
		t.Errorf("the table's lease is %q's, want x2's", h)
	}
	checkOneOwnerAtATime(ctx, t, st, table)
}

// TestRelayListenIsTheRoutesHostUnlessSaid pins --relay-listen's default:
// with the embedded NATS server the links listen on the routes' host (a
// free port), which the other nodes reach already; with an external NATS
// they are off unless given; "off" keeps the frames on NATS.
func TestRelayListenIsTheRoutesHostUnlessSaid(t *testing.T) {
	for _, tc := range []struct {
		name, flag, nats, listen, want string
	}{
		{"embedded: the routes' host, a free port", "", "", "10.0.0.12:6222", "10.0.0.12:0"},
		{"embedded, IPv6", "", "", "[fd00::12]:6222", "[fd00::12]:0"},
		{"given", "10.0.0.12:7222", "", "10.0.0.12:6222", "10.0.0.12:7222"},
		{"off", "off", "", "10.0.0.12:6222", ""},
		{"routes on every interface: off unless given", "", "", "0.0.0.0:6222", ""},
		{"routes on every interface, no host: off", "", "", ":6222", ""},
		{"external NATS: off unless given", "", "nats://nats:4222", "127.0.0.1:6222", ""},
		{"external NATS, given", "10.0.0.12:7222", "nats://nats:4222", "127.0.0.1:6222", "10.0.0.12:7222"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := relayListen(tc.flag, tc.nats, tc.listen); got != tc.want {
				t.Fatalf("relayListen(%q, %q, %q) = %q, want %q", tc.flag, tc.nats, tc.listen, got, tc.want)
			}
		})
	}
}
