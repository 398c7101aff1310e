package server

import (
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// cutFrame is a real frame (an update of a last word's best move), whose
// view, seats, statements, events and rules are each a split entry's part.
const cutFrame = `{"v":1,"type":"update","seat":1,"seq":9,"events":[{"kind":"statement","round":1,"phase":"last_words","actor":2,"verb":"best_move","seats":[1,3,4]}],"view":{"seat":1,"players":7,"phase":"last_words","round":1,"step":2,"speaker":2,"role":"don","candidates":[],"talk":[{"round":1,"statements":[{"by":2,"phase":"last_words","verb":"best_move","guess":[1,3,4]}]}],"victims":[2],"seats":[{"seat":1,"alive":true,"fouls":0,"role":"don","team":"mafia"},{"seat":2,"alive":false,"fouls":0},{"seat":3,"alive":true,"fouls":0},{"seat":4,"alive":true,"fouls":0},{"seat":5,"alive":true,"fouls":0},{"seat":6,"alive":true,"fouls":0},{"seat":7,"alive":true,"fouls":0,"role":"mafia","team":"mafia"}],"legal":{},"rules":{"doctor_repeat":"once_per_game","first_night":"full","foul_limit":"4","last_words":"on","mafia_kill":"senior","maniac_check":"not_mafia","maniac_vs_mafia_1x1":"maniac","reveal_on_death":"none","round_limit":"30","second_tie":"ask"}},"deadline":1796611681640,"now":1796608082104}`

// TestSchemaCut_AWrongPartIsRefusedAfterTheRightOneWasSeen holds the frame
// check's cut schema (schemamemo_test.go) to the whole one: the schema
// splits at the parts the frames repeat, a frame that fits is taken, and
// then the same frame with one part wrong, deep in a part already seen
// right (a seat, a statement, an event, the rules, a top-level field, or
// the view itself), is refused, by the cut schema as by the whole.
func TestSchemaCut_AWrongPartIsRefusedAfterTheRightOneWasSeen(t *testing.T) {
	whole, err := schemaDef("server_message")
	if err != nil {
		t.Fatal(err)
	}
	if schemaCut == nil {
		t.Fatal("the schema is not taken apart: every frame would be held to it whole (slower, as before)")
	}
	for _, d := range []string{"server_message", "view", "view_seat", "event", "talk_day", "rules"} {
		if !schemaCut.split[d] {
			t.Errorf("%s is not split", d)
		}
	}
	sm, err := newSchemaMemo(schemaDocForTest(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := sm.check("server_message", []byte(cutFrame), false); err != nil {
		t.Fatalf("the frame does not fit: %v", err)
	}
	if err := validateWhole(whole, []byte(cutFrame)); err != nil {
		t.Fatalf("the frame does not fit the whole schema: %v", err)
	}
	for _, c := range []struct{ what, from, to string }{
		{"a seat's fouls", `{"seat":4,"alive":true,"fouls":0}`, `{"seat":4,"alive":true,"fouls":-1}`},
		{"a seat's unknown field", `{"seat":5,"alive":true,"fouls":0}`, `{"seat":5,"alive":true,"fouls":0,"card":"don"}`},
		{"a seat's team", `"role":"mafia","team":"mafia"}`, `"role":"mafia","team":"mafiosi"}`},
		{"a statement's verb", `"verb":"best_move","guess"`, `"verb":"best_mov","guess"`},
		{"an event's seats", `"seats":[1,3,4]}]`, `"seats":[1,3,"4"]}]`},
		{"a rule", `"second_tie":"ask"`, `"second_tie":""`},
		{"the view's phase", `"players":7,"phase":"last_words"`, `"players":7,"phase":"lastwords"`},
		{"the view's seats", `"seats":[{"seat":1`, `"seats":[{"seat":0`},
		{"the frame's now", `"now":1796608082104`, `"now":0`},
		{"the frame's kind", `"type":"update"`, `"type":"welcome"`},
		{"the frame's events", `"events":[{"kind":"statement","round":1,"phase":"last_words","actor":2,"verb":"best_move","seats":[1,3,4]}]`, `"events":[]`},
	} {
		bad := strings.Replace(cutFrame, c.from, c.to, 1)
		if bad == cutFrame {
			t.Fatalf("%s: %q is not in the frame", c.what, c.from)
		}
		cutErr := sm.check("server_message", []byte(bad), false)
		wholeErr := validateWhole(whole, []byte(bad))
		if cutErr == nil || wholeErr == nil {
			t.Errorf("%s wrong: the cut schema says %v, the whole %v", c.what, cutErr, wholeErr)
		}
		if err := validate("server_message", []byte(bad)); err == nil {
			t.Errorf("%s wrong: validate takes it", c.what)
		}
	}
	if err := sm.check("server_message", []byte(cutFrame), false); err != nil {
		t.Fatalf("the frame, once more: %v", err)
	}
}

// schemaDocForTest parses the schema's file.
func schemaDocForTest(t *testing.T) any {
	t.Helper()
	f, err := os.Open(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
