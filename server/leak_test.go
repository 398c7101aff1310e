package server

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mafia/client"
	"mafia/engine"
	"mafia/rng"
	"mafia/wire"
)

// TestLeakScan_EveryFrameOfRandomGames plays complete games over real
// WebSockets (every preset size, 5 to 11 seats, under every reveal_on_death
// and maniac_check, each pair of the three met in some game; humans at
// seeded seats, bots in the others, some games of people only; several
// games at once on one server) and checks every frame every client
// received against the deal, learned only after the end: before the end no
// frame names a card or a team the seat may not know, and each secret
// event reaches only its audience.
func TestLeakScan_EveryFrameOfRandomGames(t *testing.T) {
	t.Parallel()
	// Several games at once, four a core (sixteen on four cores): on a
	// shared 2-core machine sixteen 11-seat games of people, each client
	// reading every frame, starved clients until the server closed their
	// connections (EOF, twice, in games of people only).
	rounds, workers := 3, min(16, 4*runtime.GOMAXPROCS(0))
	if testing.Short() {
		rounds = 1
	}
	if raceOn {
		// Under the race detector, sixteen 11-seat games at once starved
		// clients of the CPU for seconds on a loaded 2-core machine (their
		// connections were closed under them, EOF); four at once keep the
		// machine as busy and every client reading.
		workers = 4
	}
	// A larger send queue than the default: a client descheduled on a busy
	// machine must not be dropped for reading slowly; that is not what
	// this test is about. Its tables all come from loopback, which the
	// per-address limits would refuse: they are not what it is about
	// either (package attack tests them).
	ts := startServerWith(t, "", func(c *Config) { c.SendBuffer = 1024; c.Limits.Unlimited = loopback })
	// The scan takes as long as the machine lets it: its deadline is its
	// own progress (a frame read by any client), not the wall clock, so a
	// busy machine makes it slow, never failed, and a game that hangs still
	// fails it (once no client has read a frame for leakStall).
	var progress atomic.Int64
	ctx := untilStalled(t, &progress, leakStall)
	plans := leakPlans(rounds, 20240611)
	games := len(plans)

	start := time.Now()
	var frames, conns atomic.Int64
	var mu sync.Mutex
	winners, sizes, kinds := map[string]int{}, map[int]int{}, map[string]int{}
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(plans) || t.Failed() {
					return
				}
				res, err := plans[i].play(ctx, ts, &progress)
				if err != nil {
					if ctx.Err() != nil {
						err = fmt.Errorf("%w (%v)", err, context.Cause(ctx))
					}
					t.Errorf("game %d (%s): %v", i, plans[i], err)
					return
				}
				frames.Add(int64(res.frames))
				conns.Add(int64(res.conns))
				mu.Lock()
				winners[res.winner]++
				sizes[plans[i].players]++
				for k, n := range res.kinds {
					kinds[k] += n
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	t.Logf("%d games (by size %v; winners %v), %d connections, %d frames scanned in %v",
		games, sizes, winners, conns.Load(), frames.Load(), time.Since(start).Round(time.Millisecond))
	t.Logf("events scanned by kind: %v", kinds)
	for _, k := range []string{"mafia_chose", "checked", "healed", "skipped", "vote_cast", "vote_made", "player_out", "game_ended", "statement"} {
		if kinds[k] == 0 {
			t.Errorf("no %s event was scanned: the games did not exercise it", k)
		}
	}
}

// leakStall is how long the scan may go without any client reading a frame
// before it fails as hung: a game's steps are 100 ms on the server's clock,
// so a minute without a frame in any of its games is no busy machine.
const leakStall = time.Minute

// untilStalled returns a context that ends when progress has not moved for
// stall (checked every tenth of it), with a cause that says so, or when the
// test ends.
func untilStalled(t *testing.T, progress *atomic.Int64, stall time.Duration) context.Context {
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(stall / 10)
		defer tick.Stop()
		last, since := progress.Load(), time.Now()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-tick.C:
				if n := progress.Load(); n != last {
					last, since = n, now
				} else if now.Sub(since) >= stall {
					cancel(fmt.Errorf("no client read a frame for %v, after %d frames: a game hangs", stall, n))
					return
				}
			}
		}
	}()
	t.Cleanup(func() {
		cancel(context.Canceled)
		<-done
	})
	return ctx
}

// leakPlan is one game of the scan.
type leakPlan struct {
	seed    uint64
	players int
	humans  []int // seats played by our clients; the first is the host
	options map[string]string
}

// leakTimings are short steps on the real clock; under the race detector
// the night and the vote are long enough that the night's roles and the
// voters still act in them on a loaded machine (with 100 ms nights a -race
// run once finished 30 games without a single check).
var leakTimings = func() map[string]int64 {
	night, vote := int64(100), int64(100)
	if raceOn {
		night, vote = 600, 300
	}
	return map[string]int64{"speech": 100, "defence": 100, "tie_speech": 100, "last_words": 100, "night": night, "vote": vote}
}()

// leakPlans is the scan's games: rounds of a covering design, each round
// every preset size (5 to 11 seats) three times, so that in a round every
// size meets every reveal_on_death and every maniac_check, and every pair
// of those two options meets in some game (maniac_check is reveal's index
// plus the size's, mod 3). The rest is seeded chance: first_night,
// doctor_repeat, how many people and at which seats (one game in five of
// people only). 21 games a round: a chosen deal covers what 200 random
// ones did by luck.
func leakPlans(rounds int, seed uint64) []leakPlan {
	src := rng.New(seed)
	reveals := []string{"none", "team", "role"}
	checks := []string{"not_mafia", "mafia", "maniac"}
	var plans []leakPlan
	for range rounds {
		for n := engine.PresetMin; n <= engine.PresetMax; n++ {
			for r := range reveals {
				plans = append(plans, newLeakPlan(&src, uint64(len(plans)), n, reveals[r], checks[(r+n)%3]))
			}
		}
	}
	return plans
}

func newLeakPlan(src *rng.Source, seed uint64, players int, reveal, maniacCheck string) leakPlan {
	p := leakPlan{seed: seed, players: players, options: map[string]string{"reveal_on_death": reveal, "maniac_check": maniacCheck}}
	if src.Intn(4) == 0 {
		p.options["first_night"] = "meeting"
	}
	if src.Intn(4) == 0 {
		p.options["doctor_repeat"] = "not_twice_in_a_row"
	}
	humans := 2 + src.Intn(4)
	if src.Intn(5) == 0 || humans > p.players {
		humans = p.players // no bots at all
	}
	seats := seatsUpTo(p.players)
	for i := len(seats) - 1; i > 0; i-- {
		j := src.Intn(i + 1)
		seats[i], seats[j] = seats[j], seats[i]
	}
	p.humans = seats[:humans]
	return p
}

func (p leakPlan) String() string {
	return fmt.Sprintf("%d players, humans at %v, options %v", p.players, p.humans, p.options)
}

type leakResult struct {
	frames, conns int
	winner        string
	kinds         map[string]int
}

// play plays the game to its end, then scans every frame.
func (p leakPlan) play(ctx context.Context, ts *testServer, progress *atomic.Int64) (leakResult, error) {
	var res leakResult
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "leak", Players: p.players, Options: p.options, TimingsMS: leakTimings})
	if err != nil {
		return res, fmt.Errorf("create: %w", err)
	}
	everyone := []*player{newPlayer(ts.api.Base, created.Table, "", 0, 0)} // a spectator
	for i, s := range p.humans {
		tok := ""
		if i == 0 {
			tok = created.HostToken
		}
		j, err := ts.api.Join(ctx, created.Table, fmt.Sprintf("p%d", s), s, tok)
		if err != nil {
			return res, fmt.Errorf("join seat %d: %w", s, err)
		}
		pl := newPlayer(ts.api.Base, created.Table, j.Token, s, p.seed*100+uint64(s))
		pl.talk = true
		everyone = append(everyone, pl)
	}
	for _, pl := range everyone {
		pl.keep = true
		pl.onFrame = func(*player, wire.ServerMessage) { progress.Add(1) }
		if _, err := pl.connect(ctx); err != nil {
			return res, fmt.Errorf("seat %d: connect: %w", pl.seat, err)
		}
	}
	host := everyone[1]
	if len(p.humans) < p.players {
		if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "add_bots"}); err != nil {
			return res, fmt.Errorf("add_bots: %w", err)
		}
	}
	if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		return res, fmt.Errorf("start: %w", err)
	}
	if err := <-playAll(ctx, everyone).done; err != nil {
		return res, err
	}

	// The truth, known only now: the cards of the game_ended event, which
	// must be the cards the store dealt.
	truth, err := dealOf(everyone[0].events, p.players)
	if err != nil {
		return res, err
	}
	log, err := ts.db.Events(ctx, created.Table)
	if err != nil {
		return res, err
	}
	for s := 1; s <= p.players; s++ {
		if engine.Role(log[0].PerSeat[s]) != truth[s] {
			return res, fmt.Errorf("game_ended shows seat %d as %s, the stored deal says %s", s, truth[s], engine.Role(log[0].PerSeat[s]))
		}
	}
	// every statement is one a client sent, word for word: nothing in it
	// came from the server (the bots of the scan do not talk)
	sent := map[string]int{}
	for _, pl := range everyone[1:] {
		for _, m := range pl.accepted {
			if eventOf(m) == "statement" {
				guess := slices.Sorted(slices.Values(m.Guess)) // a best move's seats, as its event lists them
				sent[fmt.Sprintf("%d %s %d %s %s %v", pl.seat, m.Verb, m.Target, m.Role, m.Result, guess)]++
			}
		}
	}
	for _, e := range everyone[0].events {
		if e.Kind == "statement" {
			k := fmt.Sprintf("%d %s %d %s %s %v", e.Actor, e.Verb, e.Target, e.Role, e.Result, e.Seats)
			if sent[k] == 0 {
				return res, fmt.Errorf("a statement no client sent: %s", js(e))
			}
			sent[k]--
		}
	}
	res.winner = everyone[0].view.Winner
	res.kinds = map[string]int{}
	for _, pl := range everyone {
		if pl.seqErr != nil {
			return res, pl.seqErr
		}
		sc := newScan(pl.seat, truth, p.options)
		for i, f := range pl.frames {
			if err := sc.frame(f, res.kinds); err != nil {
				return res, fmt.Errorf("seat %d (%s) frame %d: %v\n%s", pl.seat, sc.me(), i, err, f)
			}
		}
		res.frames += len(pl.frames)
		res.conns++
	}
	return res, nil
}

// dealOf reads the cards from a game_ended event.
func dealOf(evs []wire.Event, n int) ([]engine.Role, error) {
	for _, e := range evs {
		if e.Kind != "game_ended" {
			continue
		}
		if len(e.Roles) != n {
			return nil, fmt.Errorf("game_ended lists %d cards for %d seats", len(e.Roles), n)
		}
		truth := make([]engine.Role, n+1)
		for i, name := range e.Roles {
			r, ok := engine.ParseRole(name)
			if !ok {
				return nil, fmt.Errorf("game_ended: unknown role %q", name)
			}
			truth[i+1] = r
		}
		return truth, nil
	}
	return nil, fmt.Errorf("no game_ended event among %d", len(evs))
}

// scan follows one connection's frames in order, knowing the deal.
type scan struct {
	seat        int
	truth       []engine.Role // by seat, from 1
	reveal      string
	maniacCheck string
	out         map[int]bool   // seats this connection has seen leave
	checks      map[int]string // this seat's own check answers, by target
	ended       bool           // the connection has seen the end
	steps       int            // step starts (all public) seen so far
	floor       string         // the open floor's kind (speech, defence, tie_speech, last_words), "" for none
	speaker     int            // who holds it
	talk        []wire.TalkDay // the statements seen so far, as the view must hold them
}

func newScan(seat int, truth []engine.Role, opts map[string]string) *scan {
	s := &scan{seat: seat, truth: truth, reveal: opts["reveal_on_death"], maniacCheck: opts["maniac_check"],
		out: map[int]bool{}, checks: map[int]string{}}
	if s.reveal == "" {
		s.reveal = "none"
	}
	return s
}

func (s *scan) n() int { return len(s.truth) - 1 }

func (s *scan) me() engine.Role {
	if s.seat == 0 {
		return engine.RoleNone
	}
	return s.truth[s.seat]
}

func (s *scan) mafia() bool { return s.me().IsMafia() }

func (s *scan) checker() bool { return s.me() == engine.Don || s.me() == engine.Detective }

func nightRole(r engine.Role) bool {
	return r.IsMafia() || r == engine.Detective || r == engine.Doctor || r == engine.Maniac
}

// mayRole reports whether this connection may know seat t's card now.
func (s *scan) mayRole(t int) bool {
	return s.ended || t == s.seat || (s.mafia() && s.truth[t].IsMafia()) || (s.reveal == "role" && s.out[t])
}

// mayTeam reports whether it may know seat t's team now.
func (s *scan) mayTeam(t int) bool {
	return s.ended || t == s.seat || (s.mafia() && s.truth[t].IsMafia()) || (s.reveal != "none" && s.out[t])
}

// answer is what this seat's check of t must say.
func (s *scan) answer(t int) string {
	r := s.truth[t]
	if s.me() == engine.Don {
		if r == engine.Detective {
			return "detective"
		}
		return "not_detective"
	}
	switch {
	case r.IsMafia():
		return "mafia"
	case r == engine.Maniac && s.maniacCheck == "mafia":
		return "mafia"
	case r == engine.Maniac && s.maniacCheck == "maniac":
		return "maniac"
	}
	return "not_mafia"
}

// frame checks one frame; kinds counts the events scanned.
func (s *scan) frame(data []byte, kinds map[string]int) error {
	if err := vetFrame(data); err != nil {
		return err
	}
	var m wire.ServerMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	if m.Seat != 0 && m.Seat != s.seat {
		return fmt.Errorf("a frame for seat %d", m.Seat)
	}
	switch m.Type {
	case "pad":
		if body := strings.TrimRight(string(data), " "); body != `{"v":1,"type":"pad"}` {
			return fmt.Errorf("a pad with more than the pad: %q", data)
		}
		return nil
	case "welcome", "update", "warning", "reply", "error", "pong", "chat":
	default:
		return fmt.Errorf("unexpected frame type %q", m.Type)
	}
	if m.Type == "update" && len(m.Events) == 0 && m.Lobby == nil {
		return fmt.Errorf("an update with no event and no lobby tells the seat that something secret happened")
	}
	for i, e := range m.Events {
		kinds[e.Kind]++
		if err := s.event(e); err != nil {
			return fmt.Errorf("event %d %s: %v", i, js(e), err)
		}
	}
	if m.View != nil {
		if err := s.view(m.View); err != nil {
			return fmt.Errorf("view: %v", err)
		}
	}
	return nil
}

func (s *scan) event(e wire.Event) error {
	mine := s.seat != 0 && e.Actor == s.seat
	if stepStarts[e.Kind] || e.Kind == "game_ended" {
		s.steps++
	}
	if e.Seed != "" {
		return fmt.Errorf("LEAK: the seed")
	}
	switch e.Kind {
	case "speech", "defence", "tie_speech", "last_words":
		s.floor, s.speaker = e.Kind, e.Target
	case "night_began", "vote_began", "all_vote_began", "game_ended", "speech_skipped", "day_began":
		s.floor, s.speaker = "", 0
	case "statement":
		return s.statement(e)
	}
	if e.Result != "" && e.Kind != "checked" {
		return fmt.Errorf("a result outside a check")
	}
	switch e.Kind {
	case "game_started":
		if len(e.Roles) != s.n() {
			return fmt.Errorf("%d cards for %d seats", len(e.Roles), s.n())
		}
		for i, name := range e.Roles {
			t := i + 1
			if name == "" {
				if t == s.seat {
					return fmt.Errorf("the seat's own card is missing")
				}
				continue
			}
			if !s.mayRole(t) {
				return fmt.Errorf("LEAK: seat %d's card %s", t, name)
			}
			if name != s.truth[t].String() {
				return fmt.Errorf("seat %d's card shows %s, dealt %s", t, name, s.truth[t])
			}
		}
		if e.Role != "" || e.Team != "" {
			return fmt.Errorf("a card outside the list")
		}
		return nil
	case "player_out":
		t := e.Target
		if t < 1 || t > s.n() {
			return fmt.Errorf("seat %d is not at the table", t)
		}
		wantRole, wantTeam := "", ""
		switch s.reveal {
		case "team":
			wantTeam = s.truth[t].Team().String()
		case "role":
			wantRole, wantTeam = s.truth[t].String(), s.truth[t].Team().String()
		}
		if e.Role != wantRole || e.Team != wantTeam {
			return fmt.Errorf("LEAK or wrong reveal: seat %d (%s) leaves showing %q/%q under reveal_on_death=%s", t, s.truth[t], e.Role, e.Team, s.reveal)
		}
		s.out[t] = true
		return nil
	case "game_ended":
		for i, name := range e.Roles {
			if name != s.truth[i+1].String() {
				return fmt.Errorf("the end shows seat %d as %s", i+1, name)
			}
		}
		s.ended = true
		return nil
	}
	if e.Role != "" || e.Team != "" || len(e.Roles) > 0 {
		return fmt.Errorf("LEAK: a %s event carries cards", e.Kind)
	}
	switch e.Kind {
	case "mafia_chose":
		if !s.mafia() {
			return fmt.Errorf("LEAK: the mafia's choice reached a %s", s.me())
		}
	case "checked":
		if !mine || !s.checker() {
			return fmt.Errorf("LEAK: seat %d's check reached seat %d (%s)", e.Actor, s.seat, s.me())
		}
		if want := s.answer(e.Target); e.Result != want {
			return fmt.Errorf("the check of seat %d (%s) says %s, want %s", e.Target, s.truth[e.Target], e.Result, want)
		}
		s.checks[e.Target] = e.Result
	case "healed", "shot", "skipped", "vote_cast", "all_vote_cast":
		if !mine {
			return fmt.Errorf("LEAK: seat %d's %s reached seat %d", e.Actor, e.Kind, s.seat)
		}
	case "vote_made":
		// Public: that seat Actor has voted, never for whom or how.
		if e.Target != 0 || e.Yes != nil || e.Actor == 0 {
			return fmt.Errorf("LEAK: seat %d's vote_made tells what was voted (%+v) to seat %d", e.Actor, e, s.seat)
		}
	}
	return nil
}

// statement checks a statement event: made by the holder of the open
// floor, on it, with only the fields its verb says (a claim's card and a
// report's answer are words, not cards: the room checks they are the
// words a client sent), and keeps it for the views.
func (s *scan) statement(e wire.Event) error {
	if s.floor == "" || e.Actor != s.speaker || e.Phase != s.floor {
		return fmt.Errorf("a statement by seat %d in the %s, while the floor is seat %d's %q", e.Actor, e.Phase, s.speaker, s.floor)
	}
	if len(e.Roles) > 0 || e.Team != "" || e.Cause != "" || (e.Seats != nil && e.Verb != "best_move") {
		return fmt.Errorf("LEAK: a statement carries more than its words")
	}
	switch e.Verb {
	case "best_move":
		// The first night's victim's guess, in their last words: three
		// seats of the table, none theirs, and nothing else.
		if s.floor != "last_words" || e.Role != "" || e.Result != "" || e.Target != 0 || len(e.Seats) != 3 {
			return fmt.Errorf("a best move with the fields %s", js(e))
		}
		for i, g := range e.Seats {
			if g < 1 || g > s.n() || g == e.Actor || slices.Contains(e.Seats[:i], g) {
				return fmt.Errorf("a best move naming seat %d: %s", g, js(e))
			}
		}
	case "claim":
		if e.Role == "" || e.Target != 0 || e.Result != "" {
			return fmt.Errorf("a claim with the fields %s", js(e))
		}
	case "report":
		if e.Role != "" || e.Target == 0 || (e.Result != "mafia" && e.Result != "not_mafia" && e.Result != "maniac") {
			return fmt.Errorf("a report with the fields %s", js(e))
		}
	case "suspect", "vouch", "will_nominate":
		if e.Role != "" || e.Result != "" || e.Target == 0 {
			return fmt.Errorf("a %s with the fields %s", e.Verb, js(e))
		}
	default:
		return fmt.Errorf("a statement %q", e.Verb)
	}
	if n := len(s.talk); n == 0 || s.talk[n-1].Round != e.Round {
		s.talk = append(s.talk, wire.TalkDay{Round: e.Round})
	}
	d := &s.talk[len(s.talk)-1]
	d.Statements = append(d.Statements, wire.Statement{By: e.Actor, Phase: e.Phase, Verb: e.Verb, Target: e.Target, Role: e.Role, Result: e.Result, Guess: e.Seats})
	return nil
}

func (s *scan) view(v *wire.View) error {
	if v.Seat != s.seat {
		return fmt.Errorf("the view of seat %d", v.Seat)
	}
	if v.Phase == "ended" {
		s.ended = true
	}
	if v.Step != s.steps {
		// Counting anything but the public step starts (the log's length,
		// say) would tell a seat how many night actions there were.
		return fmt.Errorf("LEAK or a wrong step: the view says step %d after %d step starts", v.Step, s.steps)
	}
	me := s.me()
	if want := me.String(); v.Role != want {
		return fmt.Errorf("the viewer's card shows %q, dealt %q", v.Role, want)
	}
	if v.Winner != "" && !s.ended {
		return fmt.Errorf("a winner before the end")
	}
	if len(v.Seats) != s.n() {
		return fmt.Errorf("%d seats for %d", len(v.Seats), s.n())
	}
	for _, st := range v.Seats {
		t := st.Seat
		if t < 1 || t > s.n() {
			return fmt.Errorf("seat %d is not at the table", t)
		}
		if st.Role != "" {
			if !s.mayRole(t) {
				return fmt.Errorf("LEAK: seat %d's card %s", t, st.Role)
			}
			if st.Role != s.truth[t].String() {
				return fmt.Errorf("seat %d's card shows %s, dealt %s", t, st.Role, s.truth[t])
			}
		}
		if st.Team != "" {
			if !s.mayTeam(t) {
				return fmt.Errorf("LEAK: seat %d's team %s", t, st.Team)
			}
			if st.Team != s.truth[t].Team().String() {
				return fmt.Errorf("seat %d's team shows %s, dealt %s", t, st.Team, s.truth[t].Team())
			}
		}
		if st.Check != "" {
			if !s.checker() {
				return fmt.Errorf("LEAK: a check answer about seat %d reached a %s", t, me)
			}
			if s.checks[t] != st.Check {
				return fmt.Errorf("the check answer about seat %d is %q, its checked event said %q", t, st.Check, s.checks[t])
			}
		}
		if st.Choice != 0 && !s.mafia() {
			return fmt.Errorf("LEAK: seat %d's mafia choice reached a %s", t, me)
		}
	}
	if n := v.Night; n != nil {
		switch {
		case s.seat == 0:
			return fmt.Errorf("LEAK: a night reached a spectator")
		case n.Kill != 0 && !me.IsMafia(),
			n.Check != 0 && !s.checker(),
			(n.Shot != 0 || n.Shots != nil) && me != engine.Maniac,
			(n.Heal != 0 || len(n.Healed) > 0 || n.Banned != 0) && me != engine.Doctor,
			n.Skip && !nightRole(me):
			return fmt.Errorf("LEAK: a %s sees a night of another role: %s", me, js(n))
		}
	}
	l := v.Legal
	switch {
	case len(l.Kill) > 0 && !me.IsMafia(),
		len(l.Check) > 0 && !s.checker(),
		len(l.Shoot) > 0 && me != engine.Maniac,
		len(l.Heal) > 0 && me != engine.Doctor,
		l.Skip && !nightRole(me):
		return fmt.Errorf("LEAK: a %s is offered another role's moves: %s", me, js(l))
	case s.seat == 0 && (len(l.Nominate) > 0 || len(l.Vote) > 0 || l.AllVote || l.Pass || v.Voted || v.MyVote != 0 || v.MyYes):
		return fmt.Errorf("a spectator has moves or a vote: %s", js(v))
	case (l.Claim || len(l.Report) > 0 || len(l.Suspect) > 0 || len(l.Vouch) > 0 || len(l.WillNominate) > 0) &&
		(s.seat == 0 || v.Speaker != s.seat):
		return fmt.Errorf("statements are offered off the seat's own floor: %s", js(l))
	}
	// the view's talk is the statements the seat was shown, and nothing more
	if got, want := js(v.Talk), js(s.talk); got != want && !(len(v.Talk) == 0 && len(s.talk) == 0) {
		return fmt.Errorf("the view's talk is %s, the statements seen %s", got, want)
	}
	return nil
}

// The keys each object of a frame may have: every one of them is vetted
// above or public by nature. A new field fails the scan until it is vetted.
// (The lobby's pace and stand_in_ms are the table's settings, the same for
// everyone; a seat's stand_in follows its connections alone, never its
// card: room/standin.go, and room's TestAStandInShowsOthersItsFlagAndNothingOfItsCard.
// Its rules_code is its rules written short, and voice who talks at the
// table: the table's settings too, the same for everyone.)
var vettedKeys = map[string]map[string]bool{
	"frame":      keySet("v type id seat host seq events view lobby deadline paused now code message channel from name text"),
	"view":       keySet("seat players phase round step speaker winner role candidates nominated talk victims seats night voted my_vote my_yes legal rules"),
	"seat":       keySet("seat alive fouls lost_speech role team check choice vote"),
	"night":      keySet("kill check shot heal skip shots_left healed heal_banned"),
	"legal":      keySet("kill check shoot heal nominate vote skip all_vote pass claim report suspect vouch will_nominate best_move"),
	"event":      keySet("kind round phase actor target verb result cause winner role team yes fouls players seats roles ballot candidates seed rules"),
	"talk_day":   keySet("round statements"),
	"statement":  keySet("by phase verb target role result guess"), // guess: a best move's seats, as its speaker sent them
	"lobby":      keySet("table name public status players seats rules timings_ms paused pace stand_in_ms rules_code voice"),
	"lobby_seat": keySet("seat name bot taken connected stand_in"),
}

func keySet(s string) map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(s) {
		m[k] = true
	}
	return m
}

func vetKeys(what string, v any) error {
	obj, ok := v.(map[string]any)
	if !ok {
		if v == nil {
			return nil
		}
		return fmt.Errorf("%s is not an object", what)
	}
	var bad []string
	for k := range obj {
		if !vettedKeys[what][k] {
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("unvetted %s fields %v: teach the leak scan what they may show", what, bad)
	}
	return nil
}

func vetList(what string, v any) error {
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("%s is not a list", what)
	}
	for _, x := range list {
		if err := vetKeys(what, x); err != nil {
			return err
		}
	}
	return nil
}

// vetFrame refuses a frame with a field the scan does not know.
func vetFrame(data []byte) error {
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		return err
	}
	if err := vetKeys("frame", top); err != nil {
		return err
	}
	if err := vetList("event", top["events"]); err != nil {
		return err
	}
	if v, ok := top["view"].(map[string]any); ok {
		for what, x := range map[string]any{"view": v, "night": v["night"], "legal": v["legal"]} {
			if err := vetKeys(what, x); err != nil {
				return err
			}
		}
		if err := vetList("seat", v["seats"]); err != nil {
			return err
		}
		if err := vetList("talk_day", v["talk"]); err != nil {
			return err
		}
		if days, ok := v["talk"].([]any); ok {
			for _, d := range days {
				if err := vetList("statement", d.(map[string]any)["statements"]); err != nil {
					return err
				}
			}
		}
	}
	if l, ok := top["lobby"].(map[string]any); ok {
		if err := vetKeys("lobby", l); err != nil {
			return err
		}
		if err := vetList("lobby_seat", l["seats"]); err != nil {
			return err
		}
	}
	return nil
}

// TestLeakScan_CatchesPlantedLeaks shows that the scan above fails on each
// kind of leak it looks for, and passes what a seat may know.
func TestLeakScan_CatchesPlantedLeaks(t *testing.T) {
	truth := []engine.Role{engine.RoleNone, engine.Don, engine.Mafioso, engine.Detective, engine.Doctor, engine.Citizen, engine.Maniac}
	view := func(seat int, edit func(v *wire.View)) wire.View {
		v := wire.View{Seat: seat, Players: 6, Phase: "night", Round: 1, Candidates: []int{}, Victims: []int{}, Role: truth[seat].String()}
		if seat == 0 {
			v.Role = ""
		}
		for s := 1; s <= 6; s++ {
			st := wire.Seat{Seat: s, Alive: true}
			if s == seat {
				st.Role, st.Team = truth[s].String(), truth[s].Team().String()
			}
			v.Seats = append(v.Seats, st)
		}
		if edit != nil {
			edit(&v)
		}
		return v
	}
	frame := func(seat int, evs []wire.Event, v *wire.View) []byte {
		typ := "update"
		if evs == nil {
			typ = "welcome" // a view alone
		}
		return wire.Encode(wire.ServerMessage{Type: typ, Seat: seat, Seq: len(evs), Events: evs, View: v})
	}
	yes := true
	cases := []struct {
		name string
		seat int
		opts map[string]string
		data []byte
		want string // a word of the finding; "" for none
	}{
		{"own card", 5, nil, frame(5, []wire.Event{{Kind: "game_started", Players: 6, Roles: []string{"", "", "", "", "citizen", ""}}}, nil), ""},
		{"the seed", 5, nil, frame(5, []wire.Event{{Kind: "game_started", Players: 6, Seed: "42", Roles: []string{"", "", "", "", "citizen", ""}}}, nil), "LEAK"},
		{"another card at the deal", 5, nil, frame(5, []wire.Event{{Kind: "game_started", Players: 6, Roles: []string{"don", "", "", "", "citizen", ""}}}, nil), "LEAK"},
		{"the mafia know each other", 2, nil, frame(2, []wire.Event{{Kind: "game_started", Players: 6, Roles: []string{"don", "mafia", "", "", "", ""}}}, nil), ""},
		{"but not the maniac", 2, nil, frame(2, []wire.Event{{Kind: "game_started", Players: 6, Roles: []string{"don", "mafia", "", "", "", "maniac"}}}, nil), "LEAK"},
		{"a card in the view", 5, nil, frame(5, nil, ptr(view(5, func(v *wire.View) { v.Seats[0].Role = "don" }))), "LEAK"},
		{"a team in the view", 5, nil, frame(5, nil, ptr(view(5, func(v *wire.View) { v.Seats[5].Team = "maniac" }))), "LEAK"},
		{"a teammate in the mafia's view", 1, nil, frame(1, nil, ptr(view(1, func(v *wire.View) { v.Seats[1].Role, v.Seats[1].Team = "mafia", "mafia" }))), ""},
		{"the mafia's choice", 5, nil, frame(5, []wire.Event{{Kind: "mafia_chose", Actor: 1, Target: 5}}, nil), "LEAK"},
		{"the mafia's choice to the mafia", 2, nil, frame(2, []wire.Event{{Kind: "mafia_chose", Actor: 1, Target: 5}}, nil), ""},
		{"a teammate's choice in a citizen's view", 5, nil, frame(5, nil, ptr(view(5, func(v *wire.View) { v.Seats[0].Choice = 4 }))), "LEAK"},
		{"another's check", 5, nil, frame(5, []wire.Event{{Kind: "checked", Actor: 3, Target: 1, Result: "mafia"}}, nil), "LEAK"},
		{"one's own check", 3, nil, frame(3, []wire.Event{{Kind: "checked", Actor: 3, Target: 1, Result: "mafia"}}, nil), ""},
		{"a wrong check", 3, nil, frame(3, []wire.Event{{Kind: "checked", Actor: 3, Target: 6, Result: "mafia"}}, nil), "says"},
		{"a check field for a citizen", 5, nil, frame(5, nil, ptr(view(5, func(v *wire.View) { v.Seats[0].Check = "mafia" }))), "LEAK"},
		{"a heal", 5, nil, frame(5, []wire.Event{{Kind: "healed", Actor: 4, Target: 5}}, nil), "LEAK"},
		{"a shot", 5, nil, frame(5, []wire.Event{{Kind: "shot", Actor: 6, Target: 5}}, nil), "LEAK"},
		{"a skip", 5, nil, frame(5, []wire.Event{{Kind: "skipped", Actor: 4}}, nil), "LEAK"},
		{"a vote", 5, nil, frame(5, []wire.Event{{Kind: "vote_cast", Actor: 4, Target: 1}}, nil), "LEAK"},
		{"an all-vote answer", 5, nil, frame(5, []wire.Event{{Kind: "all_vote_cast", Actor: 4, Yes: &yes}}, nil), "LEAK"},
		{"who has voted", 5, nil, frame(5, []wire.Event{{Kind: "vote_made", Actor: 4, Phase: "vote"}}, nil), ""},
		{"who has voted, to a spectator", 0, nil, frame(0, []wire.Event{{Kind: "vote_made", Actor: 4, Phase: "vote"}}, nil), ""},
		{"for whom, with who has voted", 0, nil, frame(0, []wire.Event{{Kind: "vote_made", Actor: 4, Phase: "vote", Target: 1}}, nil), "LEAK"},
		{"an all-vote answer, with who has voted", 5, nil, frame(5, []wire.Event{{Kind: "vote_made", Actor: 4, Phase: "all_vote", Yes: &yes}}, nil), "LEAK"},
		{"a role on leaving under none", 5, nil, frame(5, []wire.Event{{Kind: "player_out", Target: 1, Cause: "night", Role: "don", Team: "mafia"}}, nil), "LEAK"},
		{"a team on leaving under team", 5, map[string]string{"reveal_on_death": "team"}, frame(5, []wire.Event{{Kind: "player_out", Target: 1, Cause: "night", Team: "mafia"}}, nil), ""},
		{"a role on leaving under team", 5, map[string]string{"reveal_on_death": "team"}, frame(5, []wire.Event{{Kind: "player_out", Target: 1, Cause: "night", Role: "don", Team: "mafia"}}, nil), "LEAK"},
		{"the revealed role in the view", 0, map[string]string{"reveal_on_death": "role"}, frame(0, []wire.Event{{Kind: "player_out", Target: 1, Cause: "night", Role: "don", Team: "mafia"}},
			ptr(view(0, func(v *wire.View) { v.Seats[0].Role, v.Seats[0].Team, v.Seats[0].Alive = "don", "mafia", false }))), ""},
		{"a card to a spectator", 0, nil, frame(0, nil, ptr(view(0, func(v *wire.View) { v.Seats[2].Role = "detective" }))), "LEAK"},
		{"a night to a spectator", 0, nil, frame(0, nil, ptr(view(0, func(v *wire.View) { v.Night = &wire.Night{} }))), "LEAK"},
		{"another role's moves", 5, nil, frame(5, nil, ptr(view(5, func(v *wire.View) { v.Legal.Kill = []int{3} }))), "LEAK"},
		{"a view with nothing new", 5, nil, frame(5, []wire.Event{}, ptr(view(5, nil))), "something secret"},
		{"a step that counts more than the step starts", 5, nil, frame(5, []wire.Event{{Kind: "speech", Round: 1, Target: 2}},
			ptr(view(5, func(v *wire.View) { v.Step = 2 }))), "wrong step"},
		{"a step that counts the step starts", 5, nil, frame(5, []wire.Event{{Kind: "speech", Round: 1, Target: 2}},
			ptr(view(5, func(v *wire.View) { v.Step = 1 }))), ""},
		{"an unvetted field", 5, nil, []byte(`{"v":1,"type":"update","seat":5,"events":[{"kind":"speech","round":1,"target":2,"secret":"don"}]}`), "unvetted"},
		{"a claim on one's floor", 5, nil, frame(5, []wire.Event{{Kind: "speech", Round: 1, Target: 2}, {Kind: "statement", Round: 1, Phase: "speech", Actor: 2, Verb: "claim", Role: "detective"}},
			ptr(view(5, func(v *wire.View) {
				v.Step = 1
				v.Talk = []wire.TalkDay{{Round: 1, Statements: []wire.Statement{{By: 2, Phase: "speech", Verb: "claim", Role: "detective"}}}}
			}))), ""},
		{"a statement off the floor", 5, nil, frame(5, []wire.Event{{Kind: "speech", Round: 1, Target: 2}, {Kind: "statement", Round: 1, Phase: "speech", Actor: 3, Verb: "suspect", Target: 1}}, nil), "while the floor"},
		{"a statement with a team", 5, nil, frame(5, []wire.Event{{Kind: "speech", Round: 1, Target: 2}, {Kind: "statement", Round: 1, Phase: "speech", Actor: 2, Verb: "suspect", Target: 1, Team: "mafia"}}, nil), "LEAK"},
		{"a view's talk with more than was said", 5, nil, frame(5, []wire.Event{{Kind: "speech", Round: 1, Target: 2}},
			ptr(view(5, func(v *wire.View) {
				v.Step = 1
				v.Talk = []wire.TalkDay{{Round: 1, Statements: []wire.Statement{{By: 1, Phase: "speech", Verb: "report", Target: 3, Result: "mafia"}}}}
			}))), "talk"},
		{"statements offered off the floor", 5, nil, frame(5, []wire.Event{{Kind: "speech", Round: 1, Target: 2}},
			ptr(view(5, func(v *wire.View) { v.Step = 1; v.Legal.Claim = true }))), "off the seat's own floor"},
	}
	for _, c := range cases {
		opts := c.opts
		if opts == nil {
			opts = map[string]string{}
		}
		err := newScan(c.seat, truth, opts).frame(c.data, map[string]int{})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s (seat %d): a finding where there is none: %v\n%s", c.name, c.seat, err, c.data)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s (seat %d): scan says %v, want a finding with %q\n%s", c.name, c.seat, err, c.want, c.data)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestUntilStalled_EndsAHungScanSayingWhy: the leak scan's deadline ends
// its games once no client has read a frame for its stall, with a cause
// that says so (the scan's failures then name it).
func TestUntilStalled_EndsAHungScanSayingWhy(t *testing.T) {
	var progress atomic.Int64
	progress.Add(7)
	ctx := untilStalled(t, &progress, 100*time.Millisecond)
	<-ctx.Done() // nothing moves
	if cause := context.Cause(ctx); cause == nil || !strings.Contains(cause.Error(), "after 7 frames: a game hangs") {
		t.Fatalf("the stalled scan ends with %v", cause)
	}
}
