package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/engine"
	"mafia/locale"
	"mafia/rng"
	"mafia/wire"
)

// This file is the end-to-end tests' own driver: a raw WebSocket that hands
// back every frame's bytes (client.Conn swallows the welcome), and a player
// that plays a seat with client.RandomMove, keeping every event it was sent
// across reconnects and every command the server accepted.

// localized renders refusals as cmd/mafia does, so that ?lang=ka can be seen.
func localized(cfg *Config) {
	cfg.Render = func(lang string, err error) string {
		l, ok := locale.Parse(lang)
		if !ok {
			l = locale.En
		}
		return locale.New(l).Refusal(err)
	}
}

// dialOpts are the extras of a raw dial.
type dialOpts struct {
	query  url.Values  // added to ?since=
	header http.Header // e.g. Origin, Accept-Language
	http   *http.Client
}

// wsConn is a raw WebSocket to a table. A goroutine of its own reads the
// socket from the dial on, queueing every frame for read: the library
// answers the server's pings only while a read is under way, and a test
// that reads only when it asks (a client idle for a while, or one among
// many tests at once on a busy machine) would otherwise miss the server's
// ping timeout and be dropped.
type wsConn struct {
	ws   *websocket.Conn
	next int64
	rec  *recorder // holds every frame to docs/protocol.schema.json

	mu     sync.Mutex
	queue  []wsFrame     // frames read and not yet taken; the last may be the error that ended the reading
	closed bool          // the test closed it: frames still queued are not read
	ready  chan struct{} // signalled when the queue grows
	cancel context.CancelFunc
}

// wsFrame is one read of the background reader: a frame, or the error
// that ended the connection.
type wsFrame struct {
	typ  websocket.MessageType
	data []byte
	err  error
}

// newWSConn starts the background reader of a dialed socket.
func newWSConn(ws *websocket.Conn) *wsConn {
	ctx, cancel := context.WithCancel(context.Background())
	c := &wsConn{ws: ws, rec: newRecorder(), ready: make(chan struct{}, 1), cancel: cancel}
	go func() {
		for {
			typ, data, err := ws.Read(ctx)
			c.mu.Lock()
			c.queue = append(c.queue, wsFrame{typ: typ, data: data, err: err})
			c.mu.Unlock()
			select {
			case c.ready <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return c
}

// readRaw returns the next frame the background reader took, or the
// error that ended the connection (every time, once reached). When ctx
// ends first the connection is closed, as the library's own Read does.
func (c *wsConn) readRaw(ctx context.Context) (websocket.MessageType, []byte, error) {
	for {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return 0, nil, net.ErrClosed
		}
		if len(c.queue) > 0 {
			f := c.queue[0]
			if f.err == nil {
				c.queue = c.queue[1:]
			}
			c.mu.Unlock()
			return f.typ, f.data, f.err
		}
		c.mu.Unlock()
		select {
		case <-c.ready:
		case <-ctx.Done():
			c.close()
			return 0, nil, fmt.Errorf("reading a frame: %w", ctx.Err())
		}
	}
}

// wsURL is the WebSocket address of a table on a server at base (http://...).
func wsURL(base, table string, since int, q url.Values) string {
	v := url.Values{}
	for k, vs := range q {
		v[k] = vs
	}
	v.Set("since", strconv.Itoa(since))
	return "ws" + strings.TrimPrefix(base, "http") + "/api/tables/" + table + "/ws?" + v.Encode()
}

// dialWS opens a table's WebSocket with a bearer token ("" for none) and
// does not read anything.
func dialWS(ctx context.Context, base, table, token string, since int, o dialOpts) (*wsConn, *http.Response, error) {
	h := http.Header{}
	for k, vs := range o.header {
		h[k] = vs
	}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	ws, resp, err := websocket.Dial(ctx, wsURL(base, table, since, o.query), &websocket.DialOptions{HTTPHeader: h, HTTPClient: o.http})
	if err != nil {
		return nil, resp, err
	}
	ws.SetReadLimit(4 << 20)
	return newWSConn(ws), resp, nil
}

// read returns the next frame's bytes and its decoding.
func (c *wsConn) read(ctx context.Context) ([]byte, wire.ServerMessage, error) {
	typ, data, err := c.readRaw(ctx)
	if err != nil {
		return nil, wire.ServerMessage{}, err
	}
	var m wire.ServerMessage
	if typ != websocket.MessageText {
		return data, m, fmt.Errorf("server sent a binary frame")
	}
	c.rec.saw(false, data)
	if err := json.Unmarshal(data, &m); err != nil {
		return data, m, fmt.Errorf("server frame is not JSON: %v: %s", err, data)
	}
	return data, m, nil
}

// send sends a message with the protocol version and a fresh id (unless it
// has one) and returns the id.
func (c *wsConn) send(ctx context.Context, m wire.ClientMessage) (int64, error) {
	m.V = wire.Version
	if m.ID == 0 {
		c.next++
		m.ID = c.next
	}
	b, err := json.Marshal(m)
	if err != nil {
		return 0, err
	}
	c.rec.saw(true, b)
	return m.ID, c.ws.Write(ctx, websocket.MessageText, b)
}

func (c *wsConn) sendRaw(ctx context.Context, typ websocket.MessageType, data []byte) error {
	return c.ws.Write(ctx, typ, data)
}

// close closes the connection at once; the background reader ends with it,
// and a read after it fails (net.ErrClosed) as the library's own does:
// frames the reader had queued are not handed out, so a seat dropped on
// purpose takes in nothing after its drop.
func (c *wsConn) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.ws.CloseNow()
	c.cancel()
}

// player plays one seat (0: a spectator, who only reads).
type player struct {
	base  string
	table string
	token string
	seat  int
	opts  dialOpts
	src   rng.Source
	c     *wsConn

	view     *wire.View
	fresh    bool // a view came since the last move
	deadline int64
	events   []wire.Event // every event sent to this seat, across connections
	keep     bool         // keep every frame's bytes in frames
	frames   [][]byte
	nframes  int

	waiting  int64                        // the id of the request awaiting its answer
	sent     map[int64]wire.ClientMessage // requests awaiting their answer
	accepted []wire.ClientMessage         // requests answered "reply"
	refused  []wire.ServerMessage         // "error" answers
	rejected []wire.ClientMessage         // requests answered "error"
	inFlight []wire.ClientMessage         // requests whose answer a broken connection lost

	seqErr error // the first break in the event count

	// hold, when set, is asked before each move: true keeps the seat idle.
	hold func(p *player) bool
	// stopped is closed when playAll's loop for this player has returned.
	stopped chan struct{}
	// onFrame, when set, sees every frame after it is absorbed.
	onFrame func(p *player, m wire.ServerMessage)
	// talk, when set, has the seat make a statement on its first floor
	// and now and then on the later ones (client.RandomStatement) before
	// it moves; talked: it made one.
	talk, talked bool
}

func newPlayer(base, table, token string, seat int, seed uint64) *player {
	return &player{base: base, table: table, token: token, seat: seat, src: rng.New(seed), sent: map[int64]wire.ClientMessage{}}
}

// connect dials with ?since= the events it has and absorbs the welcome.
func (p *player) connect(ctx context.Context) (wire.ServerMessage, error) {
	for id, m := range p.sent {
		p.inFlight = append(p.inFlight, m)
		delete(p.sent, id)
	}
	p.waiting = 0
	c, _, err := dialWS(ctx, p.base, p.table, p.token, len(p.events), p.opts)
	if err != nil {
		return wire.ServerMessage{}, err
	}
	data, m, err := c.read(ctx)
	if err != nil {
		c.close()
		return m, err
	}
	if m.Type != "welcome" {
		c.close()
		return m, fmt.Errorf("seat %d: first frame is %q, not a welcome: %s", p.seat, m.Type, data)
	}
	p.c = c
	p.absorb(data, m)
	return m, nil
}

// absorb keeps what a frame says and checks that the event count runs on
// without a gap or a repeat.
func (p *player) absorb(data []byte, m wire.ServerMessage) {
	p.nframes++
	if p.keep {
		p.frames = append(p.frames, data)
	}
	if m.View != nil {
		p.view, p.fresh = m.View, true
	}
	switch m.Type {
	case "welcome", "update", "warning":
		p.deadline = m.Deadline
	}
	p.events = append(p.events, m.Events...)
	if (len(m.Events) > 0 || (m.Type == "welcome" && m.View != nil)) && m.Seq != len(p.events) && p.seqErr == nil {
		p.seqErr = fmt.Errorf("seat %d: a %s frame says seq %d after %d events", p.seat, m.Type, m.Seq, len(p.events))
	}
	switch m.Type {
	case "reply":
		if sm, ok := p.sent[m.ID]; ok {
			p.accepted = append(p.accepted, sm)
			delete(p.sent, m.ID)
		}
	case "error":
		if sm, ok := p.sent[m.ID]; ok {
			p.rejected = append(p.rejected, sm)
			delete(p.sent, m.ID)
		}
		p.refused = append(p.refused, m)
	}
	if (m.Type == "reply" || m.Type == "error") && m.ID == p.waiting {
		p.waiting = 0
	}
	if p.onFrame != nil {
		p.onFrame(p, m)
	}
}

func (p *player) ended() bool { return p.view != nil && p.view.Phase == "ended" }

// request sends a message and remembers it until its answer.
func (p *player) request(ctx context.Context, m wire.ClientMessage) (int64, error) {
	id, err := p.c.send(ctx, m)
	if err != nil {
		return 0, err
	}
	m.ID = id
	p.sent[id] = m
	p.waiting = id
	return id, nil
}

// act makes one random legal move if the seat has one and is not waiting,
// once per view (at night a move's view comes at the next tick).
func (p *player) act(ctx context.Context) error {
	v := p.view
	if p.seat == 0 || p.waiting != 0 || !p.fresh || v == nil || v.Phase == "ended" {
		return nil
	}
	if p.hold != nil && p.hold(p) {
		return nil
	}
	p.fresh = false
	if p.talk && (!p.talked || p.src.Intn(2) == 0) {
		if m, ok := client.RandomStatement(v, &p.src); ok {
			p.talked = true
			_, err := p.request(ctx, m)
			return err
		}
	}
	if m, ok := client.RandomMove(v, &p.src); ok {
		_, err := p.request(ctx, m)
		return err
	}
	if v.Legal.Pass {
		_, err := p.request(ctx, wire.ClientMessage{Type: "command", Verb: "pass"})
		return err
	}
	return nil
}

// play plays to the end of the game and the answer to its last request
// (or until the connection breaks).
func (p *player) play(ctx context.Context) error {
	for !p.ended() || p.waiting != 0 {
		if err := p.act(ctx); err != nil {
			return err
		}
		data, m, err := p.c.read(ctx)
		if err != nil {
			return fmt.Errorf("%w (%s)", err, p.where())
		}
		p.absorb(data, m)
	}
	return nil
}

// where says where the seat's game stood, for a failure: its view's phase
// and speaker, what it waits for, and its last refusal.
func (p *player) where() string {
	s := "no view"
	if v := p.view; v != nil {
		s = fmt.Sprintf("phase %s round %d speaker %d, legal %+v", v.Phase, v.Round, v.Speaker, v.Legal)
	}
	s += fmt.Sprintf(", waiting for answer %d, fresh %v, %d events", p.waiting, p.fresh, len(p.events))
	if n := len(p.refused); n > 0 {
		s += fmt.Sprintf(", last refusal %s %q", p.refused[n-1].Code, p.refused[n-1].Message)
	}
	return s
}

// call sends a request and reads (absorbing) until its answer, which it
// returns: an "error" answer as a *client.Error.
func (p *player) call(ctx context.Context, m wire.ClientMessage) error {
	id, err := p.request(ctx, m)
	if err != nil {
		return err
	}
	for {
		data, got, err := p.c.read(ctx)
		if err != nil {
			return err
		}
		p.absorb(data, got)
		if got.ID == id && got.Type == "reply" {
			return nil
		}
		if got.ID == id && got.Type == "error" {
			return &client.Error{Code: got.Code, Message: got.Message}
		}
	}
}

// readUntil reads (absorbing) until cond holds.
func (p *player) readUntil(ctx context.Context, cond func(m wire.ServerMessage) bool) error {
	for {
		data, m, err := p.c.read(ctx)
		if err != nil {
			return err
		}
		p.absorb(data, m)
		if cond(m) {
			return nil
		}
	}
}

// untilPhase reads (absorbing) until the seat's view is in phase.
func (p *player) untilPhase(ctx context.Context, phase string) error {
	for p.view == nil || p.view.Phase != phase {
		data, m, err := p.c.read(ctx)
		if err != nil {
			return fmt.Errorf("seat %d waiting for %s: %w", p.seat, phase, err)
		}
		p.absorb(data, m)
	}
	return nil
}

// table is a table made through the lobby API with seated players.
type table struct {
	api     *client.API
	id      string
	host    string // the host's token
	players []*player
}

// newTable creates a table and seats a player (and its WebSocket) in each of
// seats; the first of them holds the host's token.
func newTable(ctx context.Context, t testing.TB, api *client.API, req client.CreateRequest, seats []int, seed uint64) *table {
	t.Helper()
	created, err := api.Create(ctx, req)
	if err != nil {
		t.Fatalf("create %+v: %v", req, err)
	}
	tb := &table{api: api, id: created.Table, host: created.HostToken}
	for i, s := range seats {
		tok := ""
		if i == 0 {
			tok = created.HostToken
		}
		j, err := api.Join(ctx, tb.id, fmt.Sprintf("player %d", s), s, tok)
		if err != nil {
			t.Fatalf("join seat %d: %v", s, err)
		}
		if j.Seat != s {
			t.Fatalf("join seat %d got seat %d", s, j.Seat)
		}
		tb.players = append(tb.players, newPlayer(api.Base, tb.id, j.Token, s, seed*1000+uint64(s)))
	}
	return tb
}

// stepStarts are the event kinds that begin a timed step.
var stepStarts = map[string]bool{"night_began": true, "last_words": true, "speech": true, "defence": true,
	"vote_began": true, "tie_speech": true, "all_vote_began": true}

// eventOf is the event an accepted command leaves in the log, "" for pass
// (it only ends a step).
func eventOf(m wire.ClientMessage) string {
	switch m.Verb {
	case "kill":
		return "mafia_chose"
	case "check":
		return "checked"
	case "shoot":
		return "shot"
	case "heal":
		return "healed"
	case "skip":
		return "skipped"
	case "nominate":
		return "nominated"
	case "vote":
		return "vote_cast"
	case "all_vote":
		return "all_vote_cast"
	case "claim", "report", "suspect", "vouch", "will_nominate", "best_move":
		return "statement"
	}
	return ""
}

// cmdKey identifies a command by what its event records.
func cmdKey(kind string, actor, target int, yes bool) string {
	if kind == "all_vote_cast" {
		target = 0
	} else {
		yes = false
	}
	return fmt.Sprintf("%s %d>%d %v", kind, actor, target, yes)
}

// seatEvents returns what seat s may see of a log (as wire events), the way
// the room filters them.
func seatEvents(t testing.TB, log []engine.Event, s int) []wire.Event {
	t.Helper()
	g, err := engine.Replay(log)
	if err != nil {
		t.Fatalf("replay the stored log: %v", err)
	}
	var out []wire.Event
	for _, e := range log {
		if v, ok := g.EventFor(e, engine.Seat(s)); ok {
			out = append(out, wire.FromEvent(v, g.Players()))
		}
	}
	return out
}

// sameEvents reports the first difference between two event lists.
func sameEvents(got, want []wire.Event) error {
	for i := 0; i < len(got) || i < len(want); i++ {
		if i >= len(got) {
			return fmt.Errorf("event %d missing: want %s", i, js(want[i]))
		}
		if i >= len(want) {
			return fmt.Errorf("event %d extra: got %s", i, js(got[i]))
		}
		if a, b := js(got[i]), js(want[i]); a != b {
			return fmt.Errorf("event %d: got %s, want %s", i, a, b)
		}
	}
	return nil
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// waitFor polls cond (for a server-side effect with no frame of its own,
// e.g. a connection counted down after close) for up to d.
func waitFor(d time.Duration, cond func() bool) bool {
	end := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}
