package room_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mafia/engine"
	"mafia/room"
	"mafia/wire"
)

// refusal is one request that must be refused with code.
type refusal struct {
	name string
	from *client
	msg  wire.ClientMessage
	code engine.Code
}

// expectRefusals sends each request and checks it is refused with its code
// and changes nothing: the store's log is the same, and nobody (the sender
// included) is sent any frame.
func expectRefusals(t *testing.T, f *fixture, all []*client, cases []refusal) {
	t.Helper()
	drainAll(all...)
	for _, c := range cases {
		before := mustJSON(t, f.events())
		err := c.from.send(c.msg)
		if got := codeOf(err); got != c.code {
			t.Errorf("%s: got %v (%q), want %q", c.name, err, got, c.code)
		}
		if after := mustJSON(t, f.events()); !bytes.Equal(before, after) {
			t.Errorf("%s: the stored log changed", c.name)
		}
		for _, o := range all {
			if frs := o.drain(); len(frs) != 0 {
				t.Errorf("%s: seat %d was sent %s", c.name, o.seat, frs[0].raw)
			}
		}
	}
}

func TestRefusedRequestsChangeNothing(t *testing.T) {
	f := newFixture(t, settings(t, 5, fastTimings), nil)
	cs := f.fillWithPeople(5)
	spec := f.attach("")
	host := f.hostClient()
	host.must(hostAction("start", 0))
	all := append([]*client{spec, host}, cs[1:]...)
	roles := f.truth()
	citizen := cs[seatsOf(roles, is(engine.Citizen))[0]]
	don := cs[seatsOf(roles, is(engine.Don))[0]]
	withText := func(m wire.ClientMessage, text string) wire.ClientMessage { m.Text = text; return m }
	unknown := wire.ClientMessage{Type: "shout"}

	// At night.
	expectRefusals(t, f, all, []refusal{
		{"a spectator's command", spec, command("kill", 1), room.CodeSpectator},
		{"the host's (unseated) command", host, command("kill", 1), room.CodeSpectator},
		{"a citizen's kill", citizen, command("kill", cs[1].seat), engine.CodeNotYourRole},
		{"a nomination at night", cs[1], command("nominate", 2), engine.CodeWrongPhase},
		{"a vote at night", cs[1], command("vote", 2), engine.CodeWrongPhase},
		{"a pass at night", cs[1], command("pass", 0), engine.CodeWrongPhase},
		{"an unknown verb", cs[1], command("dance", 0), engine.CodeUnknownVerb},
		{"the host's next from a seat", cs[1], command("next", 0), engine.CodeHostOnly},
		{"the host's foul from a seat", cs[1], command("foul", 2), engine.CodeHostOnly},
		{"the Don kills his own", don, command("kill", don.seat), engine.CodeTargetIsMafia},
		{"a pause by a player", cs[2], hostAction("pause", 0), room.CodeNotHost},
		{"a start by a spectator", spec, hostAction("start", 0), room.CodeNotHost},
		{"a foul by a player", cs[2], hostAction("foul", 3), room.CodeNotHost},
		{"a second start", host, hostAction("start", 0), room.CodeAlreadyStarted},
		{"bots after the start", host, hostAction("add_bots", 0), room.CodeAlreadyStarted},
		{"a kick after the start", host, hostAction("kick", 2), room.CodeAlreadyStarted},
		{"an unknown host action", host, hostAction("dance", 0), room.CodeBadRequest},
		{"an unknown message type", cs[1], unknown, room.CodeBadRequest},
		{"town chat at night", cs[1], chat("town", "hello"), room.CodeChatClosed},
		{"mafia chat from a citizen", citizen, chat("mafia", "hello"), room.CodeChatClosed},
		{"mafia chat from a spectator", spec, chat("mafia", "hello"), room.CodeChatClosed},
		{"the dead's chat from the living", cs[1], chat("dead", "hello"), room.CodeChatClosed},
		{"an unknown channel", cs[1], chat("gossip", "hello"), room.CodeBadRequest},
		{"an empty chat", don, withText(chat("mafia", ""), "   "), room.CodeBadRequest},
	})

	// In seat 1's speech (nobody acted at night: nobody died).
	f.advance(timingsOf(fastTimings).Night)
	drainAll(all...)
	if spec.view.Phase != "speech" || spec.view.Speaker != 1 {
		t.Fatalf("after the night: %q, speaker %d", spec.view.Phase, spec.view.Speaker)
	}
	long := strings.Repeat("é", room.MaxChat+1)
	expectRefusals(t, f, all, []refusal{
		{"a pass out of turn", cs[2], command("pass", 0), engine.CodeNotSpeaker},
		{"a nomination out of turn", cs[2], command("nominate", 3), engine.CodeNotSpeaker},
		{"a self-nomination", cs[1], command("nominate", 1), engine.CodeNominateSelf},
		{"a vote in a speech", cs[1], command("vote", 2), engine.CodeWrongPhase},
		{"a kill by day", don, command("kill", cs[1].seat), engine.CodeWrongPhase},
		{"town chat out of turn", cs[2], chat("town", "hello"), room.CodeChatClosed},
		{"town chat from a spectator", spec, chat("town", "hello"), room.CodeChatClosed},
		{"mafia chat by day", don, chat("mafia", "hello"), room.CodeChatClosed},
		{"a chat too long", cs[1], chat("town", long), room.CodeBadRequest},
	})

	// The longest chat allowed goes to everyone, and is not in the log.
	before := len(f.events())
	seen := map[*client]int{}
	for _, o := range all {
		seen[o] = len(o.frames)
	}
	cs[1].must(chat("town", long[:len(long)-len("é")]))
	for _, o := range all {
		o.drain()
		frs := o.frames[seen[o]:]
		if len(frs) != 1 || frs[0].msg.Type != "chat" || frs[0].msg.From != 1 {
			t.Errorf("seat %d: the chat reached it as %d frames", o.seat, len(frs))
		}
	}
	if len(f.events()) != before {
		t.Error("a chat was stored as an event")
	}
}

func TestAStoppedRoomRefusesEverything(t *testing.T) {
	f := newFixture(t, settings(t, 5, fastTimings), nil)
	cs := f.fillWithPeople(5)
	f.hostClient().must(hostAction("start", 0))
	f.r.Stop()
	before := len(f.events())
	// Many times over: a refusal that depends on a race would show.
	for i := 0; i < 20; i++ {
		if err := f.r.Submit(cs[1].sub, command("pass", 0), f.clk.Now()); codeOf(err) != room.CodeStopped {
			t.Fatalf("request %d to a stopped room: %v, want %q", i, err, room.CodeStopped)
		}
	}
	if _, err := f.r.Attach(bg(), "", 0); codeOf(err) != room.CodeStopped {
		t.Errorf("an attach to a stopped room: %v", err)
	}
	if _, _, err := f.r.Join(bg(), room.JoinRequest{Name: "late", Seat: 0}); codeOf(err) != room.CodeStopped {
		t.Errorf("a join to a stopped room: %v", err)
	}
	f.clk.Advance(time.Hour) // the stopped room's timers must not block or fire
	if len(f.events()) != before {
		t.Error("a stopped room's log grew")
	}
}

func TestJoinRefusalsChangeNoSeat(t *testing.T) {
	f := newFixture(t, settings(t, 5, fastTimings), nil)
	watch := f.attach("")
	_, seats0 := f.storedTable()
	check := func(name string, err error, code engine.Code) {
		t.Helper()
		_, seats := f.storedTable()
		if got := codeOf(err); got != code {
			t.Errorf("%s: got %v, want %q", name, err, code)
		}
		if !bytes.Equal(mustJSON(t, seats), mustJSON(t, seats0)) {
			t.Errorf("%s: the stored seats changed", name)
		}
		if frs := watch.drain(); len(frs) != 0 {
			t.Errorf("%s: a frame went out: %s", name, frs[0].raw)
		}
	}
	f.join("ann", 1)
	_, seats0 = f.storedTable()
	watch.drain()
	_, _, err := f.r.Join(bg(), room.JoinRequest{Name: "bob", Seat: 1})
	check("a taken seat", err, room.CodeSeatTaken)
	_, _, err = f.r.Join(bg(), room.JoinRequest{Name: "bob", Seat: 6})
	check("a seat off the table", err, engine.CodeNoSuchSeat)
	_, _, err = f.r.Join(bg(), room.JoinRequest{Name: "  ", Seat: 2})
	check("no name", err, room.CodeNameRequired)
	_, _, err = f.r.Join(bg(), room.JoinRequest{Name: strings.Repeat("x", room.MaxName+1), Seat: 2})
	check("a name too long", err, room.CodeNameTooLong)
	_, err = f.r.Attach(bg(), "a token nobody holds", 0)
	check("a bad token", err, room.CodeBadToken)

	host := f.hostClient()
	if err := host.send(hostAction("start", 0)); codeOf(err) != room.CodeNotFull {
		t.Errorf("a start with empty seats: %v", err)
	}
	if len(f.events()) != 0 {
		t.Error("a refused start stored events")
	}
	host.must(hostAction("add_bots", 0))
	watch.drain()
	_, seats0 = f.storedTable()
	_, _, err = f.r.Join(bg(), room.JoinRequest{Name: "bob", Seat: 3})
	check("a bot's seat", err, room.CodeSeatTaken)
	_, _, err = f.r.Join(bg(), room.JoinRequest{Name: "bob", Seat: 0})
	check("a full table", err, room.CodeTableFull)
	host.must(hostAction("start", 0))
	watch.drain()
	host.must(hostAction("pause", 0)) // no frames from the game while we look
	watch.drain()
	_, seats0 = f.storedTable()
	_, _, err = f.r.Join(bg(), room.JoinRequest{Name: "bob", Seat: 0})
	check("a join after the start", err, room.CodeAlreadyStarted)
}

func TestAFullInboxAnswersBusyInsteadOfBlocking(t *testing.T) {
	var block atomic.Bool
	entered := make(chan struct{})
	release := make(chan struct{})
	f := newFixture(t, settings(t, 5, fastTimings), func(c *room.Config) {
		c.Inbox = 1
		// Metrics.Command runs on the room's goroutine after a command: the
		// test holds the room there, so that the inbox fills up behind it.
		c.Metrics.Command = func(time.Duration, bool) {
			if block.Load() {
				entered <- struct{}{}
				<-release
			}
		}
	})
	cs := f.fillWithPeople(5)
	host := f.hostClient()
	host.must(hostAction("start", 0))
	before := len(f.events())

	block.Store(true)
	m := func(id int64, msg wire.ClientMessage) wire.ClientMessage {
		msg.V, msg.ID = wire.Version, id
		return msg
	}
	if err := f.r.Submit(cs[1].sub, m(1, command("dance", 0)), f.clk.Now()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-entered:
	case <-time.After(guard):
		t.Fatal("the room never handled the command")
	}
	block.Store(false)
	// The room is busy; its one-place inbox takes one more request...
	if err := f.r.Submit(cs[2].sub, m(2, wire.ClientMessage{Type: "ping"}), f.clk.Now()); err != nil {
		t.Fatalf("the first request behind a busy room: %v", err)
	}
	// ...and then answers busy at once, without blocking the caller.
	if err := f.r.Submit(cs[3].sub, m(3, command("pass", 0)), f.clk.Now()); codeOf(err) != room.CodeBusy {
		t.Errorf("a request to a full inbox: %v, want %q", err, room.CodeBusy)
	}
	if _, _, err := f.r.Join(bg(), room.JoinRequest{Name: "late", Seat: 0}); codeOf(err) != room.CodeBusy {
		t.Errorf("a join to a full inbox: %v, want %q", err, room.CodeBusy)
	}
	if _, err := f.r.Attach(bg(), "", 0); codeOf(err) != room.CodeBusy {
		t.Errorf("an attach to a full inbox: %v, want %q", err, room.CodeBusy)
	}
	close(release)
	// The queued ping is answered once the room is free again.
	for pong := false; !pong; {
		ctx, cancel := context.WithTimeout(context.Background(), guard)
		o, ok := cs[2].sub.Next(ctx)
		cancel()
		if !ok {
			t.Fatal("the queued ping was never answered")
		}
		cs[2].take(o)
		pong = o.Frame != nil && cs[2].frames[len(cs[2].frames)-1].msg.Type == "pong"
	}
	f.sync()
	cs[1].drain()
	cs[3].drain()
	if len(cs[1].replies) != 1 || codeOf(cs[1].replies[0].Err) != engine.CodeUnknownVerb {
		t.Errorf("seat 1's replies: %+v", cs[1].replies)
	}
	if len(cs[3].replies) != 0 {
		t.Errorf("the refused request was answered too: %+v", cs[3].replies)
	}
	if len(f.events()) != before {
		t.Error("the log changed")
	}
}

func TestASlowReaderIsDroppedAndTheGameGoesOn(t *testing.T) {
	const buffer = 4
	f := newFixture(t, settings(t, 5, fastTimings), func(c *room.Config) { c.SendBuffer = buffer })
	for s := 1; s <= 5; s++ {
		f.join("person", s)
	}
	fast := f.attach("")
	slow, err := f.r.Attach(bg(), "", 0) // never read
	if err != nil {
		t.Fatal(err)
	}
	host := f.hostClient()
	host.must(hostAction("start", 0))
	fast.drain()

	// The clock runs the game (nobody acts); the slow reader's queue fills
	// up and the room drops it rather than wait.
	var steps int
	for ; f.dropped.Load() == 0; steps++ {
		if steps > 1000 {
			t.Fatal("the slow reader was never dropped")
		}
		f.advance(tick)
		fast.drain()
		host.drain()
	}
	n := 0
	for { // the room closed the queue: this loop ends
		if _, ok, _ := slow.Take(); !ok {
			break
		}
		n++
	}
	if _, _, open := slow.Take(); open {
		t.Error("the slow reader's queue is still open")
	}
	if why := slow.Why(); why != room.CodeTooSlow {
		t.Errorf("the slow reader was dropped as %q, want %q (its client is told why)", why, room.CodeTooSlow)
	}
	if why := fast.sub.Why(); why != "" {
		t.Errorf("an open connection says it was dropped as %q", why)
	}
	if n != buffer {
		t.Errorf("the slow reader's queue held %d items when dropped, want %d", n, buffer)
	}
	if fast.closed || host.closed {
		t.Fatal("a reader that keeps up was dropped")
	}

	// The game goes on, and the others hear all of it.
	at := len(f.events())
	got := len(fast.frames)
	f.ticks(3 * time.Second)
	fast.drain()
	if len(f.events()) == at || len(fast.frames) == got {
		t.Fatal("the game stopped with the slow reader")
	}
	var evs []json.RawMessage
	for _, fr := range fast.frames {
		evs = append(evs, fr.events...)
	}
	if i, ok := sameEvents(evs, shareOf(t, f.events(), 0)); !ok {
		t.Errorf("the spectator who kept up missed events (first difference at %d)", i)
	}
	if f.dropped.Load() != 1 {
		t.Errorf("%d drops", f.dropped.Load())
	}
}

func TestADroppedSeatIsShownDisconnected(t *testing.T) {
	// Big enough to outlast the start (welcome, seats, game, lobby): the
	// drop comes from an ordinary step's frame.
	f := newFixture(t, settings(t, 5, fastTimings), func(c *room.Config) { c.SendBuffer = 4 })
	_, tok := f.join("slow", 1)
	for s := 2; s <= 5; s++ {
		f.join("person", s)
	}
	if _, err := f.r.Attach(bg(), tok, 0); err != nil { // never read
		t.Fatal(err)
	}
	if !f.r.Lobby().Seats[0].Connected {
		t.Fatal("an attached seat is shown disconnected")
	}
	host := f.hostClient()
	host.must(hostAction("start", 0))
	for steps := 0; f.dropped.Load() == 0; steps++ {
		if steps > 1000 {
			t.Fatal("the slow seat was never dropped")
		}
		f.advance(tick)
		host.drain()
	}
	if f.r.Lobby().Seats[0].Connected {
		t.Error("the lobby still shows the dropped seat connected")
	}
}

func TestAnEndedRoomWithNobodyStopsAfterItsLinger(t *testing.T) {
	const linger = time.Minute
	stopped := make(chan string, 1)
	f := newFixture(t, settings(t, 7, fastTimings), func(c *room.Config) {
		c.Linger = linger
		c.OnStop = func(id string) { stopped <- id }
	})
	host := f.hostClient()
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	f.runToEnd(host, time.Hour)
	f.r.Detach(host.sub)
	f.sync()
	f.advance(linger - tick)
	select {
	case <-f.r.Done():
		t.Fatal("the room stopped before its linger")
	default:
	}
	f.clk.Advance(tick)
	select {
	case id := <-stopped:
		if id != f.r.ID() {
			t.Errorf("OnStop(%q), want %q", id, f.r.ID())
		}
	case <-time.After(guard):
		t.Fatal("the ended room with nobody in it did not stop after its linger")
	}
	<-f.r.Done()
}
