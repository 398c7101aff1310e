package locale

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mafia/engine"
)

// engineCodes reads every constant of type Code from the engine's source,
// so that a code added there without a sentence here fails this package's
// tests.
func engineCodes(t *testing.T) []engine.Code {
	t.Helper()
	files, err := filepath.Glob("../engine/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("cannot find the engine's source: %v", err)
	}
	var out []engine.Code
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Code" {
					continue
				}
				for _, val := range v.Values {
					lit, ok := val.(*ast.BasicLit)
					if !ok {
						t.Fatalf("%s: a Code that is not a string literal", f)
					}
					s, _ := strconv.Unquote(lit.Value)
					out = append(out, engine.Code(s))
				}
			}
		}
	}
	if len(out) < 30 {
		t.Fatalf("found only %d codes in the engine's source: is the parser still right?", len(out))
	}
	return out
}

// eventKinds returns every EventKind the engine names.
func eventKinds() []engine.EventKind {
	var out []engine.EventKind
	for k := engine.EvGameStarted; k.String() != "?"; k++ {
		out = append(out, k)
	}
	return out
}

// clean reports what is wrong with a rendered sentence, or "".
func clean(s string) string {
	switch {
	case strings.TrimSpace(s) == "":
		return "empty"
	case strings.Contains(s, "<no value>"):
		return "a template field has no value"
	case strings.Contains(s, "{{") || strings.Contains(s, "}}"):
		return "template braces are left over"
	case strings.Contains(s, "%!"):
		return "a format verb went wrong"
	}
	for _, prefix := range []string{"error.", "event.", "view.", "play.", "role.", "setup."} {
		if strings.HasPrefix(s, prefix) {
			return "the message id shows: the catalog lacks it"
		}
	}
	return ""
}

func TestEveryCodeHasASentenceInEveryLanguage(t *testing.T) {
	sampled := map[engine.Code]bool{}
	for _, s := range refusalSamples {
		sampled[s.err.Code] = true
	}
	for _, c := range engineCodes(t) {
		if !sampled[c] {
			t.Errorf("code %s has no sample in refusalSamples: add one (and its sentences)", c)
		}
	}
	for _, l := range Langs() {
		p := New(l)
		generic := p.T("error.generic", nil)
		for _, s := range refusalSamples {
			got := p.Refusal(s.err)
			if msg := clean(got); msg != "" {
				t.Errorf("%s %s: %s: %q", l, s.name, msg, got)
			}
			if got == generic {
				t.Errorf("%s %s: rendered as the generic sentence: the catalog lacks error.%s", l, s.name, s.err.Code)
			}
		}
	}
}

func TestEveryEventKindIsNarratedInEveryLanguage(t *testing.T) {
	sampled := map[engine.EventKind]bool{}
	for _, s := range eventSamples {
		sampled[s.e.Kind] = true
	}
	for _, k := range eventKinds() {
		if !sampled[k] {
			t.Errorf("event %s has no sample in eventSamples: add one (and its sentences)", k)
		}
	}
	for _, l := range Langs() {
		p := New(l)
		for _, s := range eventSamples {
			got := p.Event(s.e, s.viewer)
			if msg := clean(got); msg != "" {
				t.Errorf("%s %s: %s: %q", l, s.name, msg, got)
			}
			unknown := p.T("event.unknown", map[string]any{"Kind": s.e.Kind.String()})
			if got == unknown {
				t.Errorf("%s %s: narrated as an unknown event", l, s.name)
			}
		}
	}
}

func TestRefusalNamesTheParametersInEnglish(t *testing.T) {
	p := New(En)
	for _, c := range []struct {
		err  error
		want string
	}{
		{&engine.Error{Code: engine.CodeAlreadyHealed, Target: 4}, "Seat 4 has already been healed this game."},
		{&engine.Error{Code: engine.CodeManiacNightOne}, "The maniac shoots from night 2 on."},
		{&engine.Error{Code: engine.CodeNotSpeaker, Seat: 3}, "It is not your speech."},
		{&engine.Error{Code: engine.CodeNoSuchSeat, Seat: 42, N: 11}, "There is no seat 42 at this table: the seats are 1 to 11."},
		{&engine.Error{Code: engine.CodeWrongPhase, Phase: engine.PhaseVote}, "That cannot be done now (the game is at: vote)."},
		{&engine.Error{Code: engine.CodeDuplicateRole, Role: engine.Doctor}, "A setup may have only one doctor."},
		{&engine.Error{Code: engine.CodeBadOptionValue, Name: "last_words", Value: "maybe"}, "The option last_words has no value “maybe”: choose on or off."},
		{&engine.Error{Code: engine.CodeBadOptionValue, Name: "second_tie", Value: "x"}, "The option second_tie has no value “x”: choose ask, nobody or all."},
		{&engine.Error{Code: engine.CodeBadOptionValue, Name: "foul_limit", Value: "99", N: 10}, "The option foul_limit takes a number from 0 to 10, not “99”."},
		{fmt.Errorf("loading: %w", &engine.Error{Code: engine.CodeNominateSelf}), "You may not nominate yourself."},
		{errors.New("disk full"), "That cannot be done."},
		{nil, "That cannot be done."},
	} {
		if got := p.Refusal(c.err); got != c.want {
			t.Errorf("Refusal(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

func TestEventSpeaksToTheViewerInTheSecondPerson(t *testing.T) {
	p := New(En)
	for _, c := range []struct {
		e      engine.Event
		viewer engine.Seat
		want   string
	}{
		{engine.Event{Kind: engine.EvChecked, Actor: 3, Target: 5, Result: engine.ResultMafia}, 3, "You checked seat 5: mafia."},
		{engine.Event{Kind: engine.EvChecked, Actor: 3, Target: 5, Result: engine.ResultMafia}, 0, "Seat 3 checked seat 5: mafia."},
		{engine.Event{Kind: engine.EvNominated, Actor: 2, Target: 4}, 4, "Seat 2 nominates you."},
		{engine.Event{Kind: engine.EvNominated, Actor: 2, Target: 4}, 7, "Seat 2 nominates seat 4."},
		{engine.Event{Kind: engine.EvSpeech, Target: 4}, 4, "Your speech."},
		{engine.Event{Kind: engine.EvPlayerOut, Target: 4, Cause: engine.CauseVote, Role: engine.Doctor}, 4, "The town voted you out. You leave the game."},
		{engine.Event{Kind: engine.EvPlayerOut, Target: 4, Cause: engine.CauseVote, Role: engine.Doctor}, 5, "Seat 4 is voted out and leaves the game. Their card: doctor."},
	} {
		if got := p.Event(c.e, c.viewer); got != c.want {
			t.Errorf("Event(%s, %d) = %q, want %q", c.e.Kind, c.viewer, got, c.want)
		}
	}
}

func TestGameStartedShowsOnlyTheCardsTheEventHolds(t *testing.T) {
	for _, l := range Langs() {
		p := New(l)
		citizen := p.Event(gameStarted(4, engine.Citizen), 4)
		for _, r := range []engine.Role{engine.Don, engine.Mafioso, engine.Detective, engine.Doctor, engine.Maniac} {
			if strings.Contains(citizen, p.Role(r)) {
				t.Errorf("%s: a citizen's start names %s: %q", l, p.Role(r), citizen)
			}
		}
		don := p.Event(gameStarted(2, engine.Don, 6, engine.Mafioso), 2)
		if !strings.Contains(don, p.Role(engine.Mafioso)) || !strings.Contains(don, "6") {
			t.Errorf("%s: the Don's start does not show the teammate at seat 6: %q", l, don)
		}
	}
}
