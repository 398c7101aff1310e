package room_test

import (
	"testing"
	"time"

	"mafia/engine"
	"mafia/room"
)

const ms = time.Millisecond

// timingsOf returns the timings a table's TimingMS gives (docs/rules.md's
// defaults for the steps it does not name).
func timingsOf(set map[string]int64) room.Timings {
	t, err := room.TimingsFromMillis(set)
	if err != nil {
		panic(err)
	}
	return t
}

// checkStepStart checks the frame that began the step a client is in: its
// deadline is the server's time now plus the step's length, in absolute Unix
// ms, and its phase is want.
func checkStepStart(t *testing.T, f *fixture, c *client, tm room.Timings, want string) {
	t.Helper()
	if c.phase() != want {
		t.Fatalf("seat %d is in %q, want %q", c.seat, c.phase(), want)
	}
	p, _ := engine.ParsePhase(want)
	last := c.frames[len(c.frames)-1].msg
	if last.Deadline != f.nowMS()+tm.For(p).Milliseconds() {
		t.Errorf("%s began at %d with deadline %d, want %d (+%v)", want, f.nowMS(), last.Deadline,
			f.nowMS()+tm.For(p).Milliseconds(), tm.For(p))
	}
	if last.Now != f.nowMS() {
		t.Errorf("frame says now=%d, the clock says %d", last.Now, f.nowMS())
	}
}

// runOut lets the current step, which began just now and lasts d, run out:
// until 1 ms before its deadline nothing but the warning reaches watch and
// nothing is stored; at the deadline the step ends. It returns the frames
// watch got when it ended.
func runOut(t *testing.T, f *fixture, watch *client, d time.Duration) []frame {
	t.Helper()
	watch.drain()
	before := len(f.events())
	deadline := f.clk.Now().Add(d).UnixMilli()
	if got := watch.lastDeadline(); got != deadline {
		t.Errorf("the step's frames carry deadline %d, want now+%v = %d", got, d, deadline)
	}
	quiet := func(what string) {
		t.Helper()
		if frs := watch.drain(); len(frs) != 0 {
			t.Fatalf("%s: got %d frames before the deadline: %s", what, len(frs), frs[0].raw)
		}
		if n := len(f.events()); n != before {
			t.Fatalf("%s: the log grew from %d to %d events before the deadline", what, before, n)
		}
	}
	if d > room.WarnBefore {
		f.advance(d - room.WarnBefore - ms)
		quiet("before the warning")
		f.advance(ms)
		frs := watch.drain()
		if len(frs) != 1 || frs[0].msg.Type != "warning" {
			t.Fatalf("at deadline-%v: got %d frames, want one warning (%q)", room.WarnBefore, len(frs), kinds(frs))
		}
		if frs[0].msg.Deadline != deadline || frs[0].msg.Now != f.nowMS() {
			t.Errorf("warning says deadline %d now %d, want %d and %d", frs[0].msg.Deadline, frs[0].msg.Now, deadline, f.nowMS())
		}
		if n := len(f.events()); n != before {
			t.Fatalf("the warning stored events")
		}
	}
	f.advance(min(d, room.WarnBefore) - ms)
	quiet("1 ms before the deadline")
	f.advance(ms)
	if n := len(f.events()); n == before {
		t.Fatalf("the deadline passed and the step did not end")
	}
	frs := watch.drain()
	if len(frs) == 0 {
		t.Fatal("the step ended and nobody heard of it")
	}
	return frs
}

// storedSince returns the store's events from index from.
func storedSince(f *fixture, from int) []engine.Event { return f.events()[from:] }

func TestStepsEndOnTheClockAndWhoeverDidNothingPassed(t *testing.T) {
	set := settings(t, 5, nil) // docs/rules.md's default timings
	tm := timingsOf(nil)
	f := newFixture(t, set, nil)
	cs := f.fillWithPeople(5)
	watch := f.attach("")
	host := f.hostClient()
	host.must(hostAction("start", 0))
	watch.drain()
	checkStepStart(t, f, watch, tm, "night")
	roles := f.truth()

	// Night 1: nobody acts; it ends after the night's length with no victim.
	n := len(f.events())
	runOut(t, f, watch, tm.Night)
	got := storedSince(f, n)
	if got[0].Kind != engine.EvNightEnded || got[0].Set != 0 {
		t.Fatalf("night 1 ended with %+v, want a night without victims", got[0])
	}
	checkStepStart(t, f, watch, tm, "speech")
	if watch.view.Speaker != 1 {
		t.Fatalf("day 1 opens with seat %d", watch.view.Speaker)
	}

	// Speech 1: seat 1 says nothing; when the minute is up seat 2 speaks.
	n = len(f.events())
	runOut(t, f, watch, tm.Speech)
	for _, e := range storedSince(f, n) {
		if e.Kind == engine.EvNominated {
			t.Fatalf("a silent speaker nominated: %+v", e)
		}
	}
	checkStepStart(t, f, watch, tm, "speech")
	if watch.view.Speaker != 2 {
		t.Fatalf("after seat 1's time the speaker is %d", watch.view.Speaker)
	}

	// Two town seats are nominated by seats 2 and 3 (not the Don: the game
	// must go on after the vote).
	var town []int
	for s := 1; s <= 5; s++ {
		if !roles[s].IsMafia() {
			town = append(town, s)
		}
	}
	var x, y int
	for _, s := range town {
		if x == 0 && s != 2 {
			x = s
		} else if y == 0 && s != 3 && s != x {
			y = s
		}
	}
	if x == 0 || y == 0 {
		t.Fatalf("no two town seats to nominate in %v", roles)
	}
	cs[2].must(command("nominate", x))
	runOut(t, f, watch, tm.Speech)
	checkStepStart(t, f, watch, tm, "speech")
	cs[3].must(command("nominate", y))
	cs[3].must(command("pass", 0)) // a speaker may end early
	watch.drain()
	checkStepStart(t, f, watch, tm, "speech")
	if watch.view.Speaker != 4 {
		t.Fatalf("after seat 3 passed the speaker is %d", watch.view.Speaker)
	}
	runOut(t, f, watch, tm.Speech)
	runOut(t, f, watch, tm.Speech)
	checkStepStart(t, f, watch, tm, "defence")
	if watch.view.Speaker != x {
		t.Fatalf("the first defence is seat %d's, want %d", watch.view.Speaker, x)
	}
	runOut(t, f, watch, tm.Defence)
	checkStepStart(t, f, watch, tm, "defence")
	runOut(t, f, watch, tm.Defence)
	checkStepStart(t, f, watch, tm, "vote")

	// The vote: seat 1 votes for x; whoever has not voted when time runs out
	// is counted for the last candidate, y, who leaves.
	cs[1].must(command("vote", x))
	n = len(f.events())
	runOut(t, f, watch, tm.Vote)
	got = storedSince(f, n)
	if got[0].Kind != engine.EvVoteClosed {
		t.Fatalf("the vote ended with %v", got[0].Kind)
	}
	for s := 1; s <= 5; s++ {
		want := y
		if s == 1 {
			want = x
		}
		if c := int(got[0].PerSeat[s]); c != want {
			t.Errorf("seat %d counted for %d, want %d", s, c, want)
		}
	}
	if got[1].Kind != engine.EvPlayerOut || int(got[1].Target) != y {
		t.Fatalf("after the vote: %+v, want seat %d out", got[1], y)
	}
	checkStepStart(t, f, watch, tm, "last_words")
	runOut(t, f, watch, tm.LastWords)
	checkStepStart(t, f, watch, tm, "night")
	runOut(t, f, watch, tm.Night)
	checkStepStart(t, f, watch, tm, "speech")
}

func TestEveryNightLastsTheNightTimingWhoeverActs(t *testing.T) {
	timings := map[string]int64{"speech": 1000, "defence": 500, "tie_speech": 500, "last_words": 500,
		"night": 3000, "vote": 500}
	tm := timingsOf(timings)

	// nightEndsOnTime holds the clock until 1 ms before the night's end,
	// then checks it ends exactly then.
	nightEndsOnTime := func(t *testing.T, f *fixture, watch *client) {
		t.Helper()
		watch.drain()
		if watch.phase() != "night" {
			t.Fatalf("not a night: %q", watch.phase())
		}
		n := len(f.events())
		f.advance(tm.Night - ms)
		for _, e := range storedSince(f, n) {
			if e.Kind == engine.EvNightEnded {
				t.Fatal("the night ended early")
			}
		}
		if frs := watch.drain(); len(frs) != 0 {
			t.Fatalf("the watcher heard something during the night: %s", frs[0].raw)
		}
		f.advance(ms)
		ended := false
		for _, e := range storedSince(f, n) {
			ended = ended || e.Kind == engine.EvNightEnded
		}
		if !ended {
			t.Fatal("the night did not end on time")
		}
		watch.drain()
	}

	t.Run("people who all act at once, then a night without the detective", func(t *testing.T) {
		f := newFixture(t, settings(t, 7, timings), nil)
		cs := f.fillWithPeople(7)
		watch := f.attach("")
		f.hostClient().must(hostAction("start", 0))
		roles := f.truth()
		det := seatsOf(roles, is(engine.Detective))[0]
		doc := seatsOf(roles, is(engine.Doctor))[0]
		// Every night role acts at once: the mafia kill the detective, the
		// doctor heals himself, the Don and the detective check someone.
		for _, s := range seatsOf(roles, engine.Role.IsMafia) {
			cs[s].must(command("kill", det))
		}
		don := seatsOf(roles, is(engine.Don))[0]
		cs[don].must(command("check", det))
		cs[det].must(command("check", don))
		cs[doc].must(command("heal", doc))
		nightEndsOnTime(t, f, watch)
		if watch.view.Seats[det-1].Alive {
			t.Fatal("the detective survived the mafia's kill")
		}
		// Day 1: last words and speeches are passed, nobody is nominated.
		for i := 0; i < 20 && watch.phase() != "night"; i++ {
			cs[watch.view.Speaker].must(command("pass", 0))
			watch.drain()
		}
		// Night 2, without a detective, nobody acting: the same length.
		nightEndsOnTime(t, f, watch)
	})

	t.Run("an acquaintance night where nobody may act", func(t *testing.T) {
		set := settings(t, 7, timings)
		set.Options = map[string]string{"first_night": "meeting"}
		f := newFixture(t, set, nil)
		f.fillWithPeople(7)
		watch := f.attach("")
		f.hostClient().must(hostAction("start", 0))
		nightEndsOnTime(t, f, watch)
	})

	t.Run("bots, who act the moment the night begins", func(t *testing.T) {
		f := newFixture(t, settings(t, 7, timings), nil)
		host := f.hostClient()
		host.must(hostAction("add_bots", 0))
		host.must(hostAction("start", 0))
		if len(f.events()) <= 2 {
			t.Fatal("the bots did not act at once")
		}
		nightEndsOnTime(t, f, host)
	})
}

func TestVoteClosesOnceEveryLivingPlayerHasVotedButNotBefore(t *testing.T) {
	tm := timingsOf(fastTimings)
	f := newFixture(t, settings(t, 5, fastTimings), nil)
	cs := f.fillWithPeople(5)
	watch := f.attach("")
	f.hostClient().must(hostAction("start", 0))
	f.advance(tm.Night) // nobody acted: nobody died
	watch.drain()
	cs[1].must(command("nominate", 2))
	cs[1].must(command("pass", 0))
	cs[2].must(command("nominate", 3))
	for i := 0; i < 10 && watch.phase() != "vote"; i++ {
		watch.drain()
		cs[watch.view.Speaker].must(command("pass", 0))
		watch.drain()
	}
	checkStepStart(t, f, watch, tm, "vote")
	n := len(f.events())
	for s := 1; s <= 4; s++ {
		cs[s].must(command("vote", 2))
	}
	f.advance(tm.Vote - ms)
	for _, e := range storedSince(f, n) {
		if e.Kind != engine.EvVoteCast && e.Kind != engine.EvVoteMade {
			t.Fatalf("with one voter left the vote went on to %v", e.Kind)
		}
	}
	cs[5].must(command("vote", 3))
	got := storedSince(f, n) // each vote is a vote_made and a vote_cast
	if len(got) < 11 || got[10].Kind != engine.EvVoteClosed {
		t.Fatalf("the last vote did not close the vote at once: %v", got)
	}
	if got := int(got[10].PerSeat[5]); got != 3 {
		t.Errorf("seat 5's vote counted for %d", got)
	}
}

func TestWarningComesWarnBeforeTheDeadlineToEveryone(t *testing.T) {
	tm := timingsOf(nil)
	f := newFixture(t, settings(t, 5, nil), nil)
	cs := f.fillWithPeople(5)
	watch := f.attach("")
	host := f.hostClient()
	host.must(hostAction("start", 0))
	all := append([]*client{watch, host}, cs[1:]...)
	drainAll(all...)
	deadline := t0.Add(tm.Night).UnixMilli()
	for _, c := range all {
		if got := c.lastDeadline(); got != deadline {
			t.Errorf("seat %d: the night's deadline is %d, want t0+45s = %d", c.seat, got, deadline)
		}
	}

	// A client who connects in the middle of the night is told the same
	// absolute deadline.
	f.advance(20 * time.Second)
	late := f.attach("")
	if w := late.frames[0].msg; w.Type != "welcome" || w.Deadline != deadline || w.Now != f.nowMS() {
		t.Errorf("late welcome: type %q deadline %d now %d, want deadline %d now %d", w.Type, w.Deadline, w.Now, deadline, f.nowMS())
	}
	all = append(all, late)

	f.advance(tm.Night - room.WarnBefore - 20*time.Second - ms)
	for _, c := range all {
		if frs := c.drain(); len(frs) != 0 {
			t.Fatalf("seat %d: a frame before the warning: %s", c.seat, frs[0].raw)
		}
	}
	f.advance(ms)
	for _, c := range all {
		frs := c.drain()
		if len(frs) != 1 || frs[0].msg.Type != "warning" {
			t.Fatalf("seat %d: at deadline-10s got %d frames, want a warning", c.seat, len(frs))
		}
		if frs[0].msg.Deadline != deadline {
			t.Errorf("seat %d: warning deadline %d, want %d", c.seat, frs[0].msg.Deadline, deadline)
		}
		if len(frs[0].msg.Events) != 0 || frs[0].msg.View != nil {
			t.Errorf("seat %d: the warning carries more than the time: %s", c.seat, frs[0].raw)
		}
	}
	f.advance(room.WarnBefore)
	for _, c := range all {
		c.drain()
	}
	checkStepStart(t, f, watch, tm, "speech")
}

func TestNoWarningForAStepOfWarnBeforeOrLess(t *testing.T) {
	timings := map[string]int64{"night": room.WarnBefore.Milliseconds()}
	f := newFixture(t, settings(t, 5, timings), nil)
	f.fillWithPeople(5)
	watch := f.attach("")
	f.hostClient().must(hostAction("start", 0))
	watch.drain()
	f.advance(room.WarnBefore - ms)
	if frs := watch.drain(); len(frs) != 0 {
		t.Fatalf("a %v night sent %s", room.WarnBefore, frs[0].raw)
	}
	f.advance(ms)
	frs := watch.drain()
	if len(frs) == 0 || !hasKind(frs, "night_ended") {
		t.Fatal("the night did not end")
	}
	for _, fr := range frs {
		if fr.msg.Type == "warning" {
			t.Fatalf("a warning for a step of %v", room.WarnBefore)
		}
	}
}

func TestPauseKeepsTheTimeLeftAndRefusesCommands(t *testing.T) {
	tm := timingsOf(nil)
	f := newFixture(t, settings(t, 5, nil), nil)
	cs := f.fillWithPeople(5)
	watch := f.attach("")
	host := f.hostClient()
	host.must(hostAction("start", 0))
	roles := f.truth()
	f.advance(20 * time.Second)
	watch.drain()
	host.must(hostAction("pause", 0))
	frs := watch.drain()
	if len(frs) != 1 || !frs[0].msg.Paused || frs[0].msg.Deadline != 0 {
		t.Fatalf("pausing sent %d frames, want one saying paused without a deadline", len(frs))
	}
	clk, err := f.db.Clock(bg(), f.r.ID())
	if err != nil {
		t.Fatal(err)
	}
	if !clk.Paused || clk.Left != 25*time.Second {
		t.Errorf("stored clock %+v, want paused with 25s left", clk)
	}
	if f.r.Lobby().Paused != true {
		t.Error("the lobby does not say paused")
	}
	host.must(hostAction("pause", 0)) // pausing twice changes nothing

	// Paused, commands are refused and the clock stands still.
	n := len(f.events())
	doc := seatsOf(roles, is(engine.Doctor))[0]
	if err := cs[doc].send(command("heal", doc)); codeOf(err) != room.CodePaused {
		t.Errorf("a command while paused: %v, want %q", err, room.CodePaused)
	}
	f.advance(time.Hour)
	if got := len(f.events()); got != n {
		t.Fatalf("while paused the log grew from %d to %d", n, got)
	}
	if frs := watch.drain(); len(frs) != 0 {
		t.Fatalf("while paused: %s", frs[0].raw)
	}

	// Resumed, the night has the 25 s it had left.
	host.must(hostAction("resume", 0))
	frs = watch.drain()
	want := f.nowMS() + 25_000
	if len(frs) != 1 || frs[0].msg.Paused || frs[0].msg.Deadline != want {
		t.Fatalf("resuming: %d frames, last deadline %d, want %d", len(frs), watch.lastDeadline(), want)
	}
	host.must(hostAction("resume", 0)) // resuming a running clock changes nothing
	cs[doc].must(command("heal", doc))
	watch.drain()
	runOut(t, f, watch, 25*time.Second)
	checkStepStart(t, f, watch, tm, "speech")
}

func TestBotsTakeTheirTurnOnlyAfterTheBotDelay(t *testing.T) {
	set := settings(t, 7, fastTimings)
	set.BotDelay = 300 * ms
	f := newFixture(t, set, nil)
	host := f.hostClient()
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	if n := len(f.events()); n != 2 {
		t.Fatalf("bots acted at once: %d events", n)
	}
	f.advance(set.BotDelay - tick)
	if n := len(f.events()); n != 2 {
		t.Fatalf("bots acted before their delay: %d events", n)
	}
	f.advance(tick)
	if n := len(f.events()); n == 2 {
		t.Fatal("no bot acted after the delay")
	}
	// The night runs out; the first to speak (last words or a speech), a
	// bot, ends its turn after the delay, not before.
	f.ticks(timingsOf(fastTimings).Night - set.BotDelay)
	host.drain()
	phase, speaker := host.phase(), host.view.Speaker
	if speaker == 0 {
		t.Fatalf("after the night: %q without a speaker", phase)
	}
	f.ticks(set.BotDelay - tick)
	host.drain()
	if host.view.Speaker != speaker || host.phase() != phase {
		t.Fatalf("bot %d spoke for less than the bot delay", speaker)
	}
	f.advance(tick)
	host.drain()
	if host.view.Speaker == speaker && host.phase() == phase {
		t.Fatalf("bot %d did not end its turn after the bot delay", speaker)
	}
}

func TestBotsStillActAfterAPauseInTheirStep(t *testing.T) {
	set := settings(t, 7, fastTimings)
	set.BotDelay = 300 * ms
	f := newFixture(t, set, nil)
	host := f.hostClient()
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	f.ticks(timingsOf(fastTimings).Night)
	host.drain()
	phase, speaker := host.phase(), host.view.Speaker
	if speaker == 0 {
		t.Fatalf("after the night: %q without a speaker", phase)
	}
	f.advance(tick)
	host.must(hostAction("pause", 0))
	f.advance(time.Minute)
	host.must(hostAction("resume", 0))
	f.ticks(set.BotDelay)
	host.drain()
	if host.view.Speaker == speaker && host.phase() == phase {
		t.Fatalf("bot %d did not take its turn within the bot delay after the pause", speaker)
	}
}
