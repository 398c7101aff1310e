package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// marshalNoHTML is encoding/json's encoding of v with SetEscapeHTML(false),
// the bytes package wire writes.
func marshalNoHTML(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// sameAsEncodingJSON fails the test unless m's AppendJSON is byte for byte
// encoding/json's encoding of m (without HTML escaping).
func sameAsEncodingJSON(t interface {
	Helper()
	Fatal(...any)
	Fatalf(string, ...any)
}, m *ServerMessage) {
	t.Helper()
	want, err := marshalNoHTML(m)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.AppendJSON(nil); !bytes.Equal(got, want) {
		t.Fatalf("AppendJSON differs from encoding/json\n got %s\nwant %s", got, want)
	}
}

func randomRuleset(src *rng.Source) engine.Ruleset {
	r := engine.DefaultRules()
	for _, o := range engine.Options {
		v := fmt.Sprint(o.Min + src.Intn(o.Max-o.Min+1))
		if o.Values != nil {
			v = o.Values[src.Intn(len(o.Values))]
		}
		if err := r.Set(o.Name, v); err != nil {
			panic(err)
		}
	}
	return r
}

// TestAppend_IsEncodingJSON plays whole games and encodes every frame the
// room would send (each seat's events and view, the spectator's, the
// host's, with and without a lobby) both ways.
func TestAppend_IsEncodingJSON(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 15
	}
	frames := 0
	for i := range games {
		src := rng.New(uint64(i) + 1)
		n := 5 + src.Intn(7)
		setup, err := engine.Preset(n)
		if err != nil {
			t.Fatal(err)
		}
		rules := randomRuleset(&src)
		g, start, err := engine.New(rules, setup.Deal(uint64(i), make([]engine.Role, n)), uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		lobby := &Lobby{Table: "t<&>", Name: "Tbilisi \u2028 \"club\"\n", Public: i%2 == 0, Status: "playing",
			Players: n, Rules: rules.Map(), Timings: map[string]int64{"speech": 60000, "night": 30000}, Paused: i%3 == 0, Sandbox: i%4 == 1}
		for s := 1; s <= n; s++ {
			lobby.Seats = append(lobby.Seats, SeatInfo{Seat: s, Name: fmt.Sprintf("ნინო %d", s), Bot: s%2 == 0, Taken: true, Connected: s%3 != 0})
		}
		bots := make([]bot.Bot, n+1)
		for s := 1; s <= n; s++ {
			bots[s] = newTalker(uint64(i*100 + s))
		}
		var v engine.View
		var scratch ViewScratch
		var reused View
		wrules := NewRules(rules)
		emit := func(evs []engine.Event) {
			for s := engine.Seat(0); s <= engine.Seat(n); s++ {
				m := ServerMessage{V: Version, Type: "update", Seat: int(s), Seq: frames, Deadline: 1700000000000, Now: 1699999990000}
				for _, e := range evs {
					if ev, ok := g.EventFor(e, s); ok {
						m.Events = append(m.Events, FromEvent(ev, n))
					}
				}
				g.ViewInto(&v, s)
				w := FromView(&v)
				if w.Step != g.Step() || w.Step < 1 {
					t.Fatalf("seat %d's view has step %d, the game %d", s, w.Step, g.Step())
				}
				m.View = &w
				// A room reuses one scratch for every view: the result
				// must not depend on the views converted before.
				scratch.Into(&reused, &v, wrules)
				if a, b := reused.AppendJSON(nil), w.AppendJSON(nil); !bytes.Equal(a, b) {
					t.Fatalf("a view converted with reused memory differs\n got %s\nwant %s", a, b)
				}
				if s%2 == 0 {
					m.Lobby = lobby
				}
				sameAsEncodingJSON(t, &m)
				frames++
			}
			hv := g.HostView()
			hw := FromView(&hv)
			sameAsEncodingJSON(t, &ServerMessage{V: Version, Type: "welcome", Host: true, View: &hw, Lobby: lobby})
		}
		emit(start)
		tbl := &bot.Table{Game: g, Bots: bots, OnEvents: func(_ engine.Command, evs []engine.Event) { emit(evs) }}
		tbl.Play(500)
	}
	if frames < 1000 {
		t.Fatalf("only %d frames compared", frames)
	}
}

// TestAppend_IsEncodingJSONForAnyValues draws every field at random,
// strings with any bytes (HTML, control characters, U+2028, invalid UTF-8).
func TestAppend_IsEncodingJSONForAnyValues(t *testing.T) {
	str := rapid.OneOf(rapid.String(), rapid.StringOf(rapid.RuneFrom([]rune{'<', '>', '&', '"', '\\', '\b', '\f', '\n', '\r', '\t', 0, 0x1f, 0x7f, '\u2028', '\u2029', 'ქ', 'я', '😀'})),
		rapid.Custom(func(t *rapid.T) string { return string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")) }))
	ints := rapid.OneOf(rapid.Just[[]int](nil), rapid.SliceOfN(rapid.IntRange(-3, 300), 0, 5))
	strs := rapid.OneOf(rapid.Just[[]string](nil), rapid.SliceOfN(str, 0, 3))
	smap := rapid.OneOf(rapid.Just[map[string]string](nil), rapid.MapOfN(str, str, 0, 4))
	small := rapid.IntRange(-2, 20)
	cov := newFieldCoverage(reflect.TypeFor[ServerMessage]())
	checkCovering(t, cov, func(t *rapid.T) {
		m := ServerMessage{V: rapid.IntRange(0, 2).Draw(t, "v"), Type: str.Draw(t, "type"), ID: rapid.Int64().Draw(t, "id"),
			Seat: small.Draw(t, "seat"), Host: rapid.Bool().Draw(t, "host"), Seq: rapid.Int().Draw(t, "seq"),
			Deadline: rapid.Int64().Draw(t, "deadline"), Paused: rapid.Bool().Draw(t, "paused"), Now: rapid.Int64().Draw(t, "now"),
			Code: str.Draw(t, "code"), Message: str.Draw(t, "message"), Channel: str.Draw(t, "channel"),
			From: small.Draw(t, "from"), Name: str.Draw(t, "name"), Text: str.Draw(t, "text"), Before: small.Draw(t, "before")}
		botLine := func(name string) *BotLine {
			if !rapid.Bool().Draw(t, name) {
				return nil
			}
			return &BotLine{Kind: str.Draw(t, name+" kind"), Seat: small.Draw(t, name+" seat"), Role: str.Draw(t, name+" role"),
				Result: str.Draw(t, name+" result"), Count: small.Draw(t, name+" count"), Pick: small.Draw(t, name+" pick"),
				More: ints.Draw(t, name+" more"), Voice: rapid.Bool().Draw(t, name+" voice")}
		}
		m.Bot = botLine("bot")
		for range rapid.IntRange(0, 3).Draw(t, "lines") {
			m.Lines = append(m.Lines, ChatLine{Channel: str.Draw(t, "line channel"), From: small.Draw(t, "line from"),
				Name: str.Draw(t, "line name"), Text: str.Draw(t, "line text"), Now: rapid.Int64().Draw(t, "line now"),
				Round: small.Draw(t, "line round"), Phase: str.Draw(t, "line phase"), Bot: botLine("line bot")})
		}
		for range rapid.IntRange(0, 3).Draw(t, "events") {
			e := Event{Kind: str.Draw(t, "kind"), Round: small.Draw(t, "round"), Phase: str.Draw(t, "phase"),
				Actor: small.Draw(t, "actor"), Target: small.Draw(t, "target"), Verb: str.Draw(t, "verb"), Result: str.Draw(t, "result"),
				Cause: str.Draw(t, "cause"), Winner: str.Draw(t, "winner"), Role: str.Draw(t, "role"), Team: str.Draw(t, "team"),
				Fouls: small.Draw(t, "fouls"), Players: small.Draw(t, "players"), Seats: ints.Draw(t, "seats"),
				Roles: strs.Draw(t, "roles"), Ballot: ints.Draw(t, "ballot"), Candidates: ints.Draw(t, "candidates"),
				Seed: str.Draw(t, "seed"), Rules: smap.Draw(t, "rules")}
			if rapid.Bool().Draw(t, "has_yes") {
				y := rapid.Bool().Draw(t, "yes")
				e.Yes = &y
			}
			m.Events = append(m.Events, e)
		}
		if rapid.Bool().Draw(t, "has_view") {
			v := View{Seat: small.Draw(t, "vseat"), Players: small.Draw(t, "players"), Phase: str.Draw(t, "phase"),
				Round: small.Draw(t, "round"), Step: rapid.Int().Draw(t, "step"), Speaker: small.Draw(t, "speaker"), Winner: str.Draw(t, "winner"),
				Role: str.Draw(t, "role"), Candidates: ints.Draw(t, "candidates"), Nominated: rapid.Bool().Draw(t, "nominated"),
				Victims: ints.Draw(t, "victims"), Voted: rapid.Bool().Draw(t, "voted"), MyVote: small.Draw(t, "my_vote"),
				MyYes: rapid.Bool().Draw(t, "my_yes"),
				Legal: Legal{Kill: ints.Draw(t, "kill"), Check: ints.Draw(t, "check"), Shoot: ints.Draw(t, "shoot"),
					Heal: ints.Draw(t, "heal"), Nominate: ints.Draw(t, "nominate"), Vote: ints.Draw(t, "vote"),
					Skip: rapid.Bool().Draw(t, "skip"), AllVote: rapid.Bool().Draw(t, "all_vote"), Pass: rapid.Bool().Draw(t, "pass"),
					Claim: rapid.Bool().Draw(t, "claim"), Report: ints.Draw(t, "report"), Suspect: ints.Draw(t, "suspect"),
					Vouch: ints.Draw(t, "vouch"), WillNominate: ints.Draw(t, "will_nominate"),
					BestMove: rapid.Bool().Draw(t, "best_move")}}
			for range rapid.IntRange(0, 2).Draw(t, "days") {
				d := TalkDay{Round: small.Draw(t, "day")}
				if rapid.Bool().Draw(t, "has_statements") {
					d.Statements = []Statement{}
					for range rapid.IntRange(0, 3).Draw(t, "nstatements") {
						d.Statements = append(d.Statements, Statement{By: small.Draw(t, "by"), Phase: str.Draw(t, "sphase"),
							Verb: str.Draw(t, "sverb"), Target: small.Draw(t, "starget"), Role: str.Draw(t, "srole"),
							Result: str.Draw(t, "sresult"), Guess: ints.Draw(t, "sguess")})
					}
				}
				v.Talk = append(v.Talk, d)
			}
			if rapid.Bool().Draw(t, "has_rules") {
				src := rng.New(rapid.Uint64().Draw(t, "rules_seed"))
				v.Rules = NewRules(randomRuleset(&src))
			}
			if rapid.Bool().Draw(t, "has_seats") {
				v.Seats = []Seat{}
				for range rapid.IntRange(0, 3).Draw(t, "nseats") {
					v.Seats = append(v.Seats, Seat{Seat: small.Draw(t, "s"), Alive: rapid.Bool().Draw(t, "alive"),
						Fouls: small.Draw(t, "fouls"), LostSpeech: rapid.Bool().Draw(t, "lost"), Role: str.Draw(t, "role"),
						Team: str.Draw(t, "team"), Check: str.Draw(t, "check"), Choice: small.Draw(t, "choice"), Vote: small.Draw(t, "vote")})
				}
			}
			if rapid.Bool().Draw(t, "has_night") {
				n := &Night{Kill: small.Draw(t, "kill"), Check: small.Draw(t, "check"), Shot: small.Draw(t, "shot"),
					Heal: small.Draw(t, "heal"), Skip: rapid.Bool().Draw(t, "skip"), Healed: ints.Draw(t, "healed"),
					Banned: small.Draw(t, "banned")}
				if rapid.Bool().Draw(t, "has_shots") {
					s := small.Draw(t, "shots")
					n.Shots = &s
				}
				v.Night = n
			}
			m.View = &v
		}
		if rapid.Bool().Draw(t, "has_lobby") {
			l := Lobby{Table: str.Draw(t, "table"), Name: str.Draw(t, "lname"), Public: rapid.Bool().Draw(t, "public"),
				Status: str.Draw(t, "status"), Players: small.Draw(t, "lplayers"), Rules: smap.Draw(t, "lrules"),
				Paused: rapid.Bool().Draw(t, "lpaused"), PauseReason: str.Draw(t, "pause_reason"), RulesCode: str.Draw(t, "rules_code"),
				Sandbox: rapid.Bool().Draw(t, "lsandbox"), Rated: rapid.Bool().Draw(t, "lrated"), Voice: str.Draw(t, "lvoice"), Bots: str.Draw(t, "lbots"), Pace: str.Draw(t, "lpace"),
				StandInMS: rapid.Int64().Draw(t, "lstandin")}
			if rapid.Bool().Draw(t, "has_owner") {
				l.Owner = &TableOwner{Node: str.Draw(t, "onode"), URL: str.Draw(t, "ourl")}
			}
			if rapid.Bool().Draw(t, "has_timings") {
				l.Timings = rapid.MapOfN(str, rapid.Int64(), 0, 4).Draw(t, "timings")
			}
			if rapid.Bool().Draw(t, "has_lseats") {
				l.Seats = []SeatInfo{}
				for range rapid.IntRange(0, 3).Draw(t, "nlseats") {
					l.Seats = append(l.Seats, SeatInfo{Seat: small.Draw(t, "s"), Name: str.Draw(t, "n"), Bot: rapid.Bool().Draw(t, "bot"),
						Taken: rapid.Bool().Draw(t, "taken"), Connected: rapid.Bool().Draw(t, "conn"), StandIn: rapid.Bool().Draw(t, "standin"),
						Account: rapid.Bool().Draw(t, "account"), BotAccount: rapid.Bool().Draw(t, "botaccount"), Owner: str.Draw(t, "owner")})
				}
			}
			m.Lobby = &l
		}
		cov.add(&m)
		sameAsEncodingJSON(t, &m)
	})
}

// TestRules_RoundTrip pins that a view's rules decode to what they were.
func TestRules_RoundTrip(t *testing.T) {
	src := rng.New(7)
	r := NewRules(randomRuleset(&src))
	b, err := json.Marshal(View{Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	var v View
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for k, want := range r.Map() {
		if got := v.Rules.Get(k); got != want {
			t.Errorf("rule %s: %q after a round trip, want %q", k, got, want)
		}
	}
	if len(v.Rules.Map()) != len(engine.Options) {
		t.Errorf("%d rules after a round trip, want %d", len(v.Rules.Map()), len(engine.Options))
	}
}

func BenchmarkEncodeUpdate(b *testing.B) {
	setup, _ := engine.Preset(11)
	g, _, _ := engine.New(engine.DefaultRules(), setup.Deal(1, make([]engine.Role, 11)), 1)
	var v engine.View
	g.ViewInto(&v, 3)
	w := FromView(&v)
	m := ServerMessage{Type: "update", Seat: 3, Seq: 40, View: &w, Deadline: 1700000000000, Now: 1699999990000,
		Events: []Event{{Kind: "speech", Round: 1, Actor: 3}}}
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = Encode(m)
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = json.Marshal(m)
		}
	})
}

// TestClientMessageAppend_IsEncodingJSON: a client's frame encoded field by
// field is encoding/json's, for any values (strings with any bytes).
func TestClientMessageAppend_IsEncodingJSON(t *testing.T) {
	str := rapid.OneOf(rapid.String(), rapid.StringOf(rapid.RuneFrom([]rune{'<', '>', '&', '"', '\\', '\n', 0, 0x7f, '\u2028', 'ქ', 'я'})),
		rapid.Custom(func(t *rapid.T) string { return string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")) }))
	cov := newFieldCoverage(reflect.TypeFor[ClientMessage]())
	checkCovering(t, cov, func(t *rapid.T) {
		m := ClientMessage{V: rapid.IntRange(-1, 2).Draw(t, "v"), Type: str.Draw(t, "type"), ID: rapid.Int64().Draw(t, "id"),
			Verb: str.Draw(t, "verb"), Target: rapid.Int().Draw(t, "target"), Yes: rapid.Bool().Draw(t, "yes"),
			Role: str.Draw(t, "role"), Result: str.Draw(t, "result"), Channel: str.Draw(t, "channel"), Text: str.Draw(t, "text"), Action: str.Draw(t, "action"),
			Step: rapid.Int().Draw(t, "step"), Before: rapid.Int().Draw(t, "before"),
			Guess: rapid.OneOf(rapid.Just[[]int](nil), rapid.SliceOfN(rapid.IntRange(-3, 300), 0, 5)).Draw(t, "guess"),
			Mic:   rapid.Bool().Draw(t, "mic"), SDP: str.Draw(t, "sdp"), Seat: rapid.Int().Draw(t, "seat")}
		if rapid.Bool().Draw(t, "has candidate") {
			c := &VoiceCandidate{Candidate: str.Draw(t, "candidate")}
			if rapid.Bool().Draw(t, "has mid") {
				mid := str.Draw(t, "mid")
				c.SDPMid = &mid
			}
			if rapid.Bool().Draw(t, "has index") {
				i := rapid.Uint16().Draw(t, "index")
				c.SDPMLineIndex = &i
			}
			if rapid.Bool().Draw(t, "has ufrag") {
				u := str.Draw(t, "ufrag")
				c.UsernameFragment = &u
			}
			m.Candidate = c
		}
		want, err := marshalNoHTML(m)
		if err != nil {
			t.Fatal(err)
		}
		cov.add(&m)
		if got := m.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON differs from encoding/json\n got %s\nwant %s", got, want)
		}
	})
}

// TestAppend_NoHTMLEscaping pins that frames carry <, > and & as they are:
// a name made of them is as long in the frame as it is, and reads back
// unchanged. (encoding/json's default, \u003c for <, made such a name six
// times as long in every frame that carries it.)
func TestAppend_NoHTMLEscaping(t *testing.T) {
	name := "<b>Tom & Jerry</b> <<<>>>&&&"
	l := Lobby{Table: "t", Name: name, Seats: []SeatInfo{{Seat: 1, Name: name, Taken: true}}}
	m := ServerMessage{Type: "chat", Name: name, Text: name, Lobby: &l}
	frame := Encode(m)
	if want := `"name":"` + name + `"`; !bytes.Contains(frame, []byte(want)) {
		t.Fatalf("the frame does not carry the name as it is (%s):\n%s", want, frame)
	}
	if bytes.Contains(frame, []byte(`\u003c`)) || bytes.Contains(frame, []byte(`\u0026`)) {
		t.Fatalf("the frame escapes HTML:\n%s", frame)
	}
	var back ServerMessage
	if err := json.Unmarshal(frame, &back); err != nil {
		t.Fatal(err)
	}
	if back.Name != name || back.Text != name || back.Lobby.Name != name || back.Lobby.Seats[0].Name != name {
		t.Fatalf("read back %+v", back)
	}
	c := ClientMessage{V: Version, Type: "chat", Channel: "town", Text: name}
	if got := string(c.AppendJSON(nil)); got != `{"v":1,"type":"chat","channel":"town","text":"`+name+`"}` {
		t.Fatalf("a client's frame escapes HTML: %s", got)
	}
}
