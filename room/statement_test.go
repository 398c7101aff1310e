package room_test

import (
	"reflect"
	"testing"
	"time"

	"mafia/engine"
	"mafia/room"
	"mafia/wire"
)

// The statements (structured talk) go through the room as commands: the
// engine decides, the room stores the event before anyone sees it, and
// every connection (the spectator's too) gets it with a view whose talk
// holds the record.

func claimMsg(role string) wire.ClientMessage {
	return wire.ClientMessage{Type: "command", Verb: "claim", Role: role}
}

func reportMsg(target int, result string) wire.ClientMessage {
	return wire.ClientMessage{Type: "command", Verb: "report", Target: target, Result: result}
}

func TestStatements_RefusedOffTheFloorAndWhenIllSaid(t *testing.T) {
	f := newFixture(t, settings(t, 5, fastTimings), nil)
	cs := f.fillWithPeople(5)
	spec := f.attach("")
	host := f.hostClient()
	host.must(hostAction("start", 0))
	all := append([]*client{spec, host}, cs[1:]...)
	expectRefusals(t, f, all, []refusal{
		{"a claim at night", cs[1], claimMsg("detective"), engine.CodeWrongPhase},
		{"a spectator's claim", spec, claimMsg("detective"), room.CodeSpectator},
	})
	f.advance(timingsOf(fastTimings).Night)
	drainAll(all...)
	if spec.view.Phase != "speech" || spec.view.Speaker != 1 {
		t.Fatalf("after the night: %q, speaker %d", spec.view.Phase, spec.view.Speaker)
	}
	expectRefusals(t, f, all, []refusal{
		{"a claim out of turn", cs[2], claimMsg("detective"), engine.CodeNotSpeaker},
		{"a suspicion out of turn", cs[2], command("suspect", 3), engine.CodeNotSpeaker},
		{"a card that is none", cs[1], claimMsg("wizard"), engine.CodeBadClaim},
		{"a claim without a card", cs[1], command("claim", 0), engine.CodeBadClaim},
		{"a report of the Don's answer", cs[1], reportMsg(3, "detective"), engine.CodeBadResult},
		{"a report without an answer", cs[1], command("report", 3), engine.CodeBadResult},
		{"a report of oneself", cs[1], reportMsg(1, "not_mafia"), engine.CodeReportSelf},
		{"a suspicion of oneself", cs[1], command("suspect", 1), engine.CodeSuspectSelf},
		{"a vouch for oneself", cs[1], command("vouch", 1), engine.CodeVouchSelf},
		{"a nomination to come of oneself", cs[1], command("will_nominate", 1), engine.CodeNominateSelf},
		{"a seat off the table", cs[1], command("suspect", 9), engine.CodeNoSuchSeat},
		{"no seat", cs[1], command("vouch", 0), engine.CodeNoSuchSeat},
	})
}

func TestStatements_ReachEveryoneAndTheStore(t *testing.T) {
	f := newFixture(t, settings(t, 5, fastTimings), nil)
	cs := f.fillWithPeople(5)
	spec := f.attach("")
	host := f.hostClient()
	host.must(hostAction("start", 0))
	all := append([]*client{spec, host}, cs[1:]...)
	f.advance(timingsOf(fastTimings).Night)
	drainAll(all...)
	said := []wire.ClientMessage{
		claimMsg("detective"),
		reportMsg(4, "mafia"),
		command("suspect", 4),
		command("vouch", 2),
		command("will_nominate", 4),
	}
	want := []wire.Statement{
		{By: 1, Phase: "speech", Verb: "claim", Role: "detective"},
		{By: 1, Phase: "speech", Verb: "report", Target: 4, Result: "mafia"},
		{By: 1, Phase: "speech", Verb: "suspect", Target: 4},
		{By: 1, Phase: "speech", Verb: "vouch", Target: 2},
		{By: 1, Phase: "speech", Verb: "will_nominate", Target: 4},
	}
	for i, m := range said {
		marks := map[*client]int{}
		for _, o := range all {
			marks[o] = len(o.frames)
		}
		cs[1].must(m)
		for _, o := range all {
			o.drain()
			frs := o.frames[marks[o]:]
			if len(frs) != 1 || len(frs[0].msg.Events) != 1 || frs[0].msg.View == nil {
				t.Fatalf("%s: seat %d got %d frames for statement %d", m.Verb, o.seat, len(frs), i)
			}
			e := frs[0].msg.Events[0]
			if e.Kind != "statement" || e.Actor != 1 || e.Verb != m.Verb || e.Phase != "speech" {
				t.Errorf("seat %d got %+v for %s", o.seat, e, m.Verb)
			}
			talk := frs[0].msg.View.Talk
			if len(talk) != 1 || talk[0].Round != 1 || len(talk[0].Statements) != i+1 || !reflect.DeepEqual(talk[0].Statements[i], want[i]) {
				t.Fatalf("seat %d's talk after %s: %+v", o.seat, m.Verb, talk)
			}
		}
	}
	// the speaker still has the floor and may nominate
	if v := cs[1].view; v.Phase != "speech" || v.Speaker != 1 || len(v.Legal.Nominate) == 0 || !v.Legal.Pass || !v.Legal.Claim {
		t.Fatalf("after the statements seat 1's view is %+v", v)
	}
	// stored before anyone saw them, in order, and part of the replay
	var stored []engine.Event
	for _, e := range f.events() {
		if e.Kind == engine.EvStatement {
			stored = append(stored, e)
		}
	}
	if len(stored) != len(want) {
		t.Fatalf("%d statements stored, want %d", len(stored), len(want))
	}
	if tk := f.replay().SpectatorView().Talk; tk.Len() != len(want) || tk.At(1).Result != engine.ResultMafia {
		t.Fatalf("the replayed game holds %d statements", tk.Len())
	}
	// a restarted room carries the record in every welcome
	s := f.crash(f.clk.Now())
	f.restart(s, f.clk.Now())
	again := f.attach(f.tokens[3])
	if again.view == nil || len(again.view.Talk) != 1 || len(again.view.Talk[0].Statements) != len(want) {
		t.Fatalf("after a restart seat 3's welcome holds %+v", again.view)
	}
	late := f.attach("")
	if len(late.view.Talk) != 1 || !reflect.DeepEqual(late.view.Talk[0].Statements[0], want[0]) {
		t.Fatalf("after a restart a spectator's welcome holds %+v", late.view.Talk)
	}
}

// TestStatements_SmartBotsTalkAtATable: at a table of smart bots, played by
// the clock alone, the bots make statements on their floors (the Detective
// claims and reports), with and without a bot delay; every one is stored
// and fits its floor.
func TestStatements_SmartBotsTalkAtATable(t *testing.T) {
	said := 0
	for i, delay := range []time.Duration{0, 0, 0, 200 * time.Millisecond, 200 * time.Millisecond, 200 * time.Millisecond} {
		set := settings(t, 11, fastTimings)
		set.Bots, set.BotDelay = "smart", delay
		f := newFixture(t, set, nil)
		host := f.hostClient()
		watch := f.attach("")
		host.must(hostAction("add_bots", 0))
		host.must(hostAction("start", 0))
		f.runToEnd(watch, time.Hour)
		f.checkEnded(watch)
		for _, e := range f.events() {
			if e.Kind == engine.EvStatement {
				said++
				if !e.Phase.Timed() {
					t.Errorf("game %d: a statement in the %s", i, e.Phase)
				}
			}
		}
	}
	if said == 0 {
		t.Fatal("smart bots at a table never made a statement in 6 games")
	}
	t.Logf("%d statements in 6 games", said)
}
