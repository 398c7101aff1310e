package room_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"mafia/engine"
	"mafia/rng"
	"mafia/room"
	"mafia/wire"
)

// secrecy checks every frame one connection receives against what its seat
// may know (docs/rules.md: the mafia know each other, checks answer only the
// checker, roles of the dead as reveal_on_death says, nothing else), and
// that at night nothing reaches it but its own actions and, for the mafia,
// its teammates' choices.
type secrecy struct {
	t       *testing.T
	roles   []engine.Role // the deal, from the store
	reveal  string        // reveal_on_death
	seat    int
	night   bool // between the night's beginning and its end, as this seat heard
	checked int  // frames checked so far
	// nightFrames counts the frames received during nights.
	nightFrames int
}

func (s *secrecy) mafia(seat int) bool { return seat > 0 && s.roles[seat].IsMafia() }

// checkAll checks the frames c received since the last call.
func (s *secrecy) checkAll(c *client) {
	for ; s.checked < len(c.frames); s.checked++ {
		s.check(c.frames[s.checked])
	}
}

func (s *secrecy) check(fr frame) {
	t := s.t
	t.Helper()
	m := fr.msg
	ends := false
	for _, e := range m.Events {
		ends = ends || e.Kind == "game_ended"
	}
	over := ends || (m.View != nil && m.View.Phase == "ended")

	// At night: only the seat's own actions, and the mafia's choices for a
	// mafioso; the morning's frame ends the night.
	if s.night && !over {
		morning := false
		for _, e := range m.Events {
			morning = morning || e.Kind == "night_ended"
		}
		// A lobby frame (seats, status, pause) says nothing about who acts;
		// the start of the game sends one.
		lobbyOnly := m.Type == "update" && m.Lobby != nil && len(m.Events) == 0 && m.View == nil
		if !morning && !lobbyOnly {
			s.nightFrames++
			if m.Type != "update" || len(m.Events) == 0 {
				t.Errorf("seat %d got a %q frame at night: %s", s.seat, m.Type, fr.raw)
			}
			for _, e := range m.Events {
				own := e.Actor == s.seat && s.seat != 0
				switch {
				case e.Kind == "mafia_chose" && s.mafia(s.seat):
				case (e.Kind == "checked" || e.Kind == "healed" || e.Kind == "shot" || e.Kind == "skipped" ||
					e.Kind == "mafia_chose") && own:
				default:
					t.Errorf("seat %d (%v) heard at night of %s", s.seat, s.role(), fr.raw)
				}
			}
		}
	}
	for _, e := range m.Events {
		switch e.Kind {
		case "night_began":
			s.night = true
		case "night_ended", "game_ended":
			s.night = false
		}
	}
	if over {
		return
	}
	for _, e := range m.Events {
		s.checkEvent(e, fr)
	}
	if m.View != nil {
		s.checkView(m.View, fr)
	}
}

func (s *secrecy) role() engine.Role {
	if s.seat == 0 {
		return engine.RoleNone
	}
	return s.roles[s.seat]
}

// mayKnowRole reports whether the seat may know seat o's role (alive tells
// whether o is alive in what was sent).
func (s *secrecy) mayKnowRole(o int, alive bool) bool {
	return o == s.seat || (s.mafia(s.seat) && s.mafia(o)) || (!alive && s.reveal == "role")
}

func (s *secrecy) mayKnowTeam(o int, alive bool) bool {
	return s.mayKnowRole(o, alive) || (!alive && s.reveal == "team")
}

func (s *secrecy) checkEvent(e wire.Event, fr frame) {
	t := s.t
	t.Helper()
	leak := func(what string) {
		t.Helper()
		t.Errorf("seat %d (%v): %s: %s", s.seat, s.role(), what, fr.raw)
	}
	own := e.Actor == s.seat && s.seat != 0
	switch e.Kind {
	case "game_started":
		if e.Seed != "" {
			leak("the deal's seed was sent")
		}
		for i, r := range e.Roles {
			o := i + 1
			if r == "" {
				if o == s.seat || (s.mafia(s.seat) && s.mafia(o)) {
					leak(fmt.Sprintf("seat %d's role was withheld", o))
				}
				continue
			}
			if !(o == s.seat || (s.mafia(s.seat) && s.mafia(o))) || r != s.roles[o].String() {
				leak(fmt.Sprintf("the deal shows seat %d as %s", o, r))
			}
		}
	case "mafia_chose":
		if !s.mafia(s.seat) {
			leak("a mafia choice reached a non-mafioso")
		}
	case "checked", "healed", "shot", "skipped":
		if !own {
			leak("another seat's night action")
		}
	case "vote_cast", "all_vote_cast":
		if !own {
			leak("another seat's open vote")
		}
	case "vote_made":
		if e.Target != 0 || e.Yes != nil {
			leak("vote_made names what was voted")
		}
	case "player_out":
		if e.Role != "" && (s.reveal != "role" || e.Role != s.roles[e.Target].String()) {
			leak("a role revealed on death against reveal_on_death")
		}
		if e.Team != "" && (s.reveal == "none" || e.Team != s.roles[e.Target].Team().String()) {
			leak("a team revealed on death against reveal_on_death")
		}
	}
}

func (s *secrecy) checkView(v *wire.View, fr frame) {
	t := s.t
	t.Helper()
	leak := func(what string) {
		t.Helper()
		t.Errorf("seat %d (%v): view: %s: %s", s.seat, s.role(), what, fr.raw)
	}
	if v.Seat != s.seat {
		leak(fmt.Sprintf("a view of seat %d", v.Seat))
	}
	if want := s.role(); (want == engine.RoleNone && v.Role != "") || (want != engine.RoleNone && v.Role != want.String()) {
		leak("own role " + v.Role)
	}
	me := s.role()
	for _, st := range v.Seats {
		o := st.Seat
		if st.Role != "" && (!s.mayKnowRole(o, st.Alive) || st.Role != s.roles[o].String()) {
			leak(fmt.Sprintf("seat %d shown as %s", o, st.Role))
		}
		if st.Team != "" && (!s.mayKnowTeam(o, st.Alive) || st.Team != s.roles[o].Team().String()) {
			leak(fmt.Sprintf("seat %d shown on team %s", o, st.Team))
		}
		if st.Check != "" {
			ok := (me == engine.Detective && (st.Check == "mafia" || st.Check == "not_mafia" || st.Check == "maniac")) ||
				(me == engine.Don && (st.Check == "detective" || st.Check == "not_detective"))
			if !ok {
				leak(fmt.Sprintf("a check answer %q about seat %d", st.Check, o))
			}
		}
		if st.Choice != 0 && !s.mafia(s.seat) {
			leak(fmt.Sprintf("seat %d's mafia choice", o))
		}
	}
	if n := v.Night; n != nil {
		if n.Kill != 0 && !s.mafia(s.seat) {
			leak("a kill")
		}
		if n.Check != 0 && me != engine.Detective && me != engine.Don {
			leak("a check")
		}
		if (n.Shot != 0 || n.Shots != nil) && me != engine.Maniac {
			leak("the maniac's shots")
		}
		if (n.Heal != 0 || len(n.Healed) > 0 || n.Banned != 0) && me != engine.Doctor {
			leak("the doctor's heals")
		}
	}
}

func TestNoFrameRevealsAnotherSeatsSecrets(t *testing.T) {
	cases := []struct {
		players int
		reveal  string
		people  func(seat int) bool // the seats people play; bots play the others
		games   int
	}{
		{7, "none", func(int) bool { return true }, 3},
		{8, "role", func(s int) bool { return s%2 == 1 }, 2},
		{8, "role", func(s int) bool { return s%2 == 0 }, 2},
		{9, "team", func(s int) bool { return s <= 5 }, 2},
		{9, "none", func(s int) bool { return s > 4 }, 2},
		{11, "none", func(int) bool { return true }, 2}, // with a maniac
	}
	seed := uint64(1)
	for i, c := range cases {
		for game := 0; game < c.games; game++ {
			seed++
			name := fmt.Sprintf("case %d: %d players, reveal %s, game %d", i, c.players, c.reveal, game)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				set := settings(t, c.players, fastTimings)
				set.Options = map[string]string{"reveal_on_death": c.reveal}
				f := newFixture(t, set, nil)
				// The host plays seat 1 when a person has it (with the host's
				// token): a seated host sees only that seat's secrets.
				var people []*client
				var host *client
				for s := 1; s <= c.players; s++ {
					if !c.people(s) {
						continue
					}
					hostToken := ""
					if s == 1 {
						hostToken = f.host
					}
					_, tok, err := f.r.Join(bg(), room.JoinRequest{Name: fmt.Sprintf("person %d", s), Seat: s, Token: hostToken})
					if err != nil {
						t.Fatal(err)
					}
					p := f.attach(tok)
					if s == 1 {
						if tok != f.host || !p.sub.Host || p.seat != 1 {
							t.Fatalf("the host's seat: token kept %v, host %v, seat %d", tok == f.host, p.sub.Host, p.seat)
						}
						host = p
					}
					people = append(people, p)
				}
				watch := f.attach("")
				all := []*client{watch}
				if host == nil {
					host = f.hostClient()
					all = append(all, host)
				}
				host.must(hostAction("add_bots", 0))
				host.must(hostAction("start", 0))
				roles := f.truth()
				all = append(all, people...)
				checks := make([]*secrecy, len(all))
				for i, cl := range all {
					checks[i] = &secrecy{t: t, roles: roles, reveal: c.reveal, seat: cl.seat}
				}
				checkAll := func() {
					for i, cl := range all {
						cl.drain()
						checks[i].checkAll(cl)
					}
				}
				src := rng.New(seed)
				for step := 0; ; step++ {
					checkAll()
					if watch.ended() {
						break
					}
					if step > 20000 {
						t.Fatalf("no end after %d steps", step)
					}
					acted := false
					for _, p := range people {
						p.drain()
						m, ok := p.randomMove(&src)
						if !ok {
							continue
						}
						acted = true
						if err := p.send(m); err != nil {
							t.Errorf("seat %d: a move its view listed as legal was refused: %+v: %v", p.seat, m, err)
						}
					}
					if !acted {
						f.advance(tick)
					}
				}
				f.checkEnded(watch)
				nightFrames := 0
				for i, cl := range all {
					if checks[i].night {
						t.Errorf("seat %d never heard the last night end", cl.seat)
					}
					nightFrames += checks[i].nightFrames
				}
				t.Logf("%d events; people heard %d frames at night", len(f.events()), nightFrames)
			})
		}
	}
}

// nightTimings have a night of three ticks: at 1 s, 2 s and the deadline.
var nightTimings = map[string]int64{"speech": 1000, "defence": 500, "tie_speech": 500, "last_words": 500,
	"night": 3000, "vote": 500}

// TestAtNightEverySeatGetsTheSameFramesAtEachTick: what the night roles do
// reaches nobody when they do it (only their replies); at each tick every
// seat gets two frames, each of the same length for every seat (slot A:
// the actors' events and views, the others a pad; slot B: pads, as nobody
// chats), and every tick of the night has the same lengths; spectators
// hear nothing until the morning, which reaches everyone at once.
func TestAtNightEverySeatGetsTheSameFramesAtEachTick(t *testing.T) {
	f := newFixture(t, settings(t, 7, nightTimings), nil)
	cs := f.fillWithPeople(7)
	watch := f.attach("")
	host := f.hostClient()
	host.must(hostAction("start", 0))
	seated := cs[1:]
	all := append([]*client{watch, host}, seated...)
	drainAll(all...)
	roles := f.truth()
	don := seatsOf(roles, is(engine.Don))[0]
	maf := seatsOf(roles, is(engine.Mafioso))[0]
	det := seatsOf(roles, is(engine.Detective))[0]
	doc := seatsOf(roles, is(engine.Doctor))[0]
	victim := seatsOf(roles, is(engine.Citizen))[0]
	mark := func() map[*client]int {
		m := map[*client]int{}
		for _, c := range all {
			m[c] = len(c.wire)
		}
		return m
	}
	before := mark()

	// The clock stands still while every night role acts: nothing but the
	// replies.
	cs[maf].must(command("kill", victim))
	cs[don].must(command("kill", victim))
	cs[don].must(command("check", det))
	cs[det].must(command("check", don))
	cs[doc].must(command("heal", det))
	drainAll(all...)
	for _, c := range all {
		if n := len(c.wire) - before[c]; n != 0 {
			t.Errorf("seat %d (%v) got %d frames when the night roles acted, want none", c.seat, roleOf(roles, c.seat), n)
		}
	}

	// tick checks one tick: two frames a seat, each slot of one length;
	// nothing for the spectator and the seatless host. It returns the
	// slots' lengths and each seat's slot A frame.
	tick := func(what string) (a, b int, slotA map[int]wireFrame) {
		t.Helper()
		before := mark()
		f.advance(time.Second)
		drainAll(all...)
		slotA = map[int]wireFrame{}
		for _, c := range all {
			got := c.wire[before[c]:]
			if c.seat == 0 {
				if len(got) != 0 {
					t.Errorf("%s: a connection without a seat got %d frames", what, len(got))
				}
				continue
			}
			if len(got) != 2 {
				t.Fatalf("%s: seat %d (%v) got %d frames, want 2", what, c.seat, roleOf(roles, c.seat), len(got))
			}
			if a == 0 {
				a, b = got[0].size, got[1].size
			}
			if got[0].size != a || got[1].size != b {
				t.Errorf("%s: seat %d (%v) got frames of %d and %d bytes, seat 1 %d and %d", what, c.seat,
					roleOf(roles, c.seat), got[0].size, got[1].size, a, b)
			}
			if got[1].typ != "pad" {
				t.Errorf("%s: seat %d's slot B is a %q with nobody chatting", what, c.seat, got[1].typ)
			}
			slotA[c.seat] = got[0]
		}
		return a, b, slotA
	}
	a1, b1, slotA := tick("the first tick")
	want := map[int][]string{don: {"mafia_chose", "mafia_chose", "checked"}, maf: {"mafia_chose", "mafia_chose"},
		det: {"checked"}, doc: {"healed"}}
	for _, c := range seated {
		if w := want[c.seat]; w == nil {
			if slotA[c.seat].typ != "pad" {
				t.Errorf("seat %d (%v) who did nothing got a %q", c.seat, roleOf(roles, c.seat), slotA[c.seat].typ)
			}
		} else if got := kinds(c.frames[len(c.frames)-1:]); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("seat %d (%v) heard %v at the tick, want %v", c.seat, roleOf(roles, c.seat), got, w)
		}
	}
	// The check answers reached the checkers alone, at the tick.
	if a := cs[det].view.Seats[don-1].Check; a != "mafia" {
		t.Errorf("the detective's answer about the Don: %q", a)
	}
	if a := cs[don].view.Seats[det-1].Check; a != "detective" {
		t.Errorf("the Don's answer about the detective: %q", a)
	}
	a2, b2, _ := tick("the second tick")
	if a2 != a1 || b2 != b1 {
		t.Errorf("the second tick's frames are %d and %d bytes, the first's %d and %d", a2, b2, a1, b2)
	}

	// At the deadline the last tick, then the morning: the same news to
	// everyone at once, in frames of one length for every seat.
	before = mark()
	f.advance(time.Second)
	drainAll(all...)
	morning, size := "", 0
	for _, c := range all {
		got := c.wire[before[c]:]
		if c.seat == 0 {
			if len(got) != 1 || got[0].typ != "update" {
				t.Fatalf("a connection without a seat got %d frames in the morning, want the morning's update", len(got))
			}
		} else {
			if len(got) != 3 || got[0].size != a1 || got[1].size != b1 {
				t.Fatalf("seat %d got %d frames at the deadline, want the last tick (%d and %d bytes) and the morning", c.seat, len(got), a1, b1)
			}
			if size == 0 {
				size = got[2].size
			} else if got[2].size != size {
				t.Errorf("seat %d's morning is %d bytes, another's %d", c.seat, got[2].size, size)
			}
		}
		k := fmt.Sprint(kinds(c.frames[len(c.frames)-1:]))
		if morning == "" {
			morning = k
		} else if k != morning {
			t.Errorf("seat %d heard %s in the morning, others %v", c.seat, k, morning)
		}
	}
	if cs[victim].view.Seats[victim-1].Alive {
		t.Errorf("the mafia's victim %d survived", victim)
	}
}

func roleOf(roles []engine.Role, s int) engine.Role {
	if s <= 0 || s >= len(roles) {
		return engine.RoleNone
	}
	return roles[s]
}

// TestAVoteIsHeardByEveryoneWithoutItsTarget: while a vote runs, a vote
// reaches every connection at once as vote_made (who voted, never for
// whom): one frame to every seat, all of one length, the voter's carrying
// its own vote_cast too, and the spectator's its own vote_made. No frame of
// anyone but the voter names a vote's target before the close; at the close
// every seat gets one frame, all of one length.
func TestAVoteIsHeardByEveryoneWithoutItsTarget(t *testing.T) {
	_, cs, host, watch, _ := toTheRevote(t) // five of the six have voted
	all := append([]*client{watch, host}, cs[1:]...)
	drainAll(all...)
	for _, c := range append([]*client{watch}, cs[1:]...) {
		made := map[int]bool{}
		for _, fr := range c.frames {
			for _, raw := range fr.events {
				var e wire.Event
				if err := json.Unmarshal(raw, &e); err != nil {
					t.Fatal(err)
				}
				switch {
				case e.Kind == "vote_made" && e.Target == 0:
					made[e.Actor] = true
				case e.Kind == "vote_made":
					t.Errorf("connection of seat %d: vote_made with a target: %s", c.seat, raw)
				case e.Kind == "vote_cast" && e.Actor != c.seat:
					t.Errorf("connection of seat %d heard seat %d's vote before the close: %s", c.seat, e.Actor, raw)
				}
			}
		}
		if len(made) != 5 || made[6] {
			t.Errorf("connection of seat %d heard that %v have voted, want seats 1 to 5", c.seat, made)
		}
	}
	for i, st := range watch.view.Seats {
		if st.Vote != 0 {
			t.Errorf("the spectator's view before the close shows seat %d's vote", i+1)
		}
	}
	before := map[*client]int{}
	for _, c := range all {
		before[c] = len(c.wire)
	}
	cs[6].must(command("vote", 3)) // the last vote: vote_made, then the close at once
	drainAll(all...)
	sizes := [2]int{}
	for _, c := range cs[1:] {
		got := c.wire[before[c]:]
		if len(got) != 2 {
			t.Fatalf("seat %d got %d frames as the last vote closed the vote, want 2: %+v", c.seat, len(got), got)
		}
		for i := range got {
			if sizes[i] == 0 {
				sizes[i] = got[i].size
			}
			if got[i].size != sizes[i] {
				t.Errorf("seat %d's frame %d is %d bytes, seat 1's %d", c.seat, i, got[i].size, sizes[i])
			}
		}
		want := "[vote_made]"
		if c.seat == 6 {
			want = "[vote_made vote_cast]"
		}
		if k := fmt.Sprint(got[0].kinds); k != want {
			t.Errorf("seat %d heard %s as seat 6 voted, want %s", c.seat, k, want)
		}
		if got[1].kinds[0] != "vote_closed" {
			t.Errorf("seat %d heard %v at the close", c.seat, got[1].kinds)
		}
	}
	if got := watch.wire[before[watch]:]; len(got) != 2 || fmt.Sprint(got[0].kinds) != "[vote_made]" {
		t.Errorf("the spectator heard %+v as seat 6 voted", got)
	}
}

// TestAFoulInAVoteDoesNotShowWhetherAnyoneVoted: every seat's frame in a
// vote has one length, a foul's after five votes the same as a foul's
// before anyone voted (the vote's floor covers a vote): a frame's length
// never shows how anyone voted. (That they voted is public: vote_made.)
func TestAFoulInAVoteDoesNotShowWhetherAnyoneVoted(t *testing.T) {
	_, cs, host, watch, vote := toTheVote(t)
	all := append([]*client{watch, host}, cs[1:]...)
	drainAll(all...)
	foul := func(what string) int {
		t.Helper()
		before := map[*client]int{}
		for _, c := range cs[1:] {
			before[c] = len(c.wire)
		}
		host.must(at(hostAction("foul", 6), vote))
		drainAll(all...)
		size := 0
		for _, c := range cs[1:] {
			got := c.wire[before[c]:]
			if len(got) != 1 {
				t.Fatalf("%s: seat %d got %d frames, want 1", what, c.seat, len(got))
			}
			if size == 0 {
				size = got[0].size
			}
			if got[0].size != size {
				t.Errorf("%s: seat %d's frame is %d bytes, seat 1's %d", what, c.seat, got[0].size, size)
			}
		}
		return size
	}
	before := foul("a foul before any vote")
	for s, c := range map[int]int{1: 2, 2: 3, 3: 2, 4: 3, 5: 3} {
		cs[s].must(at(command("vote", c), vote))
	}
	drainAll(all...)
	if after := foul("a foul after five votes"); after != before {
		t.Errorf("a foul's frames are %d bytes after five votes, %d before any: the length shows the votes", after, before)
	}
	if !hasKind(cs[1].frames, "vote_cast") || hasKind(cs[6].frames, "vote_cast") {
		t.Error("the voters' own votes did not reach them alone")
	}
}
