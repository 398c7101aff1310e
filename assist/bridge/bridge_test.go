package bridge_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"mafia/assist/bridge"
	"mafia/assist/record"
	"mafia/engine"
)

type reply struct {
	Error  *struct{ Code, Message string }
	Events []struct {
		Kind   string
		Result string
	}
	State    *record.State
	Commands []record.Command
}

func decode(t *testing.T, s string) reply {
	t.Helper()
	var r reply
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return r
}

const settings = `{"names":["A","B","C","D","E","F","G"],"roles":["citizen","don","citizen","mafia","detective","doctor","citizen"],
	"seed":"0","options":{},"timings":{"speech":60,"defence":30,"tie_speech":30,"last_words":60},"deal":"manual"}`

func TestStartApplyAndTheEnginesRefusalsInThePagesLanguage(t *testing.T) {
	b := bridge.New()
	r := decode(t, b.Start(settings, ""))
	if r.Error != nil || len(r.Events) != 2 || r.State.Phase != "night" || len(r.State.Night.Wakes) != 4 {
		t.Fatalf("start: %+v", r)
	}
	r = decode(t, b.Apply(`{"id":"a","seq":0,"verb":"check","by":2,"target":5}`))
	if r.Error != nil || r.Events[0].Kind != "checked" || r.Events[0].Result != "detective" {
		t.Fatalf("the Don's check: %+v", r)
	}
	if got := b.SetLang("ru"); got != "ru" {
		t.Fatalf("lang %q", got)
	}
	r = decode(t, b.Apply(`{"id":"b","seq":1,"verb":"kill","by":2,"target":4}`))
	if r.Error == nil || r.Error.Code != "target_is_mafia" || !strings.Contains(r.Error.Message, "мафи") {
		t.Fatalf("a refusal in Russian: %+v", r.Error)
	}
	c := decode(t, b.Check(`{"verb":"heal","by":6,"target":6}`))
	if c.Error != nil {
		t.Fatalf("the doctor may heal himself: %+v", c.Error)
	}
	// Replaying the entries rebuilds the same game.
	r = decode(t, b.Start(settings, `[{"id":"a","seq":0,"verb":"check","by":2,"target":5}]`))
	if len(r.Events) != 3 || !r.State.Night.Wakes[1].Acted {
		t.Fatalf("replay: %+v", r)
	}
	// A refused entry in the list stands the game before it, with the refusal.
	r = decode(t, b.Start(settings, `[{"id":"a","seq":0,"verb":"vote","by":1,"target":2}]`))
	if r.Error == nil || r.Error.Code != "wrong_phase" || len(r.Events) != 2 {
		t.Fatalf("a bad list: %+v", r)
	}
}

func TestSentencesNamesAndSetups(t *testing.T) {
	b := bridge.New()
	b.SetLang("ka")
	if got := b.T("assist.who", `{"Seat":7,"Name":"ნინო"}`); got != "7\u00a0·\u00a0ნინო" {
		t.Errorf("who: %q", got)
	}
	if got := b.Name("role", "don"); got != "დონი" {
		t.Errorf("role: %q", got)
	}
	b.SetLang("ru")
	if got := b.Plural("assist.fouls.count", 3, ""); got != "3 фола" {
		t.Errorf("plural: %q", got)
	}
	if got := b.SetLang("fr"); got != "en" {
		t.Errorf("an unknown language gives %q", got)
	}
	var p struct {
		Roles    []string
		Summary  string
		Warnings []string
		Error    *struct{ Code string }
	}
	_ = json.Unmarshal([]byte(b.Preset(11)), &p)
	if len(p.Roles) != 11 || p.Summary == "" || p.Error != nil {
		t.Errorf("preset 11: %+v", p)
	}
	_ = json.Unmarshal([]byte(b.Setup(`{"don":1,"maniac":1,"detective":1,"citizen":3}`)), &p)
	if p.Error != nil || len(p.Warnings) != 1 {
		t.Errorf("a maniac at 6 warns: %+v", p)
	}
	p.Error = nil
	_ = json.Unmarshal([]byte(b.Setup(`{"don":1,"mafia":2,"citizen":2}`)), &p)
	if p.Error == nil || p.Error.Code != "mafia_majority" {
		t.Errorf("a mafia majority: %+v", p.Error)
	}
	var opts []struct {
		Name, Default string
		Values        []string
	}
	_ = json.Unmarshal([]byte(b.Options()), &opts)
	if len(opts) != len(engine.Options) || opts[0].Name != "first_night" || opts[0].Default != "full" {
		t.Errorf("options: %+v", opts)
	}
}

func TestMafiaEntries(t *testing.T) {
	b := bridge.New()
	decode(t, b.Start(settings, ""))
	r := decode(t, b.Mafia(7))
	if len(r.Commands) != 1 || r.Commands[0].Verb != "kill" || r.Commands[0].By != 2 || r.Commands[0].Target != 7 {
		t.Errorf("kill: %+v", r.Commands)
	}
	r = decode(t, b.Mafia(0))
	if len(r.Commands) != 1 || r.Commands[0].Verb != "skip" || r.Commands[0].By != 4 {
		t.Errorf("a miss: %+v", r.Commands)
	}
}

// TestTheStateCarriesTheStepAndAStaleEntryIsRefused: the page's state
// carries the step number, and an entry made for a step that has passed
// (a second tap on a control drawn for it) is refused with stale_step in
// the page's language and changes nothing.
func TestTheStateCarriesTheStepAndAStaleEntryIsRefused(t *testing.T) {
	b := bridge.New()
	r := decode(t, b.Start(settings, ""))
	if r.State.Step != 1 {
		t.Fatalf("night 1 is step %d, want 1", r.State.Step)
	}
	r = decode(t, b.Apply(`{"id":"a","seq":0,"verb":"next","step":1}`))
	if r.Error != nil || r.State.Step <= 1 {
		t.Fatalf("the morning: %+v", r)
	}
	now := r.State.Step
	b.SetLang("ka")
	r = decode(t, b.Apply(`{"id":"b","seq":1,"verb":"next","step":1}`))
	if r.Error == nil || r.Error.Code != "stale_step" || !isGeorgian(r.Error.Message) {
		t.Fatalf("a second next for night 1: %+v", r.Error)
	}
	if st := decode(t, b.State()).State; st.Step != now {
		t.Fatalf("the refused entry moved the game to step %d", st.Step)
	}
	r = decode(t, b.Apply(`{"id":"b","seq":1,"verb":"next","step":`+strconv.Itoa(now)+`}`))
	if r.Error != nil || r.State.Step != now+1 {
		t.Fatalf("the next for the step now: %+v", r)
	}
}

func isGeorgian(s string) bool {
	for _, c := range s {
		if c >= 0x10D0 && c <= 0x10FF {
			return true
		}
	}
	return false
}
