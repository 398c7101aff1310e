package room_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
)

// stopped is a stored game taken down in the middle of a step, as a crash
// would leave it.
type stopped struct {
	table store.Table
	seats []store.Seat
	log   []engine.Event
	clock store.Clock
	alive time.Time // the server's last heartbeat
}

// crash stops the fixture's room after recording a heartbeat at alive, and
// reads back what a restarted server would.
func (f *fixture) crash(alive time.Time) stopped {
	f.t.Helper()
	if err := f.db.Heartbeat(bg(), alive); err != nil {
		f.t.Fatal(err)
	}
	f.r.Stop()
	var s stopped
	s.table, s.seats = f.storedTable()
	s.log = f.events()
	var err error
	if s.clock, err = f.db.Clock(bg(), s.table.ID); err != nil {
		f.t.Fatal(err)
	}
	if s.alive, err = f.db.LastHeartbeat(bg()); err != nil {
		f.t.Fatal(err)
	}
	if !s.alive.Equal(alive) {
		f.t.Fatalf("last heartbeat %v, want %v", s.alive, alive)
	}
	return s
}

// restart resumes the stopped game on a new clock set to at.
func (f *fixture) restart(s stopped, at time.Time) {
	f.t.Helper()
	f.clk = room.NewFakeClock(at)
	f.cfg.Clock = f.clk
	r, err := room.Resume(f.cfg, s.table, s.seats, s.log, s.clock, s.alive)
	if err != nil {
		f.t.Fatal(err)
	}
	f.r = r
	f.settleClock()
	f.sync()
}

// botNightInProgress starts an all-bot game whose night lasts 3 s and stops
// it 1.8 s into the night, the server's last heartbeat 1 s in: 2 s are left.
func botNightInProgress(t *testing.T) (*fixture, stopped) {
	timings := map[string]int64{"speech": 1000, "defence": 500, "tie_speech": 500, "last_words": 500,
		"night": 3000, "vote": 500}
	f := newFixture(t, settings(t, 7, timings), nil)
	host := f.hostClient()
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	f.ticks(1800 * time.Millisecond)
	s := f.crash(t0.Add(time.Second))
	if s.clock.Step != 1 || !s.clock.Deadline.Equal(t0.Add(3*time.Second)) || s.clock.Paused {
		t.Fatalf("stored clock %+v, want step 1 ending at t0+3s", s.clock)
	}
	if s.table.Status != store.StatusPlaying {
		t.Fatalf("stored status %q", s.table.Status)
	}
	return f, s
}

func TestResumedGameGoesOnWithTheTimeThatWasLeftAndFinishes(t *testing.T) {
	f, s := botNightInProgress(t)
	restartAt := t0.Add(time.Hour)
	f.restart(s, restartAt)

	// The night had 3s-1s = 2s left when the server was last alive.
	f.ticks(2*time.Second - tick)
	if n := len(f.events()); n != len(s.log) {
		t.Fatalf("the resumed night ended early: %d events, had %d", n, len(s.log))
	}
	f.advance(tick)
	got := f.events()
	if len(got) == len(s.log) || got[len(s.log)].Kind != engine.EvNightEnded {
		t.Fatal("the resumed night did not end when its time was up")
	}
	for i, e := range s.log {
		if got[i] != e {
			t.Fatalf("event %d changed across the restart", i)
		}
	}
	clk, err := f.db.Clock(bg(), s.table.ID)
	if err != nil {
		t.Fatal(err)
	}
	if clk.Step <= s.clock.Step || clk.Deadline.Before(restartAt) {
		t.Errorf("the new step's clock %+v is not on the new server's time", clk)
	}

	// Attached after the room has sent something (see
	// TestAttachRightAfterResumeGetsAWelcome), a spectator is sent the whole
	// public log, and the game plays on to its end.
	watch := f.attach("")
	var evs []json.RawMessage
	for _, fr := range watch.frames {
		evs = append(evs, fr.events...)
	}
	if i, ok := sameEvents(evs, shareOf(t, f.events(), 0)); !ok {
		t.Errorf("the welcome after a restart differs from the public log at %d", i)
	}
	f.runToEnd(watch, time.Hour)
	f.checkEnded(watch)
}

func TestAttachRightAfterResumeGetsAWelcome(t *testing.T) {
	f, s := botNightInProgress(t)
	f.restart(s, t0.Add(time.Hour))
	watch := f.attach("")
	w := watch.frames[0]
	if w.msg.Type != "welcome" {
		t.Fatalf("first frame %s", w.raw)
	}
	if want := f.nowMS() + 2000; w.msg.Deadline != want {
		t.Errorf("welcome deadline %d, want now+2s = %d", w.msg.Deadline, want)
	}
	if i, ok := sameEvents(w.events, shareOf(t, s.log, 0)); !ok {
		t.Errorf("the welcome's events differ from the public log at %d", i)
	}
	if w.msg.Seq != len(w.events) {
		t.Errorf("welcome seq %d with %d events", w.msg.Seq, len(w.events))
	}
}

func TestResumedPausedGameStaysPausedWithItsTimeLeft(t *testing.T) {
	f := newFixture(t, settings(t, 5, nil), nil)
	f.fillWithPeople(5)
	host := f.hostClient()
	host.must(hostAction("start", 0))
	f.advance(20 * time.Second)
	host.must(hostAction("pause", 0))
	s := f.crash(t0.Add(30 * time.Second))
	if !s.clock.Paused || s.clock.Left != 25*time.Second {
		t.Fatalf("stored clock %+v, want paused with 25s left", s.clock)
	}
	f.restart(s, t0.Add(time.Hour))
	if !f.r.Lobby().Paused {
		t.Error("the resumed table is not paused")
	}
	host = f.hostClient()
	if w := host.frames[0].msg; !w.Paused || w.Deadline != 0 {
		t.Errorf("welcome: paused %v deadline %d", w.Paused, w.Deadline)
	}
	f.advance(time.Hour)
	if n := len(f.events()); n != len(s.log) {
		t.Fatal("the paused game moved")
	}
	host.must(hostAction("resume", 0))
	if d := host.lastDeadline(); d != f.nowMS()+25_000 {
		t.Errorf("resumed with deadline %d, want now+25s = %d", d, f.nowMS()+25_000)
	}
	f.advance(25*time.Second - ms)
	if n := len(f.events()); n != len(s.log) {
		t.Fatal("the night ended early")
	}
	f.advance(ms)
	if got := f.events(); len(got) == len(s.log) || got[len(s.log)].Kind != engine.EvNightEnded {
		t.Fatal("the night did not end when its time was up")
	}
}

// Resume of an ended game keeps it ended and shows its result.
func TestResumedEndedGameShowsItsResult(t *testing.T) {
	f := newFixture(t, settings(t, 7, fastTimings), nil)
	host := f.hostClient()
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	f.runToEnd(host, time.Hour)
	s := f.crash(f.clk.Now())
	f.restart(s, t0.Add(time.Hour))
	watch := f.attach("")
	if !watch.ended() || watch.view.Winner != s.table.Winner {
		t.Fatalf("resumed ended game shows %q winner %q, want winner %q", watch.phase(), watch.view.Winner, s.table.Winner)
	}
	if !bytes.Equal(mustJSON(t, f.events()), mustJSON(t, s.log)) {
		t.Fatal("the log changed")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestResumedTableKeepsItsBotsLevel: a table of smart bots stopped in its
// first day is resumed with smart bots (the level is stored with the
// table's settings), each shown the game so far, and plays to its end.
func TestResumedTableKeepsItsBotsLevel(t *testing.T) {
	timings := map[string]int64{"speech": 1000, "defence": 500, "tie_speech": 500, "last_words": 500,
		"night": 3000, "vote": 500}
	set := settings(t, 9, timings)
	set.Bots = "smart"
	f := newFixture(t, set, nil)
	host := f.hostClient()
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	f.ticks(5 * time.Second) // past the first night, into the day
	s := f.crash(t0.Add(5 * time.Second))
	if s.table.Status != store.StatusPlaying {
		t.Fatalf("stored status %q", s.table.Status)
	}
	f.restart(s, t0.Add(time.Hour))
	if l := f.r.Lobby(); l.Bots != "smart" {
		t.Errorf("the resumed lobby says the bots are %q, want smart", l.Bots)
	}
	watch := f.attach("")
	f.runToEnd(watch, time.Hour)
	f.checkEnded(watch)
}
