// Package client is a Go client of `mafia serve`: the lobby API over HTTP
// and a seat's WebSocket, speaking the protocol of docs/protocol.md. Tests,
// `mafia bench` and bot authors use it.
//
// It owns nothing of the game: it sends what it is told and hands back what
// the server sent, keeping only the seat's latest view and event count (for
// reconnecting with ?since=).
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"mafia/wire"
)

// API talks to a server's lobby over HTTP.
type API struct {
	Base string // e.g. http://127.0.0.1:8080
	HTTP *http.Client
	Lang string // sent as Accept-Language
	// Tap, when set, sees every frame a connection dialled by this API
	// reads (pads included) and every message it sends with Send (not
	// SendRaw's bytes): for recording a session. It is called from the
	// goroutine that reads or sends.
	Tap func(c *Conn, sent bool, frame []byte)
	// Silence is how long a connection dialled by this API may hear
	// nothing from its server while a read waits (no frame, no ping: the
	// server pings every 2 s) before the read fails with ErrSilent and the
	// connection is closed: 0 for DefaultSilence (4.5 s), negative to never.
	Silence time.Duration
}

// Error is an API or protocol error: a code and the server's sentence. An
// API answer's Status is its HTTP status (0 for a refusal over the
// WebSocket), and RetryAfter the time its Retry-After header asked for (0:
// none), as a 503 table_moving or a 429 does.
type Error struct {
	Status     int
	Code       string
	Message    string
	RetryAfter time.Duration
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// HandshakeError is a WebSocket handshake the server answered with an HTTP
// error instead of the upgrade (docs/protocol.md, "The WebSocket"): its
// status, the error's code and sentence when the body carried them, and
// the Retry-After it asked for (0: none). A client that reconnects reads it
// to tell a server that is busy or taking the table over (a 503) from a
// refusal for good.
type HandshakeError struct {
	Status     int
	Code       string
	Message    string
	RetryAfter time.Duration
	// Err is the WebSocket library's error, whose text Error returns.
	Err error
}

func (e *HandshakeError) Error() string { return e.Err.Error() }

// Unwrap returns the WebSocket library's error.
func (e *HandshakeError) Unwrap() error { return e.Err }

// retryAfterOf is the time an answer's Retry-After header asks for, in
// whole seconds as the server sends it (0: none, or a date).
func retryAfterOf(resp *http.Response) time.Duration {
	if s, e := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After"))); e == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return 0
}

// handshakeError is err, or a HandshakeError when resp is an HTTP answer
// other than the upgrade.
func handshakeError(resp *http.Response, err error) error {
	if resp == nil || resp.StatusCode == http.StatusSwitchingProtocols {
		return err
	}
	he := &HandshakeError{Status: resp.StatusCode, Err: err, RetryAfter: retryAfterOf(resp)}
	if resp.Body != nil { // the library keeps the body's first KiB
		var eb struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.NewDecoder(resp.Body).Decode(&eb) == nil {
			he.Code, he.Message = eb.Error.Code, eb.Error.Message
		}
	}
	return he
}

// CreateRequest is the body of POST /api/tables.
type CreateRequest struct {
	Name    string            `json:"name"`
	Players int               `json:"players,omitempty"`
	Options map[string]string `json:"options,omitempty"`
	// RulesCode is the house rules as a club's code ("std", "f1h3";
	// docs/rules.md, The rules code); Options, given too, change them.
	RulesCode  string           `json:"rules_code,omitempty"`
	TimingsMS  map[string]int64 `json:"timings_ms,omitempty"`
	Public     bool             `json:"public"`
	BotDelayMS int64            `json:"bot_delay_ms,omitempty"`
	// Sandbox, if set, makes a sandbox table for testing a bot: nobody but
	// its creator may sit there (beside the server's bots), and its deal,
	// or one seat's card, is the one asked (docs/protocol.md, "Sandbox
	// tables"). A sandbox is never public.
	Sandbox *Sandbox `json:"sandbox,omitempty"`
	// Bots is the level of the table's bots: "random" (or empty, the
	// default), "smart", or a level per side ("town=smart,mafia=random").
	Bots string `json:"bots,omitempty"`
	// Pace is the bots' pace: "instant" (they move at once) or "human"
	// (they take a person's time); empty: the server's default, human.
	Pace string `json:"pace,omitempty"`
	// Rated makes a rated table: accounts and bot accounts only, its game
	// rated at the end (docs/ratings.md).
	Rated bool `json:"rated,omitempty"`
	// StandInMS is how long a person's seat may have no connection during
	// the game before a server's bot plays it for them, until they are
	// back: nil for the server's default (20 s), 0 for never.
	StandInMS *int64 `json:"stand_in_ms,omitempty"`
}

// Sandbox fixes a sandbox table's deal: give Deal, or Card (and Seat).
type Sandbox struct {
	// Deal is every seat's card, seat 1's first, by role name ("don",
	// "mafia", "maniac", "detective", "doctor", "citizen"): exactly the
	// table's setup.
	Deal []string `json:"deal,omitempty"`
	// Card is one seat's card; the others are dealt at random.
	Card string `json:"card,omitempty"`
	// Seat is the seat that gets Card; 0: the host's seat at the start.
	Seat int `json:"seat,omitempty"`
}

// Created answers a create.
type Created struct {
	Table     string     `json:"table"`
	HostToken string     `json:"host_token"`
	Invite    string     `json:"invite"`
	Lobby     wire.Lobby `json:"lobby"`
}

// Joined answers a join.
type Joined struct {
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

func (a *API) client() *http.Client {
	if a.HTTP != nil {
		return a.HTTP
	}
	return http.DefaultClient
}

func (a *API) call(ctx context.Context, method, path, token string, body, out any) error {
	var rd *bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.Base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if a.Lang != "" {
		req.Header.Set("Accept-Language", a.Lang)
	}
	resp, err := a.client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		var eb struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&eb)
		return &Error{Status: resp.StatusCode, Code: eb.Error.Code, Message: eb.Error.Message, RetryAfter: retryAfterOf(resp)}
	}
	if out != nil {
		return json.NewDecoder(resp.Body).Decode(out)
	}
	return nil
}

// Create makes a table.
func (a *API) Create(ctx context.Context, req CreateRequest) (Created, error) {
	var out Created
	err := a.call(ctx, "POST", "/api/tables", "", req, &out)
	return out, err
}

// Join takes a seat (0: the first free one); token may be the host's token
// to make this the host's seat.
func (a *API) Join(ctx context.Context, table, name string, seat int, token string) (Joined, error) {
	var out Joined
	err := a.call(ctx, "POST", "/api/tables/"+table+"/join", token, map[string]any{"name": name, "seat": seat}, &out)
	return out, err
}

// Tables lists the public tables.
func (a *API) Tables(ctx context.Context) ([]wire.Lobby, error) {
	var out struct {
		Tables []wire.Lobby `json:"tables"`
	}
	err := a.call(ctx, "GET", "/api/tables", "", nil, &out)
	return out.Tables, err
}

// Table returns one table's lobby.
func (a *API) Table(ctx context.Context, table string) (wire.Lobby, error) {
	var out wire.Lobby
	err := a.call(ctx, "GET", "/api/tables/"+table, "", nil, &out)
	return out, err
}

// Conn is one seat's WebSocket.
type Conn struct {
	ws     *websocket.Conn
	nextID atomic.Int64
	Seat   int
	Seq    int        // events received so far (the ?since= of a reconnect)
	View   *wire.View // the latest view
	Events []wire.Event
	Lobby  *wire.Lobby
	// Deadline is the current step's end (Unix ms), 0 when none.
	Deadline int64
	tap      func(c *Conn, sent bool, frame []byte)
	dog      watchdog // a silent server ends the connection (silence.go)
}

// seen passes a frame to the API's Tap, if any.
func (c *Conn) seen(sent bool, frame []byte) {
	if c.tap != nil {
		c.tap(c, sent, frame)
	}
}

// Dial opens a seat's WebSocket (token "" for a spectator) and reads the
// welcome frame.
func (a *API) Dial(ctx context.Context, table, token string, since int) (*Conn, error) {
	u := strings.Replace(a.Base, "http", "ws", 1) + "/api/tables/" + table + "/ws?since=" + strconv.Itoa(since)
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	if a.Lang != "" {
		h.Set("Accept-Language", a.Lang)
	}
	c := &Conn{Seq: since, tap: a.Tap}
	ws, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h, HTTPClient: a.HTTP,
		OnPingReceived: c.dog.pinged})
	if err != nil {
		return nil, handshakeError(resp, err)
	}
	ws.SetReadLimit(1 << 20)
	c.ws = ws
	silence := a.Silence
	if silence == 0 {
		silence = DefaultSilence
	}
	c.dog.start(silence, func() { ws.CloseNow() })
	m, err := c.Read(ctx)
	if err != nil {
		c.CloseNow()
		return nil, err
	}
	if m.Type == "error" {
		c.CloseNow()
		return nil, &Error{Code: m.Code, Message: m.Message}
	}
	if m.Type != "welcome" {
		c.CloseNow()
		return nil, fmt.Errorf("client: expected welcome, got %q", m.Type)
	}
	return c, nil
}

// Read returns the next frame, keeping the view, events and count up to
// date. It skips pads: the frames of one length every seat gets when the
// server has nothing for it (a frame's padding is white space, which
// encoding/json reads as such).
func (c *Conn) Read(ctx context.Context) (wire.ServerMessage, error) {
	for {
		data, err := c.read(ctx)
		if err != nil {
			return wire.ServerMessage{}, err
		}
		c.seen(false, data)
		m, err := c.Absorb(data)
		if err != nil || m.Type != "pad" {
			return m, err
		}
	}
}

// ReadRaw returns the next frame's bytes without interpreting them, pads
// included.
func (c *Conn) ReadRaw(ctx context.Context) ([]byte, error) {
	data, err := c.read(ctx)
	if err == nil {
		c.seen(false, data)
	}
	return data, err
}

// read reads one frame under the watchdog: a server silent too long fails
// it with ErrSilent.
func (c *Conn) read(ctx context.Context) ([]byte, error) {
	c.dog.begin()
	_, data, err := c.ws.Read(ctx)
	c.dog.end(err == nil)
	return data, c.dog.readErr(err)
}

// ReadInto reads the next frame's bytes into buf[:0] (grown as needed) and
// returns them: a reader that reuses its buffer allocates nothing per
// frame. With a ctx that can end, each read registers a watch on it; a
// program with many connections reads with context.Background() and ends
// a connection with CloseNow instead.
func (c *Conn) ReadInto(ctx context.Context, buf []byte) ([]byte, error) {
	c.dog.begin()
	_, rd, err := c.ws.Reader(ctx)
	if err != nil {
		c.dog.end(false)
		return buf[:0], c.dog.readErr(err)
	}
	b := bytes.NewBuffer(buf[:0])
	_, err = b.ReadFrom(rd)
	c.dog.end(err == nil)
	if err == nil {
		c.seen(false, b.Bytes())
	}
	return b.Bytes(), c.dog.readErr(err)
}

// Absorb interprets a frame's bytes as Read does (a pad changes nothing).
func (c *Conn) Absorb(data []byte) (wire.ServerMessage, error) {
	var m wire.ServerMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return m, err
	}
	if m.Seat != 0 {
		c.Seat = m.Seat
	}
	if m.View != nil {
		c.View = m.View
	}
	if m.Lobby != nil {
		c.Lobby = m.Lobby
	}
	if m.Type == "welcome" || m.Type == "update" || m.Type == "warning" {
		c.Deadline = m.Deadline
	}
	if len(m.Events) > 0 {
		c.Events = append(c.Events, m.Events...)
		c.Seq = m.Seq
	} else if m.Type == "welcome" {
		c.Seq = m.Seq // the seat's count, which a reconnect's since may exceed
	}
	return m, nil
}

// Send sends a message and returns the id it was given.
func (c *Conn) Send(ctx context.Context, m wire.ClientMessage) (int64, error) {
	m.V = wire.Version
	if m.ID == 0 {
		m.ID = c.nextID.Add(1)
	}
	frame := m.AppendJSON(make([]byte, 0, 128))
	c.seen(true, frame)
	return m.ID, c.ws.Write(ctx, websocket.MessageText, frame)
}

// SendRaw sends bytes as a text frame (for testing the server's guards).
func (c *Conn) SendRaw(ctx context.Context, data []byte) error {
	return c.ws.Write(ctx, websocket.MessageText, data)
}

// Close closes the connection.
func (c *Conn) Close() error {
	c.dog.stop()
	return c.ws.Close(websocket.StatusNormalClosure, "")
}

// CloseNow drops the connection without a handshake.
func (c *Conn) CloseNow() error {
	c.dog.stop()
	return c.ws.CloseNow()
}
