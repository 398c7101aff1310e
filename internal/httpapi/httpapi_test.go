package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"mafia/engine"
)

func TestStatusOf_OneStatusPerKind(t *testing.T) {
	for k, want := range map[engine.Kind]int{
		engine.KindInvalid: 400, engine.KindUnsupported: 415, engine.KindForbidden: 403, engine.KindNotFound: 404,
		engine.KindConflict: 409, engine.KindGone: 410, engine.KindTooMany: 429, engine.KindBusy: 503,
		engine.KindInternal: 500, engine.KindNone: 500,
	} {
		if got := StatusOf(k); got != want {
			t.Errorf("StatusOf(%s) = %d, want %d", k, got, want)
		}
	}
}

func TestVocabulary_JoinsTablesAndRefusesAKindChanged(t *testing.T) {
	v := NewVocabulary(engine.Kinds, Kinds, map[engine.Code]engine.Kind{"x": engine.KindBusy, CodeNotFound: engine.KindNotFound})
	if v.Status(CodeNotFound) != 404 || v.Status("x") != 503 || v.Status(engine.CodeGameOver) != 400 {
		t.Errorf("statuses %d %d %d", v.Status(CodeNotFound), v.Status("x"), v.Status(engine.CodeGameOver))
	}
	if v.Kind("undeclared") != engine.KindNone || v.Status("undeclared") != http.StatusInternalServerError {
		t.Error("an undeclared code is not internal")
	}
	defer func() {
		if recover() == nil {
			t.Error("a code given two kinds did not panic")
		}
	}()
	NewVocabulary(Kinds, map[engine.Code]engine.Kind{CodeNotFound: engine.KindGone})
}

func TestReadJSON_StrictAndBounded(t *testing.T) {
	type body struct {
		Name string `json:"name"`
	}
	for _, tc := range []struct {
		name, body string
		ok         bool
	}{
		{"a plain body", `{"name":"Nino"}`, true},
		{"an unknown key", `{"name":"Nino","x":1}`, false},
		{"a key twice", `{"name":"a","name":"b"}`, false},
		{"not JSON", `name=Nino`, false},
		{"just over the limit", `{"name":"` + strings.Repeat("a", 40) + `"}`, false},
		{"at the limit", `{"name":"` + strings.Repeat("a", 21) + `"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b body
			r := httptest.NewRequest("POST", "/", strings.NewReader(tc.body))
			if got := ReadJSON(r, 32, &b); got != tc.ok {
				t.Errorf("ReadJSON(%q) = %v, want %v", tc.body, got, tc.ok)
			}
		})
	}
}
