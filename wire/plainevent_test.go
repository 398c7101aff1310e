package wire

import (
	"encoding/json"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// plainEventSeeds are events as a store keeps them (taken from a server's
// file), and texts the plain reader must leave to encoding/json.
var plainEventSeeds = []string{
	`{"kind":"night_began","round":1}`,
	`{"kind":"checked","round":1,"actor":2,"target":9,"result":"mafia"}`,
	`{"kind":"vote_cast","round":2,"actor":3,"target":7,"yes":true}`,
	`{"kind":"vote_began","round":2,"candidates":[4,7,9]}`,
	`{"kind":"game_started","round":0,"players":11,"roles":["doctor","don"],"seed":"10331529070639127635","rules":{"round_limit":"30"}}`,
	`{"kind":"player_out","round":3,"target":5,"cause":"vote","role":"mafia","team":"mafia","seats":[]}`,
	`{"Kind":"speech","round":1}`, `{"kind":"speech", "round":1}`, `{"kind":"sp\u0065ech"}`,
	`{"kind":"speech","round":-0}`, `{"round":1,"round":2}`, `{"yes":null}`, `{"seats":[1,2,]}`, `{}`,
	`{"round":9223372036854775808}`, `{"round":1.0}`, `{"kind":"\xff"}`,
}

// FuzzPlainEventAgreesWithJSON holds the plain reader of stored events to
// encoding/json: for any text it claims, encoding/json reads the same
// Event without an error.
func FuzzPlainEventAgreesWithJSON(f *testing.F) {
	for _, s := range plainEventSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		samePlainEventAndJSON(t, data)
	})
}

func samePlainEventAndJSON(t interface {
	Helper()
	Fatalf(string, ...any)
}, data []byte) bool {
	t.Helper()
	var plain Event
	if !parsePlainEvent(data, &plain) {
		return false
	}
	var want Event
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%q: the plain reader read %+v, encoding/json refuses it: %v", data, plain, err)
	}
	if !reflect.DeepEqual(plain, want) {
		t.Fatalf("%q: the plain reader read %+v, encoding/json %+v", data, plain, want)
	}
	return true
}

// TestPlainEvent_ReadsEveryEventJSONWritesAsEncodingJSONDoes: any Event
// json.Marshal writes, without rules and with strings that need no escape
// (every event the engine makes but a game's first), is read by the plain
// reader, to what encoding/json reads; one with rules or an escaped
// string is left to encoding/json, and UnmarshalEvent's answer is the
// same either way.
func TestPlainEvent_ReadsEveryEventJSONWritesAsEncodingJSONDoes(t *testing.T) {
	plainStr := rapid.StringMatching(`[a-z_0-9]{0,12}`)
	anyStr := rapid.OneOf(plainStr, rapid.String())
	ints := rapid.SliceOf(rapid.IntRange(-1, 1<<40))
	rapid.Check(t, func(t *rapid.T) {
		str := plainStr
		escaped := rapid.Bool().Draw(t, "escaped")
		if escaped {
			str = anyStr
		}
		w := Event{Kind: str.Draw(t, "kind"), Round: rapid.Int().Draw(t, "round"), Phase: str.Draw(t, "phase"),
			Actor: rapid.IntRange(0, 20).Draw(t, "actor"), Target: rapid.IntRange(-3, 20).Draw(t, "target"),
			Verb: str.Draw(t, "verb"), Result: str.Draw(t, "result"), Cause: str.Draw(t, "cause"),
			Winner: str.Draw(t, "winner"), Role: str.Draw(t, "role"), Team: str.Draw(t, "team"),
			Fouls: rapid.IntRange(0, 4).Draw(t, "fouls"), Players: rapid.IntRange(0, 20).Draw(t, "players"),
			Seed: str.Draw(t, "seed")}
		if rapid.Bool().Draw(t, "has yes") {
			yes := rapid.Bool().Draw(t, "yes")
			w.Yes = &yes
		}
		if rapid.Bool().Draw(t, "has lists") {
			w.Seats, w.Ballot, w.Candidates = ints.Draw(t, "seats"), ints.Draw(t, "ballot"), ints.Draw(t, "candidates")
			w.Roles = rapid.SliceOf(str).Draw(t, "roles")
		}
		rules := rapid.Bool().Draw(t, "rules")
		if rules {
			w.Rules = map[string]string{"round_limit": "30"}
		}
		data, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		read := samePlainEventAndJSON(t, data)
		var noEscape Event
		_ = json.Unmarshal(data, &noEscape)
		if !read && !rules && !escaped {
			t.Fatalf("%s: an event json.Marshal wrote with plain strings and no rules was left to encoding/json", data)
		}
		if read && rules {
			t.Fatalf("%s: the plain reader claimed an event with rules", data)
		}
		got, gerr := UnmarshalEvent(data)
		want, werr := ToEvent(noEscape)
		if (gerr == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: UnmarshalEvent %+v, %v; encoding/json and ToEvent %+v, %v", data, got, gerr, want, werr)
		}
	})
}

// TestPlainEvent_TheSeedsAreReadOrLeftAsTheyShouldBe pins which of the
// seeds the plain reader reads: the stored events, not the others.
func TestPlainEvent_TheSeedsAreReadOrLeftAsTheyShouldBe(t *testing.T) {
	read := map[string]bool{
		`{"kind":"night_began","round":1}`:                                                                   true,
		`{"kind":"checked","round":1,"actor":2,"target":9,"result":"mafia"}`:                                 true,
		`{"kind":"vote_cast","round":2,"actor":3,"target":7,"yes":true}`:                                     true,
		`{"kind":"vote_began","round":2,"candidates":[4,7,9]}`:                                               true,
		`{"kind":"player_out","round":3,"target":5,"cause":"vote","role":"mafia","team":"mafia","seats":[]}`: true,
		`{"kind":"speech","round":-0}`:                                                                       true, `{}`: true, `{"kind":"speech", "round":1}`: true,
	}
	for _, s := range plainEventSeeds {
		if got := samePlainEventAndJSON(t, []byte(s)); got != read[s] {
			t.Errorf("%s: read by the plain reader %v, want %v", s, got, read[s])
		}
	}
}

// BenchmarkUnmarshalEvent reads five stored events of a game's usual
// kinds (plainEventSeeds' first six but the game's first, whose rules go
// to encoding/json) through UnmarshalEvent and, for comparison, through
// encoding/json and ToEvent.
func BenchmarkUnmarshalEvent(b *testing.B) {
	var events [][]byte
	for i, s := range plainEventSeeds[:6] {
		if i != 4 {
			events = append(events, []byte(s))
		}
	}
	b.Run("UnmarshalEvent", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := UnmarshalEvent(events[i%len(events)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var w Event
			if err := json.Unmarshal(events[i%len(events)], &w); err != nil {
				b.Fatal(err)
			}
			if _, err := ToEvent(w); err != nil {
				b.Fatal(err)
			}
		}
	})
}
