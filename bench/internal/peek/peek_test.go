package peek

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
	"mafia/wire"
)

// jsonView is what a bench seat read from a frame before View: the view's
// phase, step and legal moves by encoding/json.
func jsonView(data []byte) (v wire.View, ok bool) {
	var m struct {
		View *struct {
			Phase string     `json:"phase"`
			Step  int        `json:"step"`
			Legal wire.Legal `json:"legal"`
		} `json:"view"`
	}
	if json.Unmarshal(data, &m) != nil || m.View == nil {
		return v, false
	}
	// The walker reads the moves the bench plays: its bots make no
	// statements, so those are not read (as the walker leaves them).
	l := m.View.Legal
	l.Claim, l.Report, l.Suspect, l.Vouch, l.WillNominate, l.BestMove = false, nil, nil, nil, nil, false
	return wire.View{Phase: m.View.Phase, Step: m.View.Step, Legal: l}, true
}

// jsonReply is a reply's type, id and code by encoding/json.
func jsonReply(data []byte) (typ string, id int64, code string, ok bool) {
	var m struct {
		Type string `json:"type"`
		ID   int64  `json:"id"`
		Code string `json:"code"`
	}
	if json.Unmarshal(data, &m) != nil {
		return "", 0, "", false
	}
	return m.Type, m.ID, m.Code, true
}

// samePeek fails unless the walker, when it reads a frame, reads it as
// encoding/json does, and then only a frame encoding/json finds valid.
func samePeek(t testing.TB, data []byte) (viewOK, replyOK bool) {
	t.Helper()
	if v, ok := View(data); ok {
		viewOK = true
		jv, jok := jsonView(data)
		if !json.Valid(data) || !jok || !reflect.DeepEqual(v, jv) {
			t.Fatalf("%q: walker read a view %+v, encoding/json %+v (ok %v, valid %v)",
				data, v, jv, jok, json.Valid(data))
		}
	}
	if ty, id, code, ok := Reply(data); ok {
		replyOK = true
		jt, jid, jcode, jok := jsonReply(data)
		if !json.Valid(data) || !jok || ty != jt || id != jid || code != jcode {
			t.Fatalf("%q: walker read %q %d %q, encoding/json %q %d %q (ok %v, valid %v)",
				data, ty, id, code, jt, jid, jcode, jok, json.Valid(data))
		}
	}
	return viewOK, replyOK
}

// TestPeek_ReadsServerFramesAsEncodingJSON encodes every frame a room sends
// over whole games (each seat's events and view, lobby and deadline
// included), and the replies and errors: the walker reads every one of
// them (the fast path is the path), and as encoding/json does.
func TestPeek_ReadsServerFramesAsEncodingJSON(t *testing.T) {
	frames := 0
	for i := range 12 {
		src := rng.New(uint64(i) + 1)
		n := 7 + src.Intn(5)
		setup, err := engine.Preset(n)
		if err != nil {
			t.Fatal(err)
		}
		rules := engine.DefaultRules()
		g, start, err := engine.New(rules, setup.Deal(uint64(i), make([]engine.Role, n)), uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		lobby := &wire.Lobby{Table: "t1", Name: "bench \"club\" \\ view:{", Status: "playing", Players: n,
			Rules: rules.Map(), Timings: map[string]int64{"speech": 10000, "night": 1000, "vote": 3000}}
		bots := make([]bot.Bot, n+1)
		for s := 1; s <= n; s++ {
			bots[s] = bot.NewRandom(uint64(i*100 + s))
			lobby.Seats = append(lobby.Seats, wire.SeatInfo{Seat: s, Name: fmt.Sprintf(`"legal":{"vote":[%d]}`, s), Taken: true})
		}
		var v engine.View
		emit := func(evs []engine.Event) {
			for s := engine.Seat(0); s <= engine.Seat(n); s++ {
				m := wire.ServerMessage{V: wire.Version, Type: "update", Seat: int(s), Seq: frames, Deadline: 1700000000000, Now: 1699999990000}
				for _, e := range evs {
					if ev, ok := g.EventFor(e, s); ok {
						m.Events = append(m.Events, wire.FromEvent(ev, n))
					}
				}
				g.ViewInto(&v, s)
				w := wire.FromView(&v)
				m.View = &w
				if s%2 == 0 {
					m.Lobby = lobby
				}
				data := m.AppendJSON(nil)
				if viewOK, _ := samePeek(t, data); !viewOK {
					t.Fatalf("the walker did not read a server frame: %s", data)
				}
				frames++
			}
		}
		emit(start)
		tbl := &bot.Table{Game: g, Bots: bots, OnEvents: func(_ engine.Command, evs []engine.Event) { emit(evs) }}
		tbl.Play(500)
	}
	if frames < 1000 {
		t.Fatalf("only %d frames compared", frames)
	}
	for _, m := range []wire.ServerMessage{
		{V: wire.Version, Type: "reply", ID: 7},
		{V: wire.Version, Type: "reply", ID: 1 << 62},
		{V: wire.Version, Type: "error", ID: 12, Code: "not_your_turn", Message: "ეს არ არის შენი რიგი \"id\":9"},
		{V: wire.Version, Type: "error", Code: "rate_limited", Message: "Too many messages"},
	} {
		if _, replyOK := samePeek(t, m.AppendJSON(nil)); !replyOK {
			t.Fatalf("the walker did not read %+v", m)
		}
	}
}

// peekCases are frames the walker must leave to encoding/json (false) or
// may read (true); either way it must agree with it.
var peekCases = []struct {
	name  string
	frame string
	view  bool // the walker reads the view
	reply bool // the walker reads the reply fields
}{
	{"a plain view", `{"v":1,"type":"update","view":{"seat":1,"phase":"vote","legal":{"vote":[2,3],"skip":true}}}`, true, true},
	{"a frame padded with spaces", `{"v":1,"type":"update","view":{"seat":1,"phase":"vote","legal":{"vote":[2,3]}}}` + strings.Repeat(" ", 300), true, true},
	{"a reply padded with spaces", `{"v":1,"type":"reply","id":3}` + strings.Repeat(" ", 483), false, true},
	{"a pad", `{"v":1,"type":"pad"}` + strings.Repeat(" ", 44), false, true},
	{"white space anywhere", " {\"view\" :\n{ \"phase\" : \"day\" , \"legal\" : { \"pass\" : true } } }\t", true, false},
	{"no legal moves", `{"view":{"phase":"night","legal":{}}}`, true, false},
	{"no legal key", `{"view":{"phase":"night"}}`, true, false},
	{"keys inside events are not the view's", `{"events":[{"view":{"phase":"x","legal":{"kill":[1]}}}],"view":{"phase":"day","legal":{"pass":true}}}`, true, false},
	{"keys inside strings are not keys", `{"name":"\",\"view\":{\"phase\":\"x\"}","view":{"phase":"day"}}`, true, false},
	{"a view twice", `{"view":{"phase":"a"},"view":{"phase":"b"}}`, false, false},
	{"a phase twice", `{"view":{"phase":"a","phase":"b"}}`, false, false},
	{"a legal twice", `{"view":{"legal":{"vote":[1]},"legal":{"skip":true}}}`, false, false},
	{"a key in another case", `{"View":{"phase":"a"}}`, false, false},
	{"a key folded in Unicode", "{\"view\":{\"phaſe\":\"a\"}}", false, false},
	{"an escaped key", `{"vi\u0065w":{"phase":"a"}}`, false, false},
	{"an escaped phase", `{"view":{"phase":"d\u0061y"}}`, false, false},
	{"a null view", `{"view":null}`, false, false},
	{"no view", `{"v":1,"type":"reply","id":3}`, false, true},
	{"a phase that is not a string", `{"view":{"phase":1}}`, false, false},
	{"legal moves of the wrong type", `{"view":{"phase":"a","legal":{"vote":"x"}}}`, false, false},
	{"a null legal", `{"view":{"phase":"a","legal":null}}`, false, false},
	{"an empty list of moves", `{"view":{"phase":"a","legal":{"vote":[],"kill":[ 1 , 2 ]}}}`, true, false},
	{"other keys among the moves", `{"view":{"phase":"a","legal":{"other":{"vote":[1]},"pass":true,"all_vote":false}}}`, true, false},
	{"a move key in another case", `{"view":{"phase":"a","legal":{"Vote":[1]}}}`, false, false},
	{"a move list twice", `{"view":{"phase":"a","legal":{"vote":[1],"vote":[2]}}}`, false, false},
	{"a flag twice", `{"view":{"phase":"a","legal":{"pass":true,"pass":false}}}`, false, false},
	{"a null list", `{"view":{"phase":"a","legal":{"vote":null}}}`, false, false},
	{"a null flag", `{"view":{"phase":"a","legal":{"pass":null}}}`, false, false},
	{"a seat that is not an integer", `{"view":{"phase":"a","legal":{"vote":[1.5]}}}`, false, false},
	{"a seat that is a string", `{"view":{"phase":"a","legal":{"vote":["1,2"]}}}`, false, false},
	{"a flag that is a number", `{"view":{"phase":"a","legal":{"skip":1}}}`, false, false},
	{"an error", `{"v":1,"type":"error","id":4,"code":"wrong_phase","message":"Not now"}`, false, true},
	{"an id with a fraction", `{"type":"reply","id":1.0}`, false, false},
	{"an id with an exponent", `{"type":"reply","id":1e3}`, false, false},
	{"an id past int64", `{"type":"reply","id":9223372036854775808}`, false, false},
	{"minus zero", `{"type":"reply","id":-0}`, false, false},
	{"a code with an escape", `{"type":"error","code":"a\"b"}`, false, false},
	{"no type", `{"id":3}`, false, false},
	{"trailing data", `{"view":{"phase":"a"}} x`, false, false},
	{"unclosed", `{"view":{"phase":"a"}`, false, false},
	{"brackets crossed", `{"events":[{]},"view":{"phase":"a"}}`, false, false},
	{"a bad escape", `{"x":"\q","view":{"phase":"a"}}`, false, false},
	{"a short unicode escape", `{"x":"\u12","view":{"phase":"a"}}`, false, false},
	{"a control character in a string", "{\"x\":\"a\nb\",\"view\":{\"phase\":\"a\"}}", false, false},
	{"a bad literal", `{"x":tru,"view":{"phase":"a"}}`, false, false},
	{"a bad number", `{"x":01,"view":{"phase":"a"}}`, false, false},
	{"a number without digits", `{"x":-,"view":{"phase":"a"}}`, false, false},
	{"a trailing comma", `{"x":1,}`, false, false},
	{"nesting past the walker's depth", `{"x":` + nest(70) + `,"view":{"phase":"a"}}`, false, false},
	{"nesting within it", `{"x":` + nest(60) + `,"view":{"phase":"a"}}`, true, false},
	{"not an object", `[1,2]`, false, false},
	{"empty", ``, false, false},
}

func nest(n int) string {
	s := "1"
	for i := range n {
		if i%2 == 0 {
			s = "[" + s + "]"
		} else {
			s = `{"k":` + s + "}"
		}
	}
	return s
}

// TestPeek_LeavesWhatItIsNotSureOfToEncodingJSON pins which frames the
// walker reads itself, and that it then agrees with encoding/json.
func TestPeek_LeavesWhatItIsNotSureOfToEncodingJSON(t *testing.T) {
	for _, c := range peekCases {
		t.Run(c.name, func(t *testing.T) {
			view, reply := samePeek(t, []byte(c.frame))
			if view != c.view || reply != c.reply {
				t.Errorf("walker read the view: %v (want %v), the reply: %v (want %v)", view, c.view, reply, c.reply)
			}
		})
	}
}

// FuzzPeek: whatever the bytes, the walker reads only what encoding/json
// finds valid, and reads it the same.
func FuzzPeek(f *testing.F) {
	for _, c := range peekCases {
		f.Add([]byte(c.frame))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		samePeek(t, data)
	})
}

// BenchmarkPeekView reads a seat's update frame as a bench seat does.
func BenchmarkPeekView(b *testing.B) {
	data := []byte(`{"v":1,"type":"update","seq":40,"events":[{"kind":"speech","round":2,"actor":5}],"view":{"seat":3,"players":11,"phase":"speech","round":2,"step":41,"speaker":5,"role":"citizen","candidates":[2,9],"legal":{"vote":[],"nominate":[1,2,4,6,7,8,9,10,11],"pass":true},"seats":[{"seat":1,"alive":true},{"seat":2,"alive":true,"fouls":1}],"rules":{"first_night":"full"}},"deadline":1796120709603}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := View(data); !ok {
			b.Fatal("not read")
		}
	}
}
