package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// plainSeeds are frames as clients write them, and near misses.
var plainSeeds = []string{
	`{"v":1,"type":"command","id":7,"verb":"vote","target":3}`,
	`{"v":1,"type":"command","id":8,"verb":"all_vote","yes":true}`,
	`{"v":1,"type":"command","id":9,"verb":"pass"}`,
	`{"v":1,"type":"chat","id":2,"channel":"town","text":"გამარჯობა, hello"}`,
	`{"v":1,"type":"host","id":3,"action":"kick","target":4}`,
	`{"v":1,"type":"ping","id":4}`,
	` { "v" : 1 , "type" : "ping" } `,
	`{"v":2,"type":"ping"}`,
	`{"v":1,"type":"dance"}`,
	`{}`,
	`{"v":1,"type":"ping","id":-0}`,
	`{"v":1,"type":"ping","id":01}`,
	`{"v":1,"type":"ping","id":1.0}`,
	`{"v":1,"type":"ping","id":1e3}`,
	`{"v":1,"type":"ping","id":99999999999999999999}`,
	`{"v":1,"type":"ping","id":null}`,
	`{"v":4294967297,"type":"ping"}`,
	`{"v":1,"type":"command","verb":"vote","target":4294967299}`,
	`{"v":1,"type":"ping","id":9223372036854775807}`,
	`{"v":1,"type":"ping","id":-9223372036854775808}`,
	`{"v":1,"type":"ping","id":9223372036854775808}`,
	`{"v":1,"type":"ping","ID":5}`,
	`{"v":1,"type":"ping","v":1}`,
	`{"v":1,"type":"ping","extra":1}`,
	`{"v":1,"type":"chat","text":"a\"b"}`,
	`{"v":1,"type":"chat","text":"\u00e9"}`,
	`{"v":1,"type":"chat","text":"` + "\xff" + `"}`,
	`{"v":1,"type":"ping"} {}`,
	`{"v":1,"type":"ping"}x`,
	`{"v":1,"type":"ping",}`,
	`{"v":true,"type":"ping"}`,
	`{"v":1,"type":1}`,
	`{"v":1,"type":"command","yes":tru}`,
	`[1]`,
	``,
	// What encoding/json bends and the protocol refuses (issue 17).
	`{"V":1,"type":"ping"}`,
	`{"v":1,"Type":"ping","id":3}`,
	`{"v":1,"type":"command","VERB":"vote","target":3}`,
	`{"v":1,"type":"ping","type":"chat"}`,
	`{"v":1,"type":"ping","id":1,"id":2}`,
	`{"v":1,"\u0076":1,"type":"ping"}`,
	`{"v":1,"type":"chat","text":"\ud800"}`,
	`{"v":1,"type":"chat","text":"\udc00x"}`,
	`{"v":1,"type":"chat","text":"\ud83dx"}`,
	`{"v":1,"type":"chat","text":"\ud83d\ude00"}`,
	`{"v":1,"type":"chat","text":"a\\ud800"}`,
	`{"v":1,"type":"chat","text":"` + "\xc3\x28" + `"}`,
	`{"v":1,"type":"ping","` + "\xff" + `":1}`,
	`{"v":1,"type":"ping"} ]`,
	// The step a message is meant for.
	`{"v":1,"type":"command","id":7,"verb":"vote","target":3,"step":12}`,
	`{"v":1,"type":"host","id":3,"action":"foul","target":4,"step":4294967296}`,
	`{"v":1,"type":"command","verb":"pass","step":-1,"step":2}`,
	`{"v":1,"type":"command","verb":"pass","Step":2}`,
	`{"v":1,"type":"command","verb":"pass","step":"2"}`,
	`{"v":1,"type":"command","verb":"pass","step":2.5}`,
	// Statements.
	`{"v":1,"type":"command","id":11,"verb":"claim","role":"detective","step":9}`,
	`{"v":1,"type":"command","id":12,"verb":"report","target":5,"result":"mafia"}`,
	`{"v":1,"type":"command","verb":"report","target":5,"result":"not_mafia"}`,
	`{"v":1,"type":"command","verb":"suspect","target":5}`,
	`{"v":1,"type":"command","verb":"vouch","target":2}`,
	`{"v":1,"type":"command","verb":"will_nominate","target":6}`,
	`{"v":1,"type":"command","verb":"claim","role":"wizard"}`,
	`{"v":1,"type":"command","verb":"claim","Role":"don"}`,
	`{"v":1,"type":"command","verb":"claim","role":"don","role":"doctor"}`,
	`{"v":1,"type":"command","verb":"report","target":5,"result":1}`,
}

// FuzzParsePlainClientMessage holds the plain reader to the strict one: for
// any frame it claims, it answers exactly as encoding/json does.
func FuzzParsePlainClientMessage(f *testing.F) {
	for _, s := range plainSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		samePlainAndStrict(t, data)
	})
}

func samePlainAndStrict(t *testing.T, data []byte) {
	t.Helper()
	if m, err := ParseClientMessage(data); err == nil {
		if why := notStrict(data); why != "" {
			t.Fatalf("%q: accepted as %+v, but %s", data, m, why)
		}
	}
	m, ok, err := ParsePlainClientMessage(data)
	if !ok {
		return
	}
	want, werr := parseStrict(data)
	if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
		t.Fatalf("%q: plain says %v, strict %v", data, err, werr)
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("%q: plain read %+v, strict %+v", data, m, want)
	}
}

// clientKeys are the keys of a client's frame, as docs/protocol.md spells them.
var clientKeys = []string{"v", "type", "id", "verb", "target", "yes", "role", "result", "channel", "text", "action", "step"}

// notStrict says why a frame the protocol must refuse is not strict JSON
// of the protocol's keys ("" when it is): text that is not UTF-8, a key
// that is not exactly one of the protocol's, a key given twice.
func notStrict(data []byte) string {
	if !utf8.Valid(data) {
		return "it is not UTF-8"
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "it is not an object"
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err.Error()
		}
		key := tok.(string)
		if !slices.Contains(clientKeys, key) {
			return fmt.Sprintf("the key %q is not the protocol's", key)
		}
		if seen[key] {
			return fmt.Sprintf("the key %q is given twice", key)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err.Error()
		}
		// encoding/json reads an escape that is no character as U+FFFD: a
		// string with more of them than it spells out had one.
		var s string
		if json.Unmarshal(raw, &s) == nil {
			spelt := strings.Count(string(raw), "\uFFFD") + strings.Count(strings.ToLower(string(raw)), `\ufffd`)
			if strings.Count(s, "\uFFFD") > spelt {
				return fmt.Sprintf("the value of %q has an escape that is no character", key)
			}
		}
	}
	return ""
}

// TestParseClientMessage_IsStrict: what encoding/json would bend (a key in
// another case, a key twice, text that is not UTF-8, an escape that is no
// character) is refused by both readers; the near misses that are fine
// are read.
func TestParseClientMessage_IsStrict(t *testing.T) {
	for _, tc := range []struct {
		rule  string
		frame string
	}{
		{"keys are case-sensitive: v", `{"V":1,"type":"ping"}`},
		{"keys are case-sensitive: type", `{"v":1,"Type":"ping","id":3}`},
		{"keys are case-sensitive: verb", `{"v":1,"type":"command","VERB":"vote","target":3}`},
		{"keys are case-sensitive: id", `{"v":1,"type":"ping","Id":5}`},
		{"a key at most once: type", `{"v":1,"type":"ping","type":"chat"}`},
		{"a key at most once: id", `{"v":1,"type":"ping","id":1,"id":2}`},
		{"a key at most once: target", `{"v":1,"type":"command","verb":"vote","target":3,"target":4}`},
		{"a key at most once, escaped", `{"v":1,"\u0076":1,"type":"ping"}`},
		{"text is UTF-8", `{"v":1,"type":"chat","channel":"town","text":"` + "\xc3\x28" + `"}`},
		{"text is UTF-8, a lone byte", `{"v":1,"type":"chat","channel":"town","text":"ok ` + "\xff" + `"}`},
		{"keys are UTF-8", `{"v":1,"type":"ping","` + "\xff" + `":1}`},
		{"escapes are characters: a high half alone", `{"v":1,"type":"chat","channel":"town","text":"\ud800"}`},
		{"escapes are characters: a low half alone", `{"v":1,"type":"chat","channel":"town","text":"\udc00x"}`},
		{"escapes are characters: a high half and a letter", `{"v":1,"type":"chat","channel":"town","text":"\ud83dx"}`},
		{"nothing after the object", `{"v":1,"type":"ping"} ]`},
	} {
		if m, err := ParseClientMessage([]byte(tc.frame)); err == nil {
			t.Errorf("%s: %s was accepted as %+v", tc.rule, tc.frame, m)
		}
		if m, err := parseStrict([]byte(tc.frame)); err == nil {
			t.Errorf("%s: %s was accepted by encoding/json's path as %+v", tc.rule, tc.frame, m)
		}
	}
	for _, tc := range []struct {
		frame string
		want  ClientMessage
	}{
		{`{"v":1,"type":"chat","channel":"town","text":"\ud83d\ude00 \u00e9"}`, ClientMessage{V: 1, Type: "chat", Channel: "town", Text: "😀 é"}},
		{`{"v":1,"type":"chat","channel":"town","text":"a\\ud800"}`, ClientMessage{V: 1, Type: "chat", Channel: "town", Text: `a\ud800`}},
		{`{"v":1,"type":"ping","id":null}`, ClientMessage{V: 1, Type: "ping"}},
		{`{"\u0076":1,"type":"ping"}`, ClientMessage{V: 1, Type: "ping"}},
	} {
		m, err := ParseClientMessage([]byte(tc.frame))
		if err != nil || !reflect.DeepEqual(m, tc.want) {
			t.Errorf("%s: read %+v (%v), want %+v", tc.frame, m, err, tc.want)
		}
	}
}

// TestParseClientMessage_EchoesTheIDOfARefusedFrame: a frame refused as
// not strict still has its id read, so the refusal answers it.
func TestParseClientMessage_EchoesTheIDOfARefusedFrame(t *testing.T) {
	for _, frame := range []string{
		`{"v":1,"type":"ping","id":7,"Type":"ping"}`,
		`{"v":1,"type":"ping","type":"ping","id":7}`,
		`{"v":1,"type":"chat","id":7,"text":"` + "\xff" + `"}`,
	} {
		m, err := ParseClientMessage([]byte(frame))
		if err == nil || m.ID != 7 {
			t.Errorf("%s: id %d, err %v; want a refusal of id 7", frame, m.ID, err)
		}
	}
}

func TestPlainReaderAgreesOnTheSeeds(t *testing.T) {
	for _, s := range plainSeeds {
		samePlainAndStrict(t, []byte(s))
	}
}

// TestClientsFramesTakeThePlainPath: every message a client marshals with
// encoding/json (or JSON.stringify) whose strings need no escape is read
// by the plain reader, as the strict one reads it; the plain reader is
// only worth having if clients' frames take it.
func TestClientsFramesTakeThePlainPath(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		word := rapid.StringMatching(`[a-z_ ]{0,12}|[ა-ჰ ]{1,8}|[а-я ]{1,8}`)
		m := ClientMessage{
			V:       rapid.IntRange(0, 2).Draw(t, "v"),
			Type:    rapid.SampledFrom([]string{"command", "chat", "host", "ping", "history", "other"}).Draw(t, "type"),
			ID:      rapid.Int64().Draw(t, "id"),
			Verb:    rapid.SampledFrom(append([]string{""}, plainVerbs...)).Draw(t, "verb"),
			Target:  rapid.IntRange(-1000, 1000).Draw(t, "target"),
			Yes:     rapid.Bool().Draw(t, "yes"),
			Role:    rapid.SampledFrom(append([]string{"", "wizard"}, plainRoles...)).Draw(t, "role"),
			Result:  rapid.SampledFrom(append([]string{"", "maybe"}, plainResults...)).Draw(t, "result"),
			Channel: word.Draw(t, "channel"),
			Text:    word.Draw(t, "text"),
			Action:  word.Draw(t, "action"),
			Step:    rapid.IntRange(-5, 100000).Draw(t, "step"),
			Before:  rapid.IntRange(-5, 100000).Draw(t, "before"),
		}
		data, err := marshalNoHTML(m)
		if err != nil {
			t.Fatal(err)
		}
		if enc := m.AppendJSON(nil); !bytes.Equal(enc, data) {
			t.Fatalf("AppendJSON differs from encoding/json\n got %s\nwant %s", enc, data)
		}
		got, ok, perr := ParsePlainClientMessage(data)
		if !ok {
			t.Fatalf("%s: not read as plain", data)
		}
		want, werr := parseStrict(data)
		if !reflect.DeepEqual(got, want) || (perr == nil) != (werr == nil) {
			t.Fatalf("%s: plain %+v (%v), strict %+v (%v)", data, got, perr, want, werr)
		}
	})
}

// BenchmarkParsePlainClientMessage reads a command frame as the server
// reads every client frame.
func BenchmarkParsePlainClientMessage(b *testing.B) {
	data := []byte(`{"v":1,"type":"command","id":42,"verb":"vote","target":7,"step":31}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, plain, err := ParsePlainClientMessage(data); !plain || err != nil {
			b.Fatal(plain, err)
		}
	}
}
