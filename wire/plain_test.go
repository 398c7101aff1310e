package wire

import (
	"bytes"
	"testing"

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
	m, ok, err := ParsePlainClientMessage(data)
	if !ok {
		return
	}
	want, werr := parseStrict(data)
	if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
		t.Fatalf("%q: plain says %v, strict %v", data, err, werr)
	}
	if m != want {
		t.Fatalf("%q: plain read %+v, strict %+v", data, m, want)
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
			Type:    rapid.SampledFrom([]string{"command", "chat", "host", "ping", "other"}).Draw(t, "type"),
			ID:      rapid.Int64().Draw(t, "id"),
			Verb:    rapid.SampledFrom(append([]string{""}, plainVerbs...)).Draw(t, "verb"),
			Target:  rapid.IntRange(-1000, 1000).Draw(t, "target"),
			Yes:     rapid.Bool().Draw(t, "yes"),
			Channel: word.Draw(t, "channel"),
			Text:    word.Draw(t, "text"),
			Action:  word.Draw(t, "action"),
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
		if got != want || (perr == nil) != (werr == nil) {
			t.Fatalf("%s: plain %+v (%v), strict %+v (%v)", data, got, perr, want, werr)
		}
	})
}
