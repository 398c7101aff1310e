package wire

import (
	"bytes"
	"encoding/json"
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// newTalker is a random bot that talks now and then on its own floor
// (bot.Talker): the whole-game tests play with talkers so that statements
// reach every frame they check.
func newTalker(seed uint64) bot.Bot { return bot.NewTalker(seed) }

// TestView_TalkIsTheRecordByDay plays a game of talkers and checks every
// seat's view, the spectator's and the host's: the same talk, grouped by
// round in the order of the log's statements, each as it was said.
func TestView_TalkIsTheRecordByDay(t *testing.T) {
	statements, multiDay, checks := 0, 0, 0
	for game := uint64(1); game <= 6; game++ {
		n, days := talkGame(t, game, &checks)
		statements += n
		if days > 1 {
			multiDay++
		}
	}
	if statements < 30 || multiDay < 2 {
		t.Fatalf("only %d statements, %d games of several days: the talkers hardly talked", statements, multiDay)
	}
	t.Logf("%d statements, %d views checked", statements, checks)
}

// talkGame plays one game of talkers, checking the talk of every view after
// every command; it returns the game's statements and days.
func talkGame(t *testing.T, game uint64, checks *int) (statements, days int) {
	setup, _ := engine.Preset(11)
	g, start, err := engine.New(engine.DefaultRules(), setup.Deal(game, nil), game)
	if err != nil {
		t.Fatal(err)
	}
	log := append([]engine.Event(nil), start...)
	bots := make([]bot.Bot, 12)
	for s := 1; s <= 11; s++ {
		bots[s] = newTalker(rng.Derive(game, uint64(s)))
	}
	var scratch ViewScratch
	var reused View
	tb := &bot.Table{Game: g, Bots: bots, OnEvents: func(_ engine.Command, evs []engine.Event) {
		log = append(log, evs...)
		var want []TalkDay
		for _, e := range log {
			if e.Kind != engine.EvStatement {
				continue
			}
			st := Statement{By: int(e.Actor), Phase: e.Phase.String(), Verb: e.Verb.String(), Target: int(e.Target)}
			if e.Role != engine.RoleNone {
				st.Role = e.Role.String()
			}
			if e.Result != engine.ResultNone {
				st.Result = e.Result.String()
			}
			if len(want) == 0 || want[len(want)-1].Round != int(e.Round) {
				want = append(want, TalkDay{Round: int(e.Round)})
			}
			want[len(want)-1].Statements = append(want[len(want)-1].Statements, st)
		}
		wantJSON, _ := json.Marshal(want)
		views := []engine.View{g.SpectatorView(), g.HostView()}
		for s := engine.Seat(1); s <= 11; s++ {
			views = append(views, g.ViewFor(s))
		}
		for i := range views {
			w := FromView(&views[i])
			scratch.Into(&reused, &views[i], NewRules(g.Rules()))
			for _, got := range []View{w, reused} {
				b, _ := json.Marshal(got.Talk)
				if len(want) == 0 && got.Talk != nil || len(want) > 0 && !bytes.Equal(b, wantJSON) {
					t.Fatalf("game %d: view %d's talk is %s, the log's %s", game, i, b, wantJSON)
				}
			}
			*checks++
		}
	}}
	tb.Begin(start)
	tb.Play(1000)
	for _, e := range log {
		if e.Kind == engine.EvDayBegan {
			days++
		}
	}
	return g.SpectatorView().Talk.Len(), days
}

// TestEvent_StatementOnTheWire pins a statement's event and its place in a
// view, as docs/protocol.md shows them.
func TestEvent_StatementOnTheWire(t *testing.T) {
	for _, c := range []struct {
		e    engine.Event
		want string
	}{
		{engine.Event{Kind: engine.EvStatement, Round: 2, Phase: engine.PhaseSpeech, Actor: 3, Verb: engine.Claim, Role: engine.Detective},
			`{"kind":"statement","round":2,"phase":"speech","actor":3,"verb":"claim","role":"detective"}`},
		{engine.Event{Kind: engine.EvStatement, Round: 2, Phase: engine.PhaseSpeech, Actor: 3, Verb: engine.Report, Target: 5, Result: engine.ResultMafia},
			`{"kind":"statement","round":2,"phase":"speech","actor":3,"target":5,"verb":"report","result":"mafia"}`},
		{engine.Event{Kind: engine.EvStatement, Round: 3, Phase: engine.PhaseLastWords, Actor: 4, Verb: engine.Suspect, Target: 1},
			`{"kind":"statement","round":3,"phase":"last_words","actor":4,"target":1,"verb":"suspect"}`},
	} {
		data, err := MarshalEvent(c.e, 9)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != c.want {
			t.Errorf("%s: %s, want %s", c.e.Verb, data, c.want)
		}
		back, err := UnmarshalEvent(data)
		if err != nil || back != c.e {
			t.Errorf("%s back: %+v, %v", data, back, err)
		}
	}
	for _, bad := range []string{
		`{"kind":"statement","round":2,"actor":3,"verb":"dance"}`,
		`{"kind":"statement","round":2,"actor":3,"verb":"vote"}`,
	} {
		if _, err := UnmarshalEvent([]byte(bad)); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}

func TestClientMessage_StatementCommands(t *testing.T) {
	for _, c := range []struct {
		frame string
		want  engine.Command
	}{
		{`{"v":1,"type":"command","verb":"claim","role":"detective"}`, engine.Command{Verb: engine.Claim, By: 4, Role: engine.Detective}},
		{`{"v":1,"type":"command","verb":"claim","role":"mafioso"}`, engine.Command{Verb: engine.Claim, By: 4, Role: engine.Mafioso}},
		{`{"v":1,"type":"command","verb":"claim","role":"wizard"}`, engine.Command{Verb: engine.Claim, By: 4}},
		{`{"v":1,"type":"command","verb":"report","target":5,"result":"not_mafia"}`, engine.Command{Verb: engine.Report, By: 4, Target: 5, Result: engine.ResultNotMafia}},
		{`{"v":1,"type":"command","verb":"report","target":5,"result":"maybe"}`, engine.Command{Verb: engine.Report, By: 4, Target: 5}},
		{`{"v":1,"type":"command","verb":"suspect","target":5}`, engine.Command{Verb: engine.Suspect, By: 4, Target: 5}},
		{`{"v":1,"type":"command","verb":"vouch","target":5}`, engine.Command{Verb: engine.Vouch, By: 4, Target: 5}},
		{`{"v":1,"type":"command","verb":"will_nominate","target":5}`, engine.Command{Verb: engine.WillNominate, By: 4, Target: 5}},
	} {
		m, err := ParseClientMessage([]byte(c.frame))
		if err != nil {
			t.Fatalf("%s: %v", c.frame, err)
		}
		got, ok := m.Command(4)
		if !ok || got != c.want {
			t.Errorf("%s: %+v (%v), want %+v", c.frame, got, ok, c.want)
		}
	}
}
