package locale

import (
	"strings"
	"testing"

	"mafia/engine"
)

// TestStatement_IsTheSpeakersWords pins the English sentences of the
// statements: who said it, then the words in quotes (a statement, not a
// fact), in the second person for the speaker.
func TestStatement_IsTheSpeakersWords(t *testing.T) {
	p := New(En)
	for _, c := range []struct {
		e      engine.Event
		viewer engine.Seat
		want   string
	}{
		{said(engine.Claim, 3, 0, engine.Detective, 0), 4, "Seat 3 says: “My card: detective.”"},
		{said(engine.Claim, 3, 0, engine.Detective, 0), 3, "You say: “My card: detective.”"},
		{said(engine.Report, 3, 5, 0, engine.ResultMafia), 0, "Seat 3 says: “I checked seat 5: mafia.”"},
		{said(engine.Report, 3, 5, 0, engine.ResultNotMafia), 5, "Seat 3 says: “I checked seat 5: not mafia.”"},
		{said(engine.Suspect, 3, 5, 0, 0), 4, "Seat 3 says: “I suspect seat 5.”"},
		{said(engine.Vouch, 3, 5, 0, 0), 3, "You say: “I vouch for seat 5.”"},
		{said(engine.WillNominate, 3, 5, 0, 0), 4, "Seat 3 says: “I will nominate seat 5.”"},
		{bestMoveSaid(3, 1, 5, 9), 4, "Seat 3's best move: seats 1, 5 and 9."},
		{bestMoveSaid(3, 1, 5, 9), 3, "Your best move: seats 1, 5 and 9."},
	} {
		if got := p.Event(c.e, c.viewer); got != c.want {
			t.Errorf("Event(%s %s, %d) = %q, want %q", c.e.Kind, c.e.Verb, c.viewer, got, c.want)
		}
	}
}

// TestStatement_SaysWhatWasSaidInEveryLanguage: in ka, en and ru each
// statement names its speaker, the seat it is about and the card or answer
// it gives, in the language's own words (never another language's).
func TestStatement_SaysWhatWasSaidInEveryLanguage(t *testing.T) {
	for _, l := range Langs() {
		p := New(l)
		for _, c := range []struct {
			e     engine.Event
			words []string
		}{
			{said(engine.Claim, 3, 0, engine.Doctor, 0), []string{"3", p.Role(engine.Doctor)}},
			{said(engine.Report, 3, 15, 0, engine.ResultNotMafia), []string{"3", "15", p.Result(engine.ResultNotMafia)}},
			{said(engine.Suspect, 3, 15, 0, 0), []string{"3", "15"}},
			{said(engine.Vouch, 3, 15, 0, 0), []string{"3", "15"}},
			{said(engine.WillNominate, 3, 15, 0, 0), []string{"3", "15"}},
			{bestMoveSaid(3, 1, 5, 15), []string{"3", "1", "5", "15"}},
		} {
			got := p.Event(c.e, 4)
			for _, w := range c.words {
				if !strings.Contains(got, w) {
					t.Errorf("%s %s: %q does not say %q", l, c.e.Verb, got, w)
				}
			}
			if l != En && got == New(En).Event(c.e, 4) {
				t.Errorf("%s %s: the sentence is the English one: %q", l, c.e.Verb, got)
			}
			if mine := p.Event(c.e, 3); mine == got || strings.Contains(mine, "3") && c.e.Verb == engine.Claim {
				t.Errorf("%s %s: the speaker reads %q, the others %q", l, c.e.Verb, mine, got)
			}
		}
	}
}

func TestStatement_RefusalsNameTheChoices(t *testing.T) {
	p := New(En)
	if got, want := p.Refusal(&engine.Error{Code: engine.CodeBadClaim}), "A claim names a card: citizen, detective, doctor, mafioso, don or maniac."; got != want {
		t.Errorf("bad_claim: %q, want %q", got, want)
	}
	if got, want := p.Refusal(&engine.Error{Code: engine.CodeTooManyStatements, N: 6}), "You have made 6 statements on this floor: no more on this one."; got != want {
		t.Errorf("too_many_statements: %q, want %q", got, want)
	}
	ru := New(Ru)
	if got := ru.Refusal(&engine.Error{Code: engine.CodeTooManyStatements, N: 6}); !strings.Contains(got, "6 заявлений") {
		t.Errorf("ru too_many_statements: %q is not in the plural of 6", got)
	}
}

func TestSummary_ListsTheClaims(t *testing.T) {
	p := New(En)
	v := engine.View{Players: 5, Phase: engine.PhaseSpeech, Round: 1, Alive: engine.SetOf(1, 2, 3, 4, 5)}
	if got := strings.Join(p.Summary(v), "\n"); strings.Contains(got, "Claimed") {
		t.Fatalf("a summary without claims lists them:\n%s", got)
	}
	v.Talk = talkOf(t, said(engine.Suspect, 2, 3, 0, 0), said(engine.Claim, 3, 0, engine.Detective, 0),
		said(engine.Claim, 3, 0, engine.Citizen, 0), said(engine.Claim, 5, 0, engine.Doctor, 0))
	want := "Claimed cards: seat 3 — citizen, seat 5 — doctor."
	if got := strings.Join(p.Summary(v), "\n"); !strings.Contains(got, want) {
		t.Fatalf("the summary does not say %q:\n%s", want, got)
	}
}

// talkOf builds a record by playing the statements' commands in a game.
func talkOf(t *testing.T, evs ...engine.Event) engine.Talk {
	t.Helper()
	setup, _ := engine.Preset(5)
	g, _, err := engine.New(engine.DefaultRules(), setup.Deal(1, nil), 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Handle(engine.Command{Verb: engine.Next}); err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		for g.Speaker() != e.Actor {
			if _, err := g.Handle(engine.Command{Verb: engine.Next}); err != nil || g.Phase() != engine.PhaseSpeech {
				t.Fatalf("no speech of seat %d: %v", e.Actor, err)
			}
		}
		if _, err := g.Handle(engine.Command{Verb: e.Verb, By: e.Actor, Target: e.Target, Role: e.Role, Result: e.Result}); err != nil {
			t.Fatal(err)
		}
	}
	return g.SpectatorView().Talk
}
