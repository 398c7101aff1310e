package chat

import (
	"context"
	"slices"
	"testing"
	"time"

	"mafia/client"
	"mafia/engine"
	"mafia/locale"
	"mafia/room"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// Issue 28, defect 8: a person back from a stand-in is told what the bot
// did for them (docs/protocol.md, stood_in).

// TestBrowserAPlayerBackFromAStandInReadsWhatTheBotDid: seat 2's person
// drops as the game starts and a server's bot plays the seat. Once the bot
// has moved for them (a nomination or a vote, seen by the host) or the
// game is over, the person opens the table again: the page says, in their
// language, that a bot played for them, lists its moves, and closes the
// note on a tap.
func TestBrowserAPlayerBackFromAStandInReadsWhatTheBotDid(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartPeopleServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	t.Cleanup(cancel)
	api := &client.API{Base: ts.URL}
	grace := int64(300)
	created, err := api.Create(ctx, client.CreateRequest{Name: "back from a stand-in", Players: 5, StandInMS: &grace, Pace: room.PaceInstant,
		Options:   map[string]string{"first_night": "meeting"},
		TimingsMS: map[string]int64{"speech": 2_000, "defence": 2_000, "tie_speech": 2_000, "last_words": 2_000, "night": 2_000, "vote": 3_000}})
	if err != nil {
		t.Fatal(err)
	}
	pt := &webtest.PeopleTable{T: t, Ctx: ctx, TS: ts, API: api, Table: created.Table}
	var conns []*client.Conn
	for s := 1; s <= 2; s++ {
		tok := ""
		if s == 1 {
			tok = created.HostToken
		}
		j, err := api.Join(ctx, created.Table, webtest.Names[s-1], s, tok)
		if err != nil {
			t.Fatal(err)
		}
		pt.Seats = append(pt.Seats, &webtest.Person{Seat: s, Token: j.Token})
		c, err := api.Dial(ctx, created.Table, j.Token, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		conns = append(conns, c)
	}
	webtest.Drain(ctx, conns[1])
	// The host's connection watches the public record for seat 2's moves.
	moved := make(chan bool, 1)
	go func() {
		for {
			m, err := conns[0].Read(ctx)
			if err != nil {
				return
			}
			for _, e := range m.Events {
				bot := (e.Kind == "nominated" && e.Actor == 2) || (e.Kind == "vote_closed" && len(e.Ballot) > 1 && e.Ballot[1] != 0)
				if bot || e.Kind == "game_ended" {
					moved <- bot
					return
				}
			}
		}
	}()
	for _, a := range []string{"add_bots", "start"} {
		if _, err := conns[0].Send(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	conns[1].CloseNow() // seat 2 drops as the game starts
	select {
	case <-moved:
	case <-ctx.Done():
		t.Fatal("neither a move of seat 2's stand-in nor the end came")
	}
	// Whether the stand-in moved is read from the game's log, before the
	// page opens: the public ballot counts an abstention for the last
	// candidate, so a vote seen there may be no move of the bot's (the page
	// lists only its own moves: a vote cast, a nomination, a night's move).
	_, evs := ts.Game(t, created.Table)
	botMoved := slices.ContainsFunc(evs, func(e engine.Event) bool {
		return e.Actor == 2 && slices.Contains([]engine.EventKind{engine.EvVoteCast, engine.EvAllVoteCast, engine.EvNominated,
			engine.EvMafiaChose, engine.EvChecked, engine.EvHealed, engine.EvShot, engine.EvSkipped}, e.Kind)
	})
	p := webtest.NewTab(t, "back", 360, 740)
	pt.Open(p, 2)
	p.WaitJS(20*time.Second, `!!document.querySelector('#t-away:not([hidden]) #away-text')`)
	text := webtest.Eval[string](p, `document.querySelector('#away-text').innerText`)
	items := webtest.Eval[int](p, `document.querySelectorAll('#away-moves li').length`)
	en := locale.New(locale.En)
	if botMoved {
		if want := en.Plural("web.away.did", items, nil); items == 0 || text != want {
			t.Errorf("the bot moved for seat 2; the page says %q with %d moves listed, want %q", text, items, want)
		}
	} else if items == 0 && text != en.T("web.away.none", nil) {
		t.Errorf("the page says %q with no move listed", text)
	}
	p.Shot("d8-back-from-stand-in-360")
	// Tapped from the page: the game's redraws may move it under a tap
	// aimed from the test.
	p.WaitJS(5*time.Second, `(() => { const b = document.querySelector('#t-away button'); if (b) b.click(); return document.querySelector('#t-away').hidden; })()`)
	t.Logf("seat 2's stand-in moves listed: %d", items)
}
