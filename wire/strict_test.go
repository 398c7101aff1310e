package wire

import (
	"reflect"
	"testing"
)

// strictBody is shaped like the HTTP API's bodies: a nested struct, maps,
// a list of structs, a field without a tag, an embedded struct, and a type
// that reads itself.
type strictBody struct {
	Name    string            `json:"name"`
	Setup   *strictSetup      `json:"setup"`
	Options map[string]string `json:"options"`
	List    []strictSetup     `json:"list"`
	Rules   Rules             `json:"rules"`
	Skipped int               `json:"-"`
	Plain   int
	strictEmbedded
}

type strictSetup struct {
	Don int `json:"don"`
}

type strictEmbedded struct {
	Extra bool `json:"extra"`
}

// TestDecodeStrict_Rules pins each rule of DecodeStrict in every place a
// key can be.
func TestDecodeStrict_Rules(t *testing.T) {
	for _, tc := range []struct {
		rule string
		body string
	}{
		{"keys are case-sensitive", `{"Name":"x"}`},
		{"keys are case-sensitive in a nested object", `{"setup":{"Don":1}}`},
		{"keys are case-sensitive in a list of objects", `{"list":[{"don":1},{"DON":1}]}`},
		{"keys are case-sensitive in an embedded struct", `{"Extra":true}`},
		{"an untagged field is its Go name, exactly", `{"plain":1}`},
		{"a key once", `{"name":"a","name":"b"}`},
		{"a key once in a nested object", `{"setup":{"don":1,"don":2}}`},
		{"a key once in a map", `{"options":{"a":"1","a":"2"}}`},
		{"a key once in a type that reads itself", `{"rules":{"a":"1","a":"2"}}`},
		{"a key once, however escaped", `{"name":"a","n\u0061me":"b"}`},
		{"no unknown key", `{"colour":5}`},
		{"no field that is not read", `{"Skipped":1}`},
		{"UTF-8 in a value", "{\"name\":\"\xff\"}"},
		{"UTF-8 in a map's key", "{\"options\":{\"\xc3\":\"1\"}}"},
		{"escapes are characters", `{"name":"\udfff"}`},
		{"escapes are characters in a map", `{"options":{"a":"\ud800\u0041"}}`},
		{"one value", `{"name":"a"}{"name":"b"}`},
		{"nothing after the value", `{"name":"a"} ]`},
	} {
		var v strictBody
		if err := DecodeStrict([]byte(tc.body), &v); err == nil {
			t.Errorf("%s: %s was accepted as %+v", tc.rule, tc.body, v)
		}
	}
	var v strictBody
	body := `{"name":"n\u00e9 \ud83d\ude00","setup":{"don":1},"options":{"a":"1","A":"2"},"list":[{"don":2}],
		"rules":{"x":"y"},"Plain":3,"extra":true}`
	if err := DecodeStrict([]byte(body), &v); err != nil {
		t.Fatalf("a strict body was refused: %v", err)
	}
	want := strictBody{Name: "né 😀", Setup: &strictSetup{Don: 1}, Options: map[string]string{"a": "1", "A": "2"},
		List: []strictSetup{{Don: 2}}, Plain: 3, strictEmbedded: strictEmbedded{Extra: true}}
	want.Rules.m = map[string]string{"x": "y"}
	want.Rules.raw = []byte(`{"x":"y"}`)
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("read %+v, want %+v", v, want)
	}
}
