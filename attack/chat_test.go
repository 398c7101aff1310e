package attack

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// hearing is a connection that keeps every chat line it reads.
type hearing struct {
	*client.Conn
	name  string
	lines []wire.ServerMessage
}

// read reads one frame, keeping it if it is a chat line.
func (h *hearing) read(ctx context.Context) (wire.ServerMessage, error) {
	m, err := h.Read(ctx)
	if err == nil && m.Type == "chat" {
		h.lines = append(h.lines, m)
	}
	return m, err
}

// ask sends m and reads up to its answer.
func (h *hearing) ask(ctx context.Context, m wire.ClientMessage) (wire.ServerMessage, error) {
	id, err := h.Send(ctx, m)
	if err != nil {
		return wire.ServerMessage{}, err
	}
	for {
		got, err := h.read(ctx)
		if err != nil {
			return got, fmt.Errorf("%s: %w", h.name, err)
		}
		if got.ID == id && (got.Type == "reply" || got.Type == "error" || got.Type == "pong") {
			return got, nil
		}
	}
}

// heard reports whether h read a line of channel.
func (h *hearing) heard(channel string) bool {
	for _, l := range h.lines {
		if l.Channel == channel {
			return true
		}
	}
	return false
}

// createSetup makes a table with a custom deal (which client.CreateRequest
// does not carry) and returns what the server answered.
func (tg *target) createSetup(ctx context.Context, t *testing.T, hc *http.Client, body string) client.Created {
	t.Helper()
	a := ask(ctx, t, hc, "POST", tg.base+"/api/tables", map[string]string{"Content-Type": "application/json"}, body)
	var c client.Created
	if a.status != http.StatusCreated || json.Unmarshal(a.body, &c) != nil {
		t.Fatalf("create %s: %d %s", body, a.status, a.body)
	}
	return c
}

// TestAttack_SpectatorReadsNoSecretChat (issue 17, item 3): while a game
// of five people goes on (one mafioso), a second socket without a token,
// what any living player can open beside its seat, listens through the
// night and the morning and tries every channel. It reads no line of the
// mafia's chat (the mafioso names the victim there at night) and none of
// the dead's (the victim names the mafioso there in the morning), nor does
// a living seat hear the dead; the mafioso hears its line and the dead its
// own (so both were sent). Every post of the spectator, in the lobby, at
// night and in the day, in town, mafia and dead, is refused with
// chat_closed. A real player elsewhere plays meanwhile.
func TestAttack_SpectatorReadsNoSecretChat(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	wait := tg.playsMeanwhile(ctx, t, "127.0.83.9")
	long := int64(3600000)
	hc := from("127.0.83.1")
	created := tg.createSetup(ctx, t, hc, fmt.Sprintf(`{"name":"whispers","setup":{"mafia":1,"citizens":4},`+
		`"timings_ms":{"night":3000,"speech":%d,"defence":%d,"tie_speech":%d,"last_words":%d,"vote":%d}}`, long, long, long, long, long))
	api := []*client.API{{Base: tg.base, HTTP: hc}, {Base: tg.base, HTTP: from("127.0.83.2")}}
	var seats []*hearing
	for s := 1; s <= 5; s++ {
		tok := ""
		if s == 1 {
			tok = created.HostToken
		}
		a := api[s/4] // seats 1-3 from one address, 4-5 from another
		c := sit(ctx, t, a, created.Table, fmt.Sprintf("Player %d", s), s, tok)
		seats = append(seats, &hearing{Conn: c, name: fmt.Sprintf("seat %d", s)})
	}
	sc, err := (&client.API{Base: tg.base, HTTP: from("127.0.84.1")}).Dial(ctx, created.Table, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.CloseNow()
	spy := &hearing{Conn: sc, name: "the spectator"}
	posts := 0
	tries := func(when string) {
		t.Helper()
		for _, ch := range []string{"town", "mafia", "dead"} {
			m, err := spy.ask(ctx, wire.ClientMessage{Type: "chat", Channel: ch, Text: "a spectator in " + ch})
			for tries := 0; err == nil && m.Code == "chat_busy" && tries < 10; tries++ {
				// All the table's spectators together post a few lines a
				// second: a patient one waits for its turn.
				time.Sleep(300 * time.Millisecond)
				m, err = spy.ask(ctx, wire.ClientMessage{Type: "chat", Channel: ch, Text: "a spectator in " + ch})
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Type != "error" || m.Code != "chat_closed" {
				t.Errorf("%s, the spectator's line in %s: %s %s, want chat_closed", when, ch, m.Type, m.Code)
			}
			posts++
		}
	}
	tries("in the lobby")
	if m, err := seats[0].ask(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil || m.Type != "reply" {
		t.Fatalf("start: %+v %v", m, err)
	}
	var mafioso, victim *hearing
	for _, s := range seats {
		for s.View == nil {
			if _, err := s.read(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if s.View.Role == "mafia" {
			mafioso = s
		} else if victim == nil {
			victim = s
		}
	}
	if mafioso == nil {
		t.Fatal("no seat got the mafia's card")
	}
	if m, err := mafioso.ask(ctx, wire.ClientMessage{Type: "chat", Channel: "mafia", Text: "tonight: " + victim.name}); err != nil || m.Type != "reply" {
		t.Fatalf("the mafioso's line: %+v %v", m, err)
	}
	if m, err := mafioso.ask(ctx, wire.ClientMessage{Type: "command", Verb: "kill", Target: victim.Seat, Step: mafioso.View.Step}); err != nil || m.Type != "reply" {
		t.Fatalf("the kill: %+v %v", m, err)
	}
	tries("at night")
	// The morning: everyone reads on until the victim's last words.
	for _, s := range append([]*hearing{spy}, seats...) {
		for s.View == nil || s.View.Phase != "last_words" {
			if _, err := s.read(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	if m, err := victim.ask(ctx, wire.ClientMessage{Type: "chat", Channel: "dead", Text: "it was " + mafioso.name}); err != nil || m.Type != "reply" {
		t.Fatalf("the dead's line: %+v %v", m, err)
	}
	tries("in the day")
	// Whatever the lines caused has reached everyone once each has had a
	// pong.
	for _, s := range append([]*hearing{spy}, seats...) {
		if _, err := s.ask(ctx, wire.ClientMessage{Type: "ping"}); err != nil {
			t.Fatal(err)
		}
	}
	if !mafioso.heard("mafia") || !victim.heard("dead") {
		t.Fatalf("the lines were not sent: the mafioso heard the mafia %v, the dead heard the dead %v", mafioso.heard("mafia"), victim.heard("dead"))
	}
	for _, l := range spy.lines {
		if l.Channel != "town" {
			t.Errorf("the spectator read the %s chat: %q from seat %d", l.Channel, l.Text, l.From)
		}
	}
	for _, s := range seats {
		if s != victim && s.heard("dead") {
			t.Errorf("%s, alive, read the dead's chat", s.name)
		}
		if s != mafioso && s.heard("mafia") {
			t.Errorf("%s (%s) read the mafia's chat", s.name, s.View.Role)
		}
	}
	t.Logf("the spectator tried %d lines and read %d", posts, len(spy.lines))
	wait()
}
