package wire

import (
	"fmt"
	"sync"

	"mafia/engine"
)

// Version is the protocol version every envelope carries as "v".
const Version = 1

// ClientMessage is any message a client sends. Type says which fields matter:
//
//	"command": Verb, Target, Yes — a game command for the connection's seat;
//	           Role (a claim's card), Result (a report's answer), Guess (a
//	           best move's three seats) for statements
//	"chat":    Channel ("town", "mafia", "dead"), Text
//	"host":    Action ("start", "add_bots", "kick", "pause", "resume", "foul"), Target
//	"ping":    nothing
//	"history": Before (0: the newest lines) — a page of the chat so far
//	"voice":   Action ("join", "answer", "candidate", "leave", "restart"), Mic (join:
//	           send a microphone too), Seat (join: the seat the microphone
//	           is of; 0 or the connection's own), SDP (answer), Candidate
//	           (candidate) — the voice table's signalling (wire/voice.go)
//
// ID is echoed in the reply so a client can match answers to requests.
// Step, when not 0, is the step (View.Step) the message was meant for: the
// room refuses it in any other step (stale_step), so that a late command
// never lands in a later step of the same kind.
type ClientMessage struct {
	V       int    `json:"v"`
	Type    string `json:"type"`
	ID      int64  `json:"id,omitempty"`
	Verb    string `json:"verb,omitempty"`
	Target  int    `json:"target,omitempty"`
	Yes     bool   `json:"yes,omitempty"`
	Role    string `json:"role,omitempty"`
	Result  string `json:"result,omitempty"`
	Guess   []int  `json:"guess,omitempty"`
	Channel string `json:"channel,omitempty"`
	Text    string `json:"text,omitempty"`
	Action  string `json:"action,omitempty"`
	Step    int    `json:"step,omitempty"`
	// Before asks a "history" request for the lines said before the
	// chat's line number Before (a page's own Before); 0: the newest.
	Before int `json:"before,omitempty"`
	// Mic, SDP, Candidate and Seat are a "voice" message's (wire/voice.go).
	Mic       bool            `json:"mic,omitempty"`
	SDP       string          `json:"sdp,omitempty"`
	Candidate *VoiceCandidate `json:"candidate,omitempty"`
	Seat      int             `json:"seat,omitempty"`
}

// ParseClientMessage decodes and checks a client's frame. It is strict
// (DecodeStrict): an unknown field, a key in another case or given twice,
// and text that is not UTF-8 are refused, so a typo is an error and not a
// silent no-op.
func ParseClientMessage(data []byte) (ClientMessage, error) {
	if m, ok, err := ParsePlainClientMessage(data); ok {
		return m, err
	}
	return parseStrict(data)
}

// parseStrict is ParseClientMessage by encoding/json, for any frame.
func parseStrict(data []byte) (ClientMessage, error) {
	var m ClientMessage
	if err := DecodeStrict(data, &m); err != nil {
		return m, fmt.Errorf("malformed: %v", err)
	}
	return m, checkClientMessage(m)
}

// checkClientMessage checks a decoded frame's version and type.
func checkClientMessage(m ClientMessage) error {
	if m.V != Version {
		return fmt.Errorf("version %d is not supported (use %d)", m.V, Version)
	}
	switch m.Type {
	case "command", "chat", "host", "ping", "history", "voice":
	default:
		return fmt.Errorf("unknown type %q", m.Type)
	}
	if f := strayField(m); f != "" {
		return fmt.Errorf("the key %q is no part of a %q message", f, m.Type)
	}
	return nil
}

// strayField names a field a frame sets that its type (and a command's
// verb) does not take, "" if none: a claim that names a target or carries
// a text is as malformed as a frame with a key of no field at all (issue
// 25), never a silent no-op. Only set fields count (a zero is absent).
func strayField(m ClientMessage) string {
	set := []struct {
		name string
		on   bool
	}{{"verb", m.Verb != ""}, {"target", m.Target != 0}, {"yes", m.Yes}, {"role", m.Role != ""}, {"result", m.Result != ""},
		{"channel", m.Channel != ""}, {"text", m.Text != ""}, {"action", m.Action != ""},
		{"mic", m.Mic}, {"sdp", m.SDP != ""}, {"candidate", m.Candidate != nil}, {"seat", m.Seat != 0}}
	takes := map[string]bool{}
	switch m.Type {
	case "command":
		takes["verb"], takes["target"], takes["yes"] = true, true, true
		if v, ok := engine.ParseVerb(m.Verb); ok {
			takes["target"] = v.HasTarget()
			takes["role"] = v == engine.Claim
			takes["result"] = v == engine.Report
		} else {
			takes["role"], takes["result"] = true, true // an unknown verb is refused as such
		}
	case "chat":
		takes["channel"], takes["text"] = true, true
	case "host":
		takes["action"], takes["target"] = true, true
	case "history":
		takes["channel"] = true
	case "voice":
		takes["action"], takes["mic"], takes["sdp"], takes["candidate"], takes["seat"] = true, true, true, true, true
	}
	for _, f := range set {
		if f.on && !takes[f.name] {
			return f.name
		}
	}
	return ""
}

// Command converts a "command" message into an engine command for seat by;
// ok is false for an unknown verb or a target no seat number can have. A
// card or an answer that is none of the engine's names converts to none, so
// that the engine refuses the claim or the report with its own code.
func (m ClientMessage) Command(by engine.Seat) (engine.Command, bool) {
	v, ok := engine.ParseVerb(m.Verb)
	if !ok || v == engine.Next || v == engine.Foul {
		return engine.Command{}, false
	}
	if m.Target < 0 || m.Target > 255 {
		return engine.Command{}, false
	}
	// A seat beyond the table (up to 255) goes to the engine, which names it
	// in its refusal ("there is no seat 99 at this table").
	c := engine.Command{Verb: v, By: by, Target: engine.Seat(m.Target), Yes: m.Yes}
	if m.Role != "" {
		c.Role, _ = engine.ParseRole(m.Role)
	}
	if m.Result != "" {
		c.Result, _ = engine.ParseResult(m.Result)
	}
	if v == engine.BestMove {
		c.Guess = guessSet(m.Guess)
	}
	return c, true
}

// SeatInfo is one seat in the lobby: who sits there, if anyone.
type SeatInfo struct {
	Seat      int    `json:"seat"`
	Name      string `json:"name,omitempty"`
	Bot       bool   `json:"bot,omitempty"`
	Taken     bool   `json:"taken"`
	Connected bool   `json:"connected"`
	// StandIn: a server's bot plays the seat for its person, who has been
	// away longer than the table's grace period (Lobby.StandInMS), until
	// they are back.
	StandIn bool `json:"stand_in,omitempty"`
	// Account: the seat was taken by a player logged in to an account
	// (Name is the account's name, its page /api/players/{name}).
	// BotAccount: that account is a bot a person's account owns: a
	// program plays the seat.
	Account    bool `json:"account,omitempty"`
	BotAccount bool `json:"bot_account,omitempty"`
	// Owner is the name of the account that owns a bot account's seat
	// ("Robo1", bot of "Nino"): everyone at the table sees whose program
	// plays it. Absent for any other seat.
	Owner string `json:"owner,omitempty"`
}

// Lobby is a table's public description.
type Lobby struct {
	Table   string            `json:"table"`
	Name    string            `json:"name"`
	Public  bool              `json:"public"`
	Status  string            `json:"status"`
	Players int               `json:"players"`
	Seats   []SeatInfo        `json:"seats"`
	Rules   map[string]string `json:"rules"`
	Timings map[string]int64  `json:"timings_ms"`
	// RulesCode is Rules as the short code a club writes (engine.RulesCode:
	// "std", "f1h3"): the code of the rules the table plays by, whether it
	// was made with a code or with options.
	RulesCode string `json:"rules_code,omitempty"`
	Paused    bool   `json:"paused,omitempty"`
	// PauseReason says why the clock is stopped: "host" (the host paused
	// it) or "no_players" (nobody is at the table: the first of its people
	// to come back starts it again).
	PauseReason string `json:"pause_reason,omitempty"`
	// Sandbox marks a bot author's table, whose deal the creator fixed and
	// where nobody else may sit (a game for tests, not for ratings).
	Sandbox bool `json:"sandbox,omitempty"`
	// Rated marks a rated table: accounts and bot accounts only, its game
	// rated at the end (docs/ratings.md).
	Rated bool `json:"rated,omitempty"`
	// Voice is who talks and listens at a voice table ("seats": its
	// players; "everyone": its spectators listen too; docs/voice.md); left
	// out at a table without voice.
	Voice string `json:"voice,omitempty"`
	// Bots is the level of the table's bots as its host chose it ("smart",
	// or a level per side); left out for random, the default.
	Bots string `json:"bots,omitempty"`
	// Pace is "human" when the table's bots take a person's time over
	// their moves; left out when they move at once ("instant").
	Pace string `json:"pace,omitempty"`
	// StandInMS is how long a person's seat may have no connection during
	// a game before a bot plays it for them (SeatInfo.StandIn); left out
	// when no bot ever stands in.
	StandInMS int64 `json:"stand_in_ms,omitempty"`
	// Owner is the node of a cluster that runs the table, where a client
	// or a load balancer reaches it without a relay (docs/cluster.md);
	// left out by a server that is no cluster's node, and in the frames
	// of a table's WebSocket (the lists and GET /api/tables/{id} carry it).
	Owner *TableOwner `json:"owner,omitempty"`
}

// TableOwner names the node that runs a table: its id in the cluster and
// its public URL (the node's --public-url; left out when it has none).
type TableOwner struct {
	Node string `json:"node"`
	URL  string `json:"url,omitempty"`
}

// ServerMessage is any message the server sends. Type says which fields matter:
//
//	"welcome": on connect: Seat, Host, Lobby, View, Events (all this seat may see so far, or those
//	           after the client's ?since=), Seq, Deadline
//	"update":  after a change this seat may see: Events, View, Seq, Deadline, Lobby
//	"warning": 10 s before the deadline: Deadline
//	"reply":   a request was accepted: ID
//	"error":   a request was refused: ID, Code, Message (in the connection's language)
//	"chat":    Channel, From, Name, Text
//	"pong":    answer to ping
//	"history": answer to a history request: ID, Lines (a page of the chat
//	           so far that this connection may read), Before
//
// Seq counts the events this seat has been sent; it is the client's ?since=
// on reconnect. Deadline and Now are Unix milliseconds (server clock).
type ServerMessage struct {
	V        int     `json:"v"`
	Type     string  `json:"type"`
	ID       int64   `json:"id,omitempty"`
	Seat     int     `json:"seat,omitempty"`
	Host     bool    `json:"host,omitempty"`
	Seq      int     `json:"seq,omitempty"`
	Events   []Event `json:"events,omitempty"`
	View     *View   `json:"view,omitempty"`
	Lobby    *Lobby  `json:"lobby,omitempty"`
	Deadline int64   `json:"deadline,omitempty"`
	Paused   bool    `json:"paused,omitempty"`
	Now      int64   `json:"now,omitempty"`
	Code     string  `json:"code,omitempty"`
	Message  string  `json:"message,omitempty"`
	Channel  string  `json:"channel,omitempty"`
	From     int     `json:"from,omitempty"`
	Name     string  `json:"name,omitempty"`
	Text     string  `json:"text,omitempty"`
	// Bot, in a chat frame of a server's bot's line, is what the line
	// means (Text is its sentence in the connection's language).
	Bot *BotLine `json:"bot,omitempty"`
	// Before, in a history page, is the number of the page's first line in
	// the table's chat: the Before to ask for the page before it (0: none).
	Before int `json:"before,omitempty"`
	// Lines is a history page's lines, oldest first.
	Lines []ChatLine `json:"lines,omitempty"`
}

// ChatLine is one line of the chat in a history page: as its chat frame
// was (Channel, From, Name, Text; Now is when it was said), and the round
// and phase of the game it was said in ("lobby" before the start).
type ChatLine struct {
	Channel string   `json:"channel"`
	From    int      `json:"from"`
	Name    string   `json:"name"`
	Text    string   `json:"text"`
	Now     int64    `json:"now"`
	Round   int      `json:"round"`
	Phase   string   `json:"phase"`
	Bot     *BotLine `json:"bot,omitempty"` // a server's bot's line: what it means
}

// BotLine is what a server's bot's chat line means, beside its text in the
// reader's language (docs/protocol.md, "The bots' spoken lines"): its kind
// (as the catalogs' ids botline.<kind>_<n> spell it), the seat it names
// and the further ones (More), a claim's card (Role), a report's answer
// (Result), a Detective's claim's nights (Count), its phrasing (Pick,
// modulo the kind's number of phrasings), and whether it says aloud a
// statement its bot just made (Voice).
type BotLine struct {
	Kind   string `json:"kind"`
	Seat   int    `json:"seat,omitempty"`
	Role   string `json:"role,omitempty"`
	Result string `json:"result,omitempty"`
	Count  int    `json:"count,omitempty"`
	Pick   int    `json:"pick,omitempty"`
	More   []int  `json:"more,omitempty"`
	Voice  bool   `json:"voice,omitempty"`
}

// AppendFrame appends the message's frame to b: Encode's bytes, without
// an allocation of their own when b has room.
func (m ServerMessage) AppendFrame(b []byte) []byte {
	m.V = Version
	return m.AppendJSON(b)
}

// Encode marshals a server message, setting its version. The bytes are
// encoding/json's without HTML escaping (see AppendJSON).
func Encode(m ServerMessage) []byte {
	m.V = Version
	bp := encodePool.Get().(*[]byte)
	b := m.AppendJSON((*bp)[:0])
	out := make([]byte, len(b))
	copy(out, b)
	if cap(b) <= 64<<10 {
		*bp = b
		encodePool.Put(bp)
	}
	return out
}

// encodePool holds buffers for Encode, which copies each frame out of one
// at its exact size.
var encodePool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// guessSet is a best move's seats as a set; a seat off any table, or one
// named twice, adds seat 0, which the engine refuses as no guess
// (engine.CodeBadGuess), so that nothing sent is silently dropped.
func guessSet(seats []int) engine.SeatSet {
	var g engine.SeatSet
	for _, s := range seats {
		if s < 1 || s > engine.MaxSeats || g.Has(engine.Seat(s)) {
			g = g.With(0)
			continue
		}
		g = g.With(engine.Seat(s))
	}
	return g
}
