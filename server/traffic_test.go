package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/engine"
	"mafia/internal/traffictest"
	"mafia/rng"
	"mafia/room"
	"mafia/wire"
)

// What an observer of the network sees of a connection: TLS hides the
// frames' contents, not their lengths or their moments. These tests play
// whole games over real WebSockets on a server with a fake clock and keep,
// for every seat, only what such an observer would: the moment (on the
// room's clock) and the length of every frame it received. They then try
// to tell the cards apart from that alone.
//
// The seats' clients follow the discipline docs/protocol.md asks of a
// client that wants its own traffic to say nothing ("Frame lengths: what
// an observer learns"): at every moment the test stops the clock, each seat sends
// exactly one request, its move if it makes one, else a ping (the mafia
// sometimes a line of their chat at night). Their answers are all of one
// length.

// trafficTimings: a night of two ticks (one at 1 s, the last at its
// deadline), short day steps; the clock moves by half a second.
var trafficTimings = map[string]int64{"speech": 1000, "defence": 500, "tie_speech": 500, "last_words": 500,
	"night": 2000, "vote": 1000}

const trafficStep = 500 * time.Millisecond

// observed is one frame as an observer sees it.
type observed struct {
	traffictest.Frame
	night bool // received during a night (the seat's view said so)
}

// trafficSeat is one seat's connection and what it received.
type trafficSeat struct {
	seat  int
	c     *wsConn
	src   rng.Source
	last  []byte // the latest frame with a view
	fresh bool   // a view came since the seat last moved
	night bool   // the latest view is a night's
	ended bool
	got   []observed
	// answers counts the answers (reply, error, pong) and their lengths.
	answers map[int]int
}

// peekType reads a frame's type and id from its first bytes (the server
// writes "v", "type", then "id").
func peekType(data []byte) (typ string, id int64) {
	rest, ok := bytes.CutPrefix(data, []byte(`{"v":1,"type":"`))
	if !ok {
		return "", 0
	}
	i := bytes.IndexByte(rest, '"')
	if i < 0 {
		return "", 0
	}
	typ, rest = string(rest[:i]), rest[i+1:]
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"id":`)); ok {
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		id, _ = strconv.ParseInt(string(rest[:j]), 10, 64)
	}
	return typ, id
}

// read takes frames until the answer to request id, recording each.
func (s *trafficSeat) readUntil(ctx context.Context, at time.Duration, id int64) error {
	for {
		_, data, err := s.c.readRaw(ctx)
		if err != nil {
			return fmt.Errorf("seat %d: %w", s.seat, err)
		}
		typ, got := peekType(data)
		s.got = append(s.got, observed{Frame: traffictest.Frame{At: at, Size: len(data)}, night: s.night})
		if bytes.Contains(data, []byte(`"view":{`)) {
			s.last = append(s.last[:0], data...)
			s.fresh = true
			s.night = bytes.Contains(data, []byte(`"phase":"night"`))
			s.ended = s.ended || bytes.Contains(data, []byte(`"phase":"ended"`))
		}
		switch typ {
		case "reply", "error", "pong":
			s.answers[len(data)]++
			if got == id {
				return nil
			}
		case "":
			return fmt.Errorf("seat %d: a frame without a type: %.80q", s.seat, data)
		}
	}
}

// request is the seat's one request of the moment: a move from its latest
// view (half the time, when it has one), a line of the mafia's chat
// (sometimes, for a mafioso at night), else a ping.
func (s *trafficSeat) request(mafia bool) wire.ClientMessage {
	if s.fresh && !s.ended && s.src.Intn(2) == 0 {
		var m struct {
			View *wire.View `json:"view"`
		}
		if err := json.Unmarshal(s.last, &m); err == nil && m.View != nil {
			s.fresh = false
			if mv, ok := client.RandomMove(m.View, &s.src); ok {
				return mv
			}
			if m.View.Legal.Pass {
				return wire.ClientMessage{Type: "command", Verb: "pass"}
			}
		}
	}
	if mafia && s.night && s.src.Intn(4) == 0 {
		return wire.ClientMessage{Type: "chat", Channel: "mafia", Text: "seat " + strconv.Itoa(1+s.src.Intn(11)) + "?"}
	}
	return wire.ClientMessage{Type: "ping"}
}

// trafficGame is one game's record: every seat's frames and the deal.
type trafficGame struct {
	players int
	roles   []engine.Role // by seat, from 1
	seats   []*trafficSeat
}

// playObserved plays one game of n seats on ts, whose clock is clk, and
// records what an observer of each seat's connection would see.
func playObserved(ctx context.Context, t *testing.T, ts *testServer, clk *room.FakeClock, n int, seed uint64, opts map[string]string) trafficGame {
	t.Helper()
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "traffic", Players: n, Options: opts, TimingsMS: trafficTimings}, seatsUpTo(n), seed)
	g := trafficGame{players: n}
	for i, p := range tb.players {
		c, _, err := dialWS(ctx, ts.api.Base, tb.id, p.token, 0, dialOpts{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.close)
		if _, m, err := c.read(ctx); err != nil || m.Type != "welcome" {
			t.Fatalf("seat %d: no welcome: %v", i+1, err)
		}
		g.seats = append(g.seats, &trafficSeat{seat: i + 1, c: c, src: rng.New(seed*100 + uint64(i)), answers: map[int]int{}})
	}
	// What came before the start (the lobby as the others connected) is
	// not recorded.
	for _, s := range g.seats {
		if err := s.readUntil(ctx, 0, mustPing(ctx, t, s)); err != nil {
			t.Fatal(err)
		}
		s.got, s.answers = nil, map[int]int{}
	}
	// The host starts; from then on every seat's frames are recorded but
	// the start's reply, which is the host's own.
	host := g.seats[0]
	id, err := host.c.send(ctx, wire.ClientMessage{Type: "host", Action: "start"})
	if err != nil {
		t.Fatal(err)
	}
	start := clk.Now()
	if err := host.readUntil(ctx, 0, id); err != nil {
		t.Fatal(err)
	}
	last := host.got[len(host.got)-1]
	host.got = host.got[:len(host.got)-1]
	if host.answers[last.Size]--; host.answers[last.Size] == 0 {
		delete(host.answers, last.Size)
	}
	var mafia []bool
	for moment := 0; ; moment++ {
		at := clk.Now().Sub(start)
		if moment > 2000 {
			t.Fatalf("no end after %v", at)
		}
		if moment == 0 {
			for _, s := range g.seats { // the deal, to know who chats as the mafia
				if err := s.readUntil(ctx, at, mustPing(ctx, t, s)); err != nil {
					t.Fatal(err)
				}
			}
			g.roles, mafia = dealFromStore(ctx, t, ts, tb.id, n)
		} else {
			// One request a seat, one after another: each sees what the
			// ones before it caused.
			for _, s := range g.seats {
				id, err := s.c.send(ctx, s.request(mafia[s.seat]))
				if err != nil {
					t.Fatal(err)
				}
				if err := s.readUntil(ctx, at, id); err != nil {
					t.Fatal(err)
				}
			}
			// Then a ping each, for what the later ones caused.
			for _, s := range g.seats {
				if err := s.readUntil(ctx, at, mustPing(ctx, t, s)); err != nil {
					t.Fatal(err)
				}
			}
		}
		ended := true
		for _, s := range g.seats {
			ended = ended && s.ended
		}
		if ended {
			return g
		}
		clk.Advance(trafficStep)
	}
}

func mustPing(ctx context.Context, t *testing.T, s *trafficSeat) int64 {
	t.Helper()
	id, err := s.c.send(ctx, wire.ClientMessage{Type: "ping"})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// dealFromStore reads the deal (for the analysis only, as an observer could
// not) and which seats are the mafia.
func dealFromStore(ctx context.Context, t *testing.T, ts *testServer, table string, n int) ([]engine.Role, []bool) {
	t.Helper()
	log, err := ts.db.Events(ctx, table)
	if err != nil || len(log) == 0 {
		t.Fatalf("the deal: %v", err)
	}
	roles, mafia := make([]engine.Role, n+1), make([]bool, n+1)
	for s := 1; s <= n; s++ {
		roles[s] = engine.Role(log[0].PerSeat[s])
		mafia[s] = roles[s].IsMafia()
	}
	return roles, mafia
}

// frames is what an observer of the network sees of a seat's traffic.
func frames(got []observed) []traffictest.Frame {
	out := make([]traffictest.Frame, len(got))
	for i, o := range got {
		out[i] = o.Frame
	}
	return out
}

// features are what a classifier may use of a seat's traffic.
type features struct {
	bytes, frames                    float64 // over the game
	nightBytes, nightFrames, nightAt float64 // at night; nightAt: the moments with a frame
	largestNight                     float64 // the longest frame received at night
}

func featuresOf(got []observed) features {
	var f features
	at := map[time.Duration]bool{}
	for _, o := range got {
		f.bytes += float64(o.Size)
		f.frames++
		if o.night {
			f.nightBytes += float64(o.Size)
			f.nightFrames++
			f.largestNight = math.Max(f.largestNight, float64(o.Size))
			at[o.At] = true
		}
	}
	f.nightAt = float64(len(at))
	return f
}

func (f features) vector() []float64 {
	return []float64{f.bytes, f.frames, f.nightBytes, f.nightFrames, f.nightAt, f.largestNight}
}

// classifier scores each seat of a game: the k highest are its guess for
// the k seats that hold the cards it looks for.
type classifier struct {
	name   string
	target func(engine.Role) bool
	score  func(g trafficGame, train []trafficGame, s int) float64
}

// centroidScore is nearest-centroid on the standardised features, trained
// on the other games: how much nearer a seat is to the target's centroid
// than to the others'.
func centroidScore(target func(engine.Role) bool) func(g trafficGame, train []trafficGame, s int) float64 {
	return func(g trafficGame, train []trafficGame, s int) float64 {
		var all, in, out [][]float64
		for _, tg := range train {
			for _, ts := range tg.seats {
				v := featuresOf(ts.got).vector()
				all = append(all, v)
				if target(tg.roles[ts.seat]) {
					in = append(in, v)
				} else {
					out = append(out, v)
				}
			}
		}
		mean, sd := make([]float64, 6), make([]float64, 6)
		for _, v := range all {
			for i := range v {
				mean[i] += v[i] / float64(len(all))
			}
		}
		for _, v := range all {
			for i := range v {
				sd[i] += (v[i] - mean[i]) * (v[i] - mean[i]) / float64(len(all))
			}
		}
		norm := func(v []float64) []float64 {
			out := make([]float64, len(v))
			for i := range v {
				if sd[i] > 0 {
					out[i] = (v[i] - mean[i]) / math.Sqrt(sd[i])
				}
			}
			return out
		}
		centroid := func(vs [][]float64) []float64 {
			c := make([]float64, 6)
			for _, v := range vs {
				for i, x := range norm(v) {
					c[i] += x / float64(len(vs))
				}
			}
			return c
		}
		dist := func(a, b []float64) float64 {
			d := 0.0
			for i := range a {
				d += (a[i] - b[i]) * (a[i] - b[i])
			}
			return d
		}
		v := norm(featuresOf(g.seats[s-1].got).vector())
		return dist(v, centroid(out)) - dist(v, centroid(in))
	}
}

var trafficClassifiers = []classifier{
	{"the k largest byte totals are the mafia", engine.Role.IsMafia,
		func(g trafficGame, _ []trafficGame, s int) float64 { return featuresOf(g.seats[s-1].got).bytes }},
	{"the k largest night byte totals are the mafia", engine.Role.IsMafia,
		func(g trafficGame, _ []trafficGame, s int) float64 { return featuresOf(g.seats[s-1].got).nightBytes }},
	{"the k longest frames at night are the mafia", engine.Role.IsMafia,
		func(g trafficGame, _ []trafficGame, s int) float64 { return featuresOf(g.seats[s-1].got).largestNight }},
	{"the seats with most frames at night act at night", nightRole,
		func(g trafficGame, _ []trafficGame, s int) float64 { return featuresOf(g.seats[s-1].got).nightFrames }},
	{"the seats with frames at most moments of the night act at night", nightRole,
		func(g trafficGame, _ []trafficGame, s int) float64 { return featuresOf(g.seats[s-1].got).nightAt }},
	{"nearest centroid finds the mafia", engine.Role.IsMafia, centroidScore(engine.Role.IsMafia)},
	{"nearest centroid finds the night roles", nightRole, centroidScore(nightRole)},
}

// TestTrafficAnalysis_TellsNoCardApart plays games of 6 to 11 seats with
// random legal moves and checks (a) the strong invariant: within a game,
// every seat receives frames of the same lengths at the same moments; (b)
// classifiers that pick the k seats of a card from lengths and moments
// alone (k the number of those cards) do no better than chance. Under
// chance a classifier's hits in a game of n seats are hypergeometric (mean
// k²/n); summed over the games, a classifier fails the test when its hits
// exceed that mean by more than 4.5 standard deviations: about 3 in a
// million each by chance, so that seven classifiers over random deals
// do not fail a good build once in a thousand runs, while the traffic of
// the build before the padding scored z = 11.6. Ties are broken by a
// seeded shuffle.
func TestTrafficAnalysis_TellsNoCardApart(t *testing.T) {
	games := 18
	if testing.Short() {
		games = 6
	}
	clk := room.NewFakeClock(time.Unix(1_800_000_000, 0))
	ts := startServerWith(t, "", func(c *Config) {
		// The clients ask as fast as loopback goes, with the clock stopped:
		// the per-connection limit, on the wall clock, is not this test's.
		c.Clock, c.SendBuffer, c.Rate, c.Burst = clk, 4096, 1e9, 1<<30
		c.Limits.Unlimited = loopback // every game's seats from one address
	})
	src := rng.New(17)
	var played []trafficGame
	for i := 0; i < games; i++ {
		n := 6 + i%6
		opts := map[string]string{"reveal_on_death": []string{"none", "team", "role"}[src.Intn(3)]}
		// A deadlock guard per game (a game takes about a second; the
		// whole test's eighteen within one 20-second bound failed on a
		// 2-core machine with other tests beside it, and so did one game
		// in 20 s under -race at a load of 34).
		ctx := within(t, 60*time.Second)
		g := playObserved(ctx, t, ts, clk, n, uint64(i+1), opts)
		played = append(played, g)
		for _, s := range g.seats[1:] {
			if err := traffictest.Differ(frames(g.seats[0].got), frames(s.got)); err != nil {
				t.Errorf("game %d (%d seats): seat 1 (%v) and seat %d (%v) received different traffic: %v",
					i, n, g.roles[1], s.seat, g.roles[s.seat], err)
				break
			}
		}
		// Every answer (a reply, a refusal, a pong) has one length.
		lengths := map[int]int{}
		for _, s := range g.seats {
			for size, k := range s.answers {
				lengths[size] += k
			}
		}
		if len(lengths) != 1 {
			t.Errorf("game %d: answers of more than one length (bytes: how many): %v", i, lengths)
		}
	}
	frames := 0
	for _, g := range played {
		for _, s := range g.seats {
			frames += len(s.got)
		}
	}
	t.Logf("%d games, %d frames observed", len(played), frames)

	shuffle := rng.New(99)
	for _, c := range trafficClassifiers {
		hits, mean, variance := 0.0, 0.0, 0.0
		for gi, g := range played {
			train := append(append([]trafficGame(nil), played[:gi]...), played[gi+1:]...)
			n := g.players
			type scored struct {
				seat       int
				score, tie float64
			}
			var ss []scored
			k := 0
			for s := 1; s <= n; s++ {
				ss = append(ss, scored{s, c.score(g, train, s), float64(shuffle.Uint64()>>11) / (1 << 53)})
				if c.target(g.roles[s]) {
					k++
				}
			}
			sort.Slice(ss, func(i, j int) bool {
				if ss[i].score != ss[j].score {
					return ss[i].score > ss[j].score
				}
				return ss[i].tie > ss[j].tie
			})
			for _, x := range ss[:k] {
				if c.target(g.roles[x.seat]) {
					hits++
				}
			}
			fk, fn := float64(k), float64(n)
			mean += fk * fk / fn
			variance += fk * fk * (fn - fk) * (fn - fk) / (fn * fn * (fn - 1))
		}
		z := (hits - mean) / math.Sqrt(variance)
		t.Logf("%s: %.0f hits, %.1f expected by chance (z = %.2f)", c.name, hits, mean, z)
		if z > 4.5 {
			t.Errorf("%s: %.0f hits against %.1f by chance (z = %.2f): the traffic tells the cards apart", c.name, hits, mean, z)
		}
	}
}

// TestAnswersAreOneLength: a reply, a refusal (the longest sentences of
// every language among them), a refusal of a frame that never reached the
// table, a refusal at the handshake and a pong are all room.AnswerLen
// bytes, so that an accepted night command, a refused one and a ping look
// alike on the wire.
func TestAnswersAreOneLength(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 30*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "answers", Players: 5, TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "ka", "ru"} {
		q := url.Values{"lang": {lang}}
		host, _, err := dialWS(ctx, ts.api.Base, created.Table, created.HostToken, 0, dialOpts{query: q})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := host.read(ctx); err != nil {
			t.Fatal(err)
		}
		for _, m := range []wire.ClientMessage{
			{Type: "ping"},
			{Type: "host", Action: "start"},                // not_full: the longest in Georgian
			{Type: "host", Action: "pause"},                // not_started
			{Type: "chat", Channel: "town", Text: "hello"}, // the seatless host posts nowhere
			{Type: "host", Action: "add_bots"},             // accepted
		} {
			id, err := host.send(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			for {
				data, got, err := host.read(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if got.ID != id {
					continue
				}
				if len(data) != room.AnswerLen {
					t.Errorf("%s: the answer to %s %s is %d bytes, want %d: %s", lang, m.Type, m.Action, len(data), room.AnswerLen, bytes.TrimRight(data, " "))
				}
				break
			}
		}
		// A frame refused before it reaches the table.
		if err := host.sendRaw(ctx, websocket.MessageText, []byte("hello")); err != nil {
			t.Fatal(err)
		}
		if data, got, err := host.read(ctx); err != nil || got.Code != string(CodeMalformed) || len(data) != room.AnswerLen {
			t.Errorf("%s: a malformed frame's answer: %d bytes, %q, %v", lang, len(data), got.Code, err)
		}
		host.close()
		// A refusal at the handshake.
		bad, _, err := dialWS(ctx, ts.api.Base, created.Table, strings.Repeat("0", 48), 0, dialOpts{query: q})
		if err != nil {
			t.Fatal(err)
		}
		if data, got, err := bad.read(ctx); err != nil || got.Code != "bad_token" || len(data) != room.AnswerLen {
			t.Errorf("%s: the bad token's refusal: %d bytes, %q, %v", lang, len(data), got.Code, err)
		}
		bad.close()
	}
}

// TestHandshakeNegotiatesNoCompression: a client that offers
// permessage-deflate gets no extension: compression would squeeze the
// padding away and let lengths tell the frames apart again.
func TestHandshakeNegotiatesNoCompression(t *testing.T) {
	ts := startServer(t, "")
	ctx := within(t, 10*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "deflate", Players: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []websocket.CompressionMode{websocket.CompressionContextTakeover, websocket.CompressionNoContextTakeover} {
		ws, resp, err := websocket.Dial(ctx, wsURL(ts.api.Base, created.Table, 0, nil), &websocket.DialOptions{CompressionMode: mode})
		if err != nil {
			t.Fatal(err)
		}
		if ext := resp.Header.Get("Sec-WebSocket-Extensions"); ext != "" {
			t.Errorf("offered compression (mode %v), the server agreed to %q", mode, ext)
		}
		ws.CloseNow()
	}
}
