// Command bot is a minimal Mafia bot written from docs/protocol.md alone: it
// uses only net/http, encoding/json and github.com/coder/websocket, none of
// the project's own packages.
//
// It joins a table (or creates one and hosts it), then plays random legal
// moves read from the view's "legal" object until the game ends,
// reconnecting with ?since= if the connection drops.
//
//	go run ./docs/examples/mafiabot -server http://127.0.0.1:8080 -create -players 5
//	go run ./docs/examples/mafiabot -server http://127.0.0.1:8080 -create -card detective
//	go run ./docs/examples/mafiabot -server http://127.0.0.1:8080 -table 5f71e455a543935b -name Robo
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// The protocol's shapes, only the fields this bot reads.

type clientMessage struct {
	V       int    `json:"v"`
	Type    string `json:"type"`
	ID      int64  `json:"id,omitempty"`
	Verb    string `json:"verb,omitempty"`
	Target  int    `json:"target,omitempty"`
	Yes     bool   `json:"yes,omitempty"`
	Channel string `json:"channel,omitempty"`
	Text    string `json:"text,omitempty"`
	Action  string `json:"action,omitempty"`
	Step    int    `json:"step,omitempty"` // the view's step the message is meant for
}

type serverMessage struct {
	V        int             `json:"v"`
	Type     string          `json:"type"`
	ID       int64           `json:"id"`
	Seat     int             `json:"seat"`
	Host     bool            `json:"host"`
	Seq      int             `json:"seq"`
	Events   []event         `json:"events"`
	View     *view           `json:"view"`
	Lobby    json.RawMessage `json:"lobby"`
	Deadline int64           `json:"deadline"`
	Paused   bool            `json:"paused"`
	Now      int64           `json:"now"`
	Code     string          `json:"code"`
	Message  string          `json:"message"`
	Channel  string          `json:"channel"`
	From     int             `json:"from"`
	Name     string          `json:"name"`
	Text     string          `json:"text"`
}

type event struct {
	Kind   string `json:"kind"`
	Round  int    `json:"round"`
	Actor  int    `json:"actor"`
	Target int    `json:"target"`
	Result string `json:"result"`
	Winner string `json:"winner"`
}

type legal struct {
	Kill     []int `json:"kill"`
	Check    []int `json:"check"`
	Shoot    []int `json:"shoot"`
	Heal     []int `json:"heal"`
	Nominate []int `json:"nominate"`
	Vote     []int `json:"vote"`
	Skip     bool  `json:"skip"`
	AllVote  bool  `json:"all_vote"`
	Pass     bool  `json:"pass"`
}

type view struct {
	Seat    int    `json:"seat"`
	Phase   string `json:"phase"`
	Round   int    `json:"round"`
	Step    int    `json:"step"`
	Speaker int    `json:"speaker"`
	Role    string `json:"role"`
	Winner  string `json:"winner"`
	Legal   legal  `json:"legal"`
}

type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// post sends a JSON body and decodes the JSON answer; a status of 300 or more
// is returned as the server's coded error.
func post(base, path, token string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequest("POST", base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		var e apiError
		_ = json.NewDecoder(resp.Body).Decode(&e)
		return fmt.Errorf("%s %s: HTTP %d %s: %s", req.Method, path, resp.StatusCode, e.Error.Code, e.Error.Message)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// bot is one seat's state: what it needs to act and to reconnect.
type bot struct {
	base, table, token, lang string
	host                     bool
	seq                      int // events received so far: the ?since= of a reconnect
	view                     *view
	fresh                    bool // a view came since the last move
	paused                   bool
	waiting                  int64 // id of the request in flight, 0 if none
	nextID                   int64
	nominated                bool // this speech
	conn                     *websocket.Conn
}

func main() {
	server := flag.String("server", "http://127.0.0.1:8080", "the server's base URL")
	table := flag.String("table", "", "the table to join (its id)")
	name := flag.String("name", "Robo", "display name")
	create := flag.Bool("create", false, "create a table, host it, fill it with the server's bots and start")
	players := flag.Int("players", 5, "with -create: the table's size (5 to 11)")
	lang := flag.String("lang", "en", "language of the server's sentences: en, ka or ru")
	card := flag.String("card", "", "with -create: a sandbox table where this bot is dealt this card (detective, doctor, don, ...)")
	bots := flag.String("bots", "expert", "with -create: the level of the server's bots (expert, smart, random, or one per side: town=smart,mafia=random,maniac=random)")
	flag.Parse()

	b := &bot{base: strings.TrimRight(*server, "/"), table: *table, lang: *lang}
	if *create {
		var created struct {
			Table     string `json:"table"`
			HostToken string `json:"host_token"`
		}
		req := map[string]any{"name": *name + "'s table", "players": *players, "public": true, "bots": *bots,
			"timings_ms": map[string]int64{"speech": 3000, "defence": 2000, "tie_speech": 2000,
				"last_words": 2000, "night": 2000, "vote": 3000}}
		if *card != "" {
			// A sandbox: the host's seat gets the card; nobody else may
			// sit; a sandbox is never listed.
			req["sandbox"], req["public"] = map[string]any{"card": *card}, false
		}
		if err := post(b.base, "/api/tables", "", req, &created); err != nil {
			log.Fatal(err)
		}
		b.table, b.host = created.Table, true
		// Joining with the host's token makes this seat the host's: the seat's
		// token is then the host's token.
		b.token = created.HostToken
		log.Printf("created table %s", b.table)
	}
	if b.table == "" {
		log.Fatal("give -table ID or -create")
	}
	var joined struct {
		Seat  int    `json:"seat"`
		Token string `json:"token"`
	}
	if err := post(b.base, "/api/tables/"+b.table+"/join", b.token, map[string]any{"name": *name}, &joined); err != nil {
		log.Fatal(err)
	}
	b.token = joined.Token
	log.Printf("seat %d at table %s", joined.Seat, b.table)

	for attempt := 0; ; attempt++ {
		done, err := b.session()
		if done {
			return
		}
		if attempt >= 10 {
			log.Fatalf("giving up: %v", err)
		}
		log.Printf("connection lost (%v); reconnecting with since=%d", err, b.seq)
		time.Sleep(time.Second)
	}
}

// session runs one WebSocket connection; it reports whether the game is over.
func (b *bot) session() (bool, error) {
	ctx := context.Background()
	u := strings.Replace(b.base, "http", "ws", 1) + "/api/tables/" + b.table + "/ws?since=" + strconv.Itoa(b.seq) + "&lang=" + b.lang
	h := http.Header{"Authorization": {"Bearer " + b.token}}
	c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return false, err
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 20) // the welcome frame of a long game is large
	b.conn, b.waiting = c, 0
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			var ce websocket.CloseError
			if errors.As(err, &ce) && ce.Reason == "refused" {
				log.Fatalf("refused: %v", err)
			}
			return false, err
		}
		var m serverMessage
		if err := json.Unmarshal(data, &m); err != nil {
			return false, err
		}
		if over := b.handle(ctx, m); over {
			c.Close(websocket.StatusNormalClosure, "game over")
			return true, nil
		}
	}
}

// handle absorbs one frame and acts if it is the bot's turn; it reports
// whether the game is over.
func (b *bot) handle(ctx context.Context, m serverMessage) bool {
	switch m.Type {
	case "pad":
		// What every seat gets when the server has nothing for it (frames
		// of one length for everyone): nothing to read, nothing to do.
		return false
	case "welcome", "update":
		if m.Type == "welcome" && m.Seq-len(m.Events) != b.seq {
			// The server sent everything from the start (our since did not fit).
			log.Printf("full resend: %d events", len(m.Events))
		}
		if len(m.Events) > 0 {
			b.seq = m.Seq
		}
		for _, e := range m.Events {
			b.narrate(e)
		}
		b.paused = m.Paused
		if m.View != nil {
			if b.view != nil && b.view.Step != m.View.Step {
				b.nominated = false // a new step: a new speech
			}
			b.view, b.fresh = m.View, true
		}
		if m.Type == "welcome" && b.host && b.view == nil {
			b.send(ctx, clientMessage{Type: "host", Action: "add_bots"})
			b.send(ctx, clientMessage{Type: "host", Action: "start"})
			return false
		}
	case "reply":
		if m.ID == b.waiting {
			b.waiting = 0
		}
	case "error":
		log.Printf("refused (request %d): %s: %s", m.ID, m.Code, m.Message)
		// A frame refused unread (rate_limited, too_large, malformed) is
		// answered without its id: it answers the one request in flight.
		if m.ID == b.waiting || m.ID == 0 {
			b.waiting = 0
		}
		return false // do not retry at once: wait for the next update
	case "warning":
		log.Printf("10 seconds left (deadline %d)", m.Deadline)
	case "chat":
		log.Printf("[%s] seat %d %s: %s", m.Channel, m.From, m.Name, m.Text)
	}
	if b.view != nil && b.view.Phase == "ended" {
		log.Printf("game over: %s wins (I was the %s)", b.view.Winner, b.view.Role)
		return true
	}
	b.act(ctx)
	return false
}

func (b *bot) narrate(e event) {
	switch e.Kind {
	case "game_started":
		log.Printf("the game begins")
	case "checked":
		log.Printf("my check: seat %d is %s", e.Target, e.Result)
	case "player_out":
		log.Printf("seat %d leaves the game", e.Target)
	case "game_ended":
		log.Printf("result: %s", e.Winner)
	}
}

// act sends one legal move, if there is one and no request is in flight.
func (b *bot) act(ctx context.Context) {
	v := b.view
	// One move per view: at night a move's new view comes at the server's
	// next tick, after the reply, and the old view still lists the move.
	if v == nil || !b.fresh || b.waiting != 0 || b.paused || v.Phase == "ended" {
		return
	}
	l := v.Legal
	pick := func(s []int) int { return s[rand.IntN(len(s))] }
	var m clientMessage
	switch {
	case len(l.Kill) > 0:
		m = clientMessage{Type: "command", Verb: "kill", Target: pick(l.Kill)}
	case len(l.Check) > 0:
		m = clientMessage{Type: "command", Verb: "check", Target: pick(l.Check)}
	case len(l.Shoot) > 0 && rand.IntN(2) == 0:
		m = clientMessage{Type: "command", Verb: "shoot", Target: pick(l.Shoot)}
	case len(l.Heal) > 0:
		m = clientMessage{Type: "command", Verb: "heal", Target: pick(l.Heal)}
	case l.Skip:
		m = clientMessage{Type: "command", Verb: "skip"}
	case len(l.Nominate) > 0 && !b.nominated && rand.IntN(2) == 0:
		b.nominated = true
		m = clientMessage{Type: "command", Verb: "nominate", Target: pick(l.Nominate)}
	case len(l.Vote) > 0:
		m = clientMessage{Type: "command", Verb: "vote", Target: pick(l.Vote)}
	case l.AllVote:
		m = clientMessage{Type: "command", Verb: "all_vote", Yes: rand.IntN(2) == 0}
	case l.Pass:
		b.send(ctx, clientMessage{Type: "chat", Channel: "town", Text: "I have nothing to add."})
		m = clientMessage{Type: "command", Verb: "pass"}
	default:
		return
	}
	// The move is for this step only: if the step ends before it arrives,
	// the server refuses it (stale_step) instead of applying it to the next.
	m.Step = v.Step
	b.fresh = false
	b.waiting = b.send(ctx, m)
}

// send writes a message with a fresh id and returns the id.
func (b *bot) send(ctx context.Context, m clientMessage) int64 {
	b.nextID++
	m.V, m.ID = 1, b.nextID
	data, err := json.Marshal(m)
	if err != nil {
		log.Fatal(err)
	}
	if err := b.conn.Write(ctx, websocket.MessageText, data); err != nil {
		fmt.Fprintln(os.Stderr, "write:", err)
	}
	return m.ID
}
