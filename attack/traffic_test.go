package attack

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/internal/traffictest"
	"mafia/rng"
	"mafia/room"
	"mafia/server"
	"mafia/wire"
)

// spyTimings: a night of two ticks, short day steps; the spy's clock moves
// by spyStep.
var spyTimings = map[string]int64{"speech": 1000, "defence": 500, "tie_speech": 500, "last_words": 500, "night": 2000, "vote": 1000}

const spyStep = 500 * time.Millisecond

// spySeat is one of the spy's seats: its connection, what it got, and what
// it knows of its own card (which it may: it is its own).
type spySeat struct {
	seat    int
	ws      *websocket.Conn
	next    int64
	src     rng.Source
	view    *wire.View
	fresh   bool // a view came since the seat last moved
	got     []traffictest.Frame
	answers map[int]int // answers (reply, error, pong) by length
}

func (s *spySeat) send(ctx context.Context, m wire.ClientMessage) (int64, error) {
	s.next++
	m.V, m.ID = wire.Version, s.next
	return m.ID, s.ws.Write(ctx, websocket.MessageText, m.AppendJSON(nil))
}

// until reads frames up to the answer to request id, recording each at
// the moment at.
func (s *spySeat) until(ctx context.Context, at time.Duration, id int64) error {
	for {
		_, data, err := s.ws.Read(ctx)
		if err != nil {
			return fmt.Errorf("seat %d: %w", s.seat, err)
		}
		s.got = append(s.got, traffictest.Frame{At: at, Size: len(data)})
		var m wire.ServerMessage
		if err := json.Unmarshal(data, &m); err != nil {
			return fmt.Errorf("seat %d: %w", s.seat, err)
		}
		if m.View != nil {
			s.view, s.fresh = m.View, true
		}
		switch m.Type {
		case "reply", "error", "pong":
			s.answers[len(data)]++
			if m.ID == id {
				return nil
			}
		}
	}
}

func (s *spySeat) ping(ctx context.Context, at time.Duration) error {
	id, err := s.send(ctx, wire.ClientMessage{Type: "ping"})
	if err != nil {
		return err
	}
	return s.until(ctx, at, id)
}

// request is the seat's one request of a moment, as a careful client makes
// it (docs/protocol.md, "Frame lengths"): its move half the time it has a
// new view, sometimes a line of the mafia's chat at night, else a ping.
func (s *spySeat) request() wire.ClientMessage {
	v := s.view
	if v == nil || v.Phase == "ended" {
		return wire.ClientMessage{Type: "ping"}
	}
	if s.fresh && s.src.Intn(2) == 0 {
		s.fresh = false
		if m, ok := client.RandomMove(v, &s.src); ok {
			return m
		}
		if v.Legal.Pass {
			return wire.ClientMessage{Type: "command", Verb: "pass", Step: v.Step}
		}
	}
	if v.Phase == "night" && (v.Role == "mafia" || v.Role == "don") && s.src.Intn(4) == 0 {
		return wire.ClientMessage{Type: "chat", Channel: "mafia", Text: "seat " + strconv.Itoa(1+s.src.Intn(9)) + "?"}
	}
	return wire.ClientMessage{Type: "ping"}
}

// spyGame has the spy take 7 seats of an n-seat table (the host's, and
// three from each of two addresses, the most those allow), bots the rest,
// and play it to the end, recording every frame each of its seats gets.
// The server's clock is clk: each moment, every seat sends one request and
// then a ping, and the clock moves on, so a frame's moment is exact.
func spyGame(ctx context.Context, t *testing.T, tg *target, clk *room.FakeClock, n int, seed uint64) []*spySeat {
	t.Helper()
	hostAPI := &client.API{Base: tg.base, HTTP: from("127.0.80.1")}
	reveal := []string{"none", "team", "role"}[seed%3]
	created, err := hostAPI.Create(ctx, client.CreateRequest{Name: "spied on", Players: n, TimingsMS: spyTimings,
		Options: map[string]string{"reveal_on_death": reveal}})
	if err != nil {
		t.Fatal(err)
	}
	tokens := []string{created.HostToken}
	if _, err := hostAPI.Join(ctx, created.Table, "Spy", 1, created.HostToken); err != nil {
		t.Fatal(err)
	}
	for a := 0; a < 2; a++ {
		api := &client.API{Base: tg.base, HTTP: from(fmt.Sprintf("127.0.81.%d", a+1))}
		for i := 0; i < 3; i++ {
			j, err := api.Join(ctx, created.Table, fmt.Sprintf("Spy %d", len(tokens)+1), 0, "")
			if err != nil {
				t.Fatalf("the spy's seat %d: %v", len(tokens)+1, err)
			}
			tokens = append(tokens, j.Token)
		}
	}
	var seats []*spySeat
	for i, tok := range tokens {
		// Every seat offers compression: the server must not take it (it
		// would squeeze the padding away).
		ws, resp, err := websocket.Dial(ctx, tg.wsURL(created.Table, ""), &websocket.DialOptions{
			HTTPClient: from(fmt.Sprintf("127.0.81.%d", i%2+1)), CompressionMode: websocket.CompressionContextTakeover,
			HTTPHeader: http.Header{"Authorization": {"Bearer " + tok}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.CloseNow() })
		if ext := resp.Header.Get("Sec-WebSocket-Extensions"); ext != "" {
			t.Errorf("the server agreed to compression: %q", ext)
		}
		ws.SetReadLimit(1 << 20)
		seats = append(seats, &spySeat{seat: i + 1, ws: ws, src: rng.New(seed*100 + uint64(i)), answers: map[int]int{}})
	}
	host := seats[0]
	id, err := host.send(ctx, wire.ClientMessage{Type: "host", Action: "add_bots"})
	if err != nil {
		t.Fatal(err)
	}
	if err := host.until(ctx, 0, id); err != nil {
		t.Fatal(err)
	}
	for _, s := range seats { // the lobby is public: not recorded
		if err := s.ping(ctx, 0); err != nil {
			t.Fatal(err)
		}
		s.got, s.answers = nil, map[int]int{}
	}
	if id, err = host.send(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	began := clk.Now()
	if err := host.until(ctx, 0, id); err != nil {
		t.Fatal(err)
	}
	// The start's reply is the host's own answer, to its own request.
	host.got = host.got[:len(host.got)-1]
	for _, s := range seats {
		if err := s.ping(ctx, 0); err != nil {
			t.Fatal(err)
		}
	}
	for moment := 0; ; moment++ {
		if moment > 2000 {
			t.Fatalf("no end after %d moments", moment)
		}
		clk.Advance(spyStep)
		at := clk.Now().Sub(began)
		for _, s := range seats {
			id, err := s.send(ctx, s.request())
			if err != nil {
				t.Fatal(err)
			}
			if err := s.until(ctx, at, id); err != nil {
				t.Fatal(err)
			}
		}
		ended := true
		for _, s := range seats { // what the later seats' requests caused
			if err := s.ping(ctx, at); err != nil {
				t.Fatal(err)
			}
			ended = ended && s.view != nil && s.view.Phase == "ended"
		}
		if ended {
			return seats
		}
	}
}

// TestAttack_TrafficAnalysisFromItsOwnSeats (issue 17, item 2): a spy
// holds seven seats of tables of people and bots (its own cards it knows)
// and records every frame's length and moment on each of them over whole
// games, as anyone on the players' networks could; it offers compression
// on every handshake. It must not be able to tell its cards apart: at every
// moment each of its seats got frames of the same lengths as every other,
// whatever their cards and whatever they did; every answer (reply,
// refusal, pong) is of one length; no handshake took compression. The
// server runs on a fake clock so that a frame's moment is exact (the
// statistical proof over many games is server's
// TestTrafficAnalysis_TellsNoCardApart).
func TestAttack_TrafficAnalysisFromItsOwnSeats(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	clk := room.NewFakeClock(time.Unix(1_800_000_000, 0))
	tg := start(t, func(c *server.Config) { c.Clock = clk })
	ctx := within(t, 60*time.Second)
	answers := map[int]int{}
	frames, nightCards := 0, map[string]bool{}
	for i, n := range []int{8, 11, 9, 10, 8, 11}[:count(6, 2)] {
		seats := spyGame(ctx, t, tg, clk, n, uint64(i+1))
		roles := map[int]string{}
		for _, s := range seats {
			roles[s.seat] = s.view.Seats[s.seat-1].Role
			nightCards[roles[s.seat]] = true
			frames += len(s.got)
			for size, k := range s.answers {
				answers[size] += k
			}
		}
		for _, s := range seats[1:] {
			if err := traffictest.Differ(seats[0].got, s.got); err != nil {
				t.Errorf("game %d (%d seats): the spy's seat 1 (%s) and seat %d (%s) got different traffic: %v",
					i+1, n, roles[1], s.seat, roles[s.seat], err)
			}
		}
	}
	t.Logf("%d frames recorded; the spy held %v", frames, nightCards)
	if len(answers) != 1 {
		t.Errorf("answers of more than one length (bytes: how many): %v", answers)
	}
	if !nightCards["citizen"] || !(nightCards["mafia"] || nightCards["don"] || nightCards["detective"] || nightCards["doctor"]) {
		t.Errorf("the spy never held both a citizen and a card that acts at night (%v): nothing was compared", nightCards)
	}
}
