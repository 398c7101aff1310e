package wire

import (
	"encoding/json"
	"slices"
	"testing"
)

// alwaysPresent is docs/protocol.md's one rule of zero values, as the
// encoder must follow it: a field is left out when it is its zero value,
// except these, which are always present. (The schema,
// docs/protocol.schema.json, requires exactly these.)
var alwaysPresent = map[string][]string{
	"message":    {"v", "type"},
	"event":      {"kind", "round"},
	"view":       {"seat", "players", "phase", "round", "step", "candidates", "victims", "seats", "legal", "rules"},
	"view seat":  {"seat", "alive", "fouls"},
	"night":      {},
	"legal":      {},
	"lobby":      {"table", "name", "public", "status", "players", "seats", "rules", "timings_ms"},
	"lobby seat": {"seat", "taken", "connected"},
	"talk day":   {"round", "statements"},
	"statement":  {"by", "phase", "verb"},
	"chat line":  {"channel", "from", "name", "text", "now", "round", "phase"},
}

// keys returns an encoded object's keys, sorted.
func keys(t *testing.T, what string, b []byte) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v: %s", what, err, b)
	}
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

// TestZeroValues_OmittedExceptTheNamedAlwaysPresent: every server-side
// shape encoded with all its fields zero carries exactly the named fields
// (and those of the exceptions below when their condition holds).
func TestZeroValues_OmittedExceptTheNamedAlwaysPresent(t *testing.T) {
	zero := 0
	no := false
	cases := []struct {
		name string
		b    []byte
		want []string
	}{
		{"message", func() []byte { m := ServerMessage{}; return m.AppendJSON(nil) }(), alwaysPresent["message"]},
		{"event", func() []byte { e := Event{}; return e.AppendJSON(nil) }(), alwaysPresent["event"]},
		{"all-vote event: yes false is present", func() []byte { e := Event{Kind: "all_vote_cast", Yes: &no}; return e.AppendJSON(nil) }(), append(slices.Clone(alwaysPresent["event"]), "yes")},
		{"view", func() []byte {
			v := View{Seats: []Seat{}, Candidates: []int{}, Victims: []int{}}
			return v.AppendJSON(nil)
		}(), alwaysPresent["view"]},
		{"view seat", func() []byte { s := Seat{}; return s.appendJSON(nil) }(), alwaysPresent["view seat"]},
		{"night", func() []byte { n := Night{}; return n.appendJSON(nil) }(), alwaysPresent["night"]},
		{"the maniac's night: shots_left 0 is present", func() []byte { n := Night{Shots: &zero}; return n.appendJSON(nil) }(), []string{"shots_left"}},
		{"legal", func() []byte { l := Legal{}; return l.appendJSON(nil) }(), alwaysPresent["legal"]},
		{"talk day", func() []byte { d := TalkDay{Statements: []Statement{}}; return d.appendJSON(nil) }(), alwaysPresent["talk day"]},
		{"statement", func() []byte { s := Statement{}; return s.appendJSON(nil) }(), alwaysPresent["statement"]},
		{"lobby", func() []byte { l := Lobby{Seats: []SeatInfo{{}}}; return l.AppendJSON(nil) }(), alwaysPresent["lobby"]},
		{"chat line", func() []byte { l := ChatLine{}; return l.AppendJSON(nil) }(), alwaysPresent["chat line"]},
	}
	for _, c := range cases {
		if got, want := keys(t, c.name, c.b), sorted(c.want); !slices.Equal(got, want) {
			t.Errorf("%s with zero fields has %v, want exactly %v: %s", c.name, got, want, c.b)
		}
	}
	var l struct {
		Seats []map[string]any `json:"seats"`
	}
	lb := Lobby{Seats: []SeatInfo{{}}}
	if err := json.Unmarshal(lb.AppendJSON(nil), &l); err != nil {
		t.Fatal(err)
	}
	var got []string
	for k := range l.Seats[0] {
		got = append(got, k)
	}
	if slices.Sort(got); !slices.Equal(got, sorted(alwaysPresent["lobby seat"])) {
		t.Errorf("a lobby seat with zero fields has %v, want %v", got, alwaysPresent["lobby seat"])
	}
}
