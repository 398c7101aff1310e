package room_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
)

// The bots' pace (room/pace.go), on the fake clock: every write of events
// is recorded with the clock's time, and the clock moves in steps of fine,
// so that each bot's move is placed within its step to that precision.

// fine is the step by which the pace tests move the clock.
const fine = 10 * time.Millisecond

// slack is how late the room may see the clock when it takes a turn that
// fell due within one of the test's steps of fine.
const slack = 2 * fine

// timedStore is the fixture's real SQLite store, recording every batch of
// events the room writes with the clock's time when it wrote it.
type timedStore struct {
	room.Store
	now     func() time.Time
	mu      sync.Mutex
	batches []timedBatch
}

// timedBatch is one write of events: when, which, and the clock of the
// step they begin, if they begin one.
type timedBatch struct {
	at  time.Time
	evs []engine.Event
	clk *store.Clock
}

func (s *timedStore) record(evs []engine.Event, clk *store.Clock) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := timedBatch{at: s.now(), evs: append([]engine.Event(nil), evs...)}
	if clk != nil {
		c := *clk
		b.clk = &c
	}
	s.batches = append(s.batches, b)
}

func (s *timedStore) AppendEvents(ctx context.Context, id string, first int, evs []engine.Event) error {
	s.record(evs, nil)
	return s.Store.AppendEvents(ctx, id, first, evs)
}

func (s *timedStore) AppendEventsClock(ctx context.Context, id string, first int, evs []engine.Event, clk store.Clock) error {
	s.record(evs, &clk)
	return s.Store.AppendEventsClock(ctx, id, first, evs, clk)
}

func (s *timedStore) AppendEventsTable(ctx context.Context, t store.Table, first int, evs []engine.Event, clk *store.Clock) error {
	s.record(evs, clk)
	return s.Store.AppendEventsTable(ctx, t, first, evs, clk)
}

// timed puts the fixture's room on a timedStore (reading the room's clock
// until the caller says otherwise).
func timed(ts *timedStore) func(*room.Config) {
	return func(c *room.Config) {
		ts.Store, ts.now = c.Store, c.Clock.Now
		c.Store = ts
	}
}

// botTurn is one move of a bot, placed in its step: how long after the
// step began it came, and how long before the step's deadline.
type botTurn struct {
	at          time.Time
	phase       engine.Phase
	what        string // the move's event, or "end" for a speech the bot ended
	after, left time.Duration
	step        time.Duration // the step's length
}

func (b botTurn) String() string {
	return fmt.Sprintf("%s in a %v %s: %v after its start, %v before its deadline", b.what, b.step, b.phase, b.after, b.left)
}

// botMoves are the kinds of events a seat's own command makes.
var botMoves = map[engine.EventKind]bool{engine.EvNominated: true, engine.EvVoteCast: true, engine.EvAllVoteCast: true,
	engine.EvMafiaChose: true, engine.EvChecked: true, engine.EvHealed: true, engine.EvShot: true, engine.EvSkipped: true}

// stepOf is the phase and the speaker of the step an event begins.
func stepOf(e engine.Event) (engine.Phase, engine.Seat) {
	switch e.Kind {
	case engine.EvNightBegan:
		return engine.PhaseNight, 0
	case engine.EvLastWords:
		return engine.PhaseLastWords, e.Target
	case engine.EvSpeech:
		return engine.PhaseSpeech, e.Target
	case engine.EvDefence:
		return engine.PhaseDefence, e.Target
	case engine.EvTieSpeech:
		return engine.PhaseTieSpeech, e.Target
	case engine.EvVoteBegan:
		return e.Phase, 0
	case engine.EvAllVoteBegan:
		return engine.PhaseAllVote, 0
	}
	return engine.PhaseNone, 0
}

// turns places every move of the bots (seats for which bot is true) in its
// step, and every speech of a bot that ended (by the bot's pass) or ran
// out; ranOut lists the bots' speeches the clock ended.
func (s *timedStore) turns(tm room.Timings, bot func(engine.Seat) bool) (turns, ranOut []botTurn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var start, deadline time.Time
	phase, speaker := engine.PhaseNone, engine.Seat(0)
	place := func(what string, at time.Time) botTurn {
		return botTurn{at: at, phase: phase, what: what, after: at.Sub(start), left: deadline.Sub(at), step: tm.For(phase)}
	}
	for _, b := range s.batches {
		for _, e := range b.evs {
			if botMoves[e.Kind] && bot(e.Actor) && phase != engine.PhaseNone {
				turns = append(turns, place(e.Kind.String(), b.at))
			}
			if !e.Kind.BeginsStep() {
				continue
			}
			if speaker != 0 && bot(speaker) {
				if b.at.Before(deadline) {
					turns = append(turns, place("end", b.at))
				} else {
					ranOut = append(ranOut, place("end", b.at))
				}
			}
			phase, speaker = stepOf(e)
			if b.clk == nil || e.Kind == engine.EvGameEnded {
				phase, speaker = engine.PhaseNone, 0
				continue
			}
			start, deadline = b.at, b.clk.Deadline
		}
	}
	return turns, ranOut
}

// paceTable is a table of one person (seat 1, connected, who never moves)
// and bots, at set's pace, on a timedStore.
func paceTable(t *testing.T, set room.Settings) (*fixture, *timedStore) {
	t.Helper()
	ts := &timedStore{}
	return paceTableOn(t, set, ts), ts
}

// playFine runs the game to its end, moving the clock by fine, and fails
// after limit of clock time.
func (f *fixture) playFine(limit time.Duration) {
	f.t.Helper()
	for d := time.Duration(0); f.r.Lobby().Status != string(store.StatusEnded); d += fine {
		if d > limit {
			f.t.Fatalf("no end after %v of play", limit)
		}
		f.advance(fine)
	}
}

// tenthTimings are a tenth of the rulebook's step lengths.
var tenthTimings = map[string]int64{"speech": 6000, "defence": 3000, "tie_speech": 3000, "last_words": 6000,
	"night": 4500, "vote": 2000}

// notSeat1 says which seats are the bots of a paceTable.
func notSeat1(s engine.Seat) bool { return s != 1 }

// countMoves counts the turns by what they were.
func countMoves(turns []botTurn) map[string]int {
	n := map[string]int{}
	for _, b := range turns {
		n[b.what]++
	}
	return n
}

// TestHumanPaceBotsTakeAPersonsTimeWithinEveryStep: at a table with a
// person, bots at human pace read and speak for several seconds, vote after
// some thought and act at night after a while (each wait within its
// range, scaled to the step), and every move lands before its step's
// deadline: no bot's speech runs out.
func TestHumanPaceBotsTakeAPersonsTimeWithinEveryStep(t *testing.T) {
	for _, players := range []int{7, 9, 11} {
		t.Run(fmt.Sprintf("%d players", players), func(t *testing.T) {
			t.Parallel()
			humanPaceGame(t, players)
		})
	}
}

func humanPaceGame(t *testing.T, players int) {
	set := settings(t, players, tenthTimings)
	set.Pace = room.PaceHuman
	f, ts := paceTable(t, set)
	f.playFine(2 * time.Hour)
	turns, ranOut := ts.turns(timingsOf(tenthTimings), notSeat1)
	for _, s := range ranOut {
		t.Errorf("a bot's speech ran out: %s", s)
	}
	for _, b := range turns {
		lo, hi := room.HumanWait(b.phase, b.step)
		if b.left <= 0 {
			t.Errorf("after the deadline: %s", b)
		}
		if b.after < lo-slack {
			t.Errorf("sooner than a person (%v at least): %s", lo, b)
		}
		// A turn is one wait after the step's start, or (a night's second
		// move) two; a speech's end is its one turn.
		if b.what == "end" && b.after > hi+slack {
			t.Errorf("later than a person (%v at most): %s", hi, b)
		}
	}
	n := countMoves(turns)
	if n["end"] == 0 || n["vote_cast"] == 0 || n["mafia_chose"]+n["checked"]+n["healed"]+n["shot"] == 0 {
		t.Errorf("too few moves of each kind to say anything: %v", n)
	}
	// Of the expected order: a bot's speech lasts 0.6 to 1.8 s of its 6.
	if lo, hi := room.HumanWait(engine.PhaseSpeech, 6*time.Second); lo != 600*ms || hi != 1800*ms {
		t.Errorf("a speech of 6 s waits %v..%v, want 600ms..1.8s", lo, hi)
	}
	t.Logf("%d moves: %v", len(turns), n)
}

// TestABotsTurnIsBeforeTheDeadlineWhateverItsDelay: a bot delay longer
// than every step, at either pace, is cut to the step: the bot moves just
// before the deadline (by the step's margin), never after it.
func TestABotsTurnIsBeforeTheDeadlineWhateverItsDelay(t *testing.T) {
	for _, pace := range []string{room.PaceInstant, room.PaceHuman, ""} {
		t.Run(fmt.Sprintf("pace %q", pace), func(t *testing.T) {
			t.Parallel()
			set := settings(t, 7, fastTimings)
			set.Pace, set.BotDelay = pace, room.MaxBotDelay
			f, ts := paceTable(t, set)
			f.playFine(time.Hour)
			turns, ranOut := ts.turns(timingsOf(fastTimings), notSeat1)
			for _, s := range ranOut {
				t.Errorf("a bot's speech ran out: %s", s)
			}
			for _, b := range turns {
				margin := min(b.step/10, 2*time.Second)
				if b.left <= 0 || b.left > margin+slack {
					t.Errorf("not just before the deadline (%v before it): %s", margin, b)
				}
			}
			if n := countMoves(turns); n["end"] == 0 || n["vote_cast"] == 0 {
				t.Errorf("too few moves to say anything: %v", n)
			}
		})
	}
}

// TestInstantPaceBotsMoveAtOnce: at instant pace (and at human pace at a
// table of bots alone, where nobody waits) bots move the moment they may.
func TestInstantPaceBotsMoveAtOnce(t *testing.T) {
	for _, c := range []struct {
		name   string
		pace   string
		person bool
	}{
		{"instant pace, with a person", room.PaceInstant, true},
		{"human pace, bots alone", room.PaceHuman, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			set := settings(t, 7, fastTimings)
			set.Pace = c.pace
			var f *fixture
			ts := &timedStore{}
			bot := func(engine.Seat) bool { return true }
			if c.person {
				f, ts = paceTable(t, set)
				bot = notSeat1
			} else {
				f = newFixture(t, set, timed(ts))
				ts.now = func() time.Time { return f.clk.Now() }
				host := f.hostClient()
				host.must(hostAction("add_bots", 0))
				host.must(hostAction("start", 0))
			}
			if turns, _ := ts.turns(timingsOf(fastTimings), bot); len(turns) == 0 {
				t.Fatal("no bot moved at the start of the night")
			}
			f.playFine(time.Hour)
			turns, ranOut := ts.turns(timingsOf(fastTimings), bot)
			for _, s := range ranOut {
				t.Errorf("a bot's speech ran out: %s", s)
			}
			for _, b := range turns {
				if b.after > slack {
					t.Errorf("not at once: %s", b)
				}
			}
			if n := countMoves(turns); n["end"] == 0 || n["vote_cast"] == 0 {
				t.Errorf("too few moves to say anything: %v", n)
			}
		})
	}
}

// TestATableStoredBeforePaceResumesAsItWas: a table whose settings were
// stored before there was a pace (no "pace" in its config) resumes with its
// bots at the fixed delay it had, not at a person's pace, though a person
// sits there; nor (no "stand_in" either) does a bot ever play the seat of a
// person who never comes.
func TestATableStoredBeforePaceResumesAsItWas(t *testing.T) {
	set := settings(t, 7, tenthTimings)
	set.BotDelay = 300 * ms
	ts := &timedStore{}
	f := paceTableOn(t, set, ts, 2)
	f.ticks(2 * time.Second) // into the first night
	s := f.crash(t0.Add(2 * time.Second))
	// The config as a server before pace wrote it.
	old := struct {
		Name     string            `json:"name"`
		Public   bool              `json:"public"`
		Setup    engine.Setup      `json:"setup"`
		Options  map[string]string `json:"options"`
		TimingMS map[string]int64  `json:"timings_ms"`
		BotDelay time.Duration     `json:"bot_delay"`
	}{set.Name, set.Public, set.Setup, set.Options, set.TimingMS, set.BotDelay}
	var err error
	if s.table.Data, err = json.Marshal(old); err != nil {
		t.Fatal(err)
	}
	if err := f.db.UpdateTable(bg(), s.table); err != nil {
		t.Fatal(err)
	}
	ts.mu.Lock()
	ts.batches = nil
	ts.mu.Unlock()
	f.restart(s, t0.Add(time.Hour))
	if l := f.r.Lobby(); l.Status != string(store.StatusPlaying) {
		t.Fatalf("resumed lobby %+v", l)
	}
	if l := f.r.Lobby(); l.Pace != "" || l.StandInMS != 0 {
		t.Errorf("the resumed lobby says pace %q, stand-ins after %d ms", l.Pace, l.StandInMS)
	}
	f.attach(f.tokens[1]) // the person is back: the game goes on
	f.playFine(2 * time.Hour)
	bots := func(s engine.Seat) bool { return s > 2 }
	turns, ranOut := ts.turns(timingsOf(tenthTimings), bots)
	for _, s := range ranOut {
		t.Errorf("a bot's speech ran out: %s", s)
	}
	if moves, _ := ts.turns(timingsOf(tenthTimings), func(s engine.Seat) bool { return s == 2 }); len(moves) > 0 {
		t.Errorf("someone played seat 2, whose person never came: %s", moves[0])
	}
	for _, b := range turns {
		// Each turn one bot delay after the step began, or (a night's
		// second move) two.
		if b.after < set.BotDelay || (b.after > set.BotDelay+slack && b.what == "end") {
			t.Errorf("not at the bot delay of %v: %s", set.BotDelay, b)
		}
	}
	if n := countMoves(turns); n["end"] == 0 {
		t.Errorf("no bot spoke after the restart: %v", n)
	}
}

// paceTableOn is paceTable on a given timedStore, which reads the
// fixture's clock (a restart's new one too); the seats away are taken by
// people who never connect.
func paceTableOn(t *testing.T, set room.Settings, ts *timedStore, away ...int) *fixture {
	t.Helper()
	f := newFixture(t, set, timed(ts))
	ts.now = func() time.Time { return f.clk.Now() }
	host := f.hostClient()
	_, tok := f.join("Nino", 1)
	f.attach(tok)
	for _, s := range away {
		f.join(fmt.Sprintf("away %d", s), s)
	}
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	return f
}

// TestAPaceThatIsNoneOfThePacesIsRefused: a table is made at instant or
// human pace (or none: instant), nothing else.
func TestAPaceThatIsNoneOfThePacesIsRefused(t *testing.T) {
	for _, pace := range []string{"slow", "Human", " human"} {
		set := settings(t, 7, nil)
		set.Pace = pace
		_, _, err := set.Check()
		if e, ok := err.(*engine.Error); !ok || e.Code != room.CodeBadPace || e.Value != pace {
			t.Errorf("pace %q: %v, want bad_pace naming it", pace, err)
		}
	}
	for _, pace := range []string{"", room.PaceInstant, room.PaceHuman} {
		set := settings(t, 7, nil)
		set.Pace = pace
		if _, _, err := set.Check(); err != nil {
			t.Errorf("pace %q: %v", pace, err)
		}
	}
}
