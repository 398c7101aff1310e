package locale

import (
	"strings"
	"testing"
)

func TestMessagesExportsEveryIDWithItsPluralForms(t *testing.T) {
	c := theCatalog()
	for _, l := range Langs() {
		msgs := Messages(l)
		if len(msgs) != len(c.ids(l)) {
			t.Fatalf("%s: %d messages, the catalog has %d", l, len(msgs), len(c.ids(l)))
		}
		for _, id := range c.ids(l) {
			forms := msgs[id]
			want := c.forms(l, id)
			if len(forms) != len(want) {
				t.Errorf("%s %s: forms %v, want %v", l, id, forms, want)
			}
			for _, f := range want {
				if forms[f] == "" {
					t.Errorf("%s %s: form %s missing", l, id, f)
				}
			}
		}
	}
	ru := Messages(Ru)
	if got := ru["error.no_shots_left"]; got["few"] == "" || got["many"] == "" {
		t.Errorf("ru error.no_shots_left: %v, want one, few, many and other", got)
	}
	if got := Messages(En)["role.don"]; len(got) != 1 || got["other"] != "don" {
		t.Errorf("en role.don = %v, want {other: don}", got)
	}
	if !strings.Contains(Messages(Ka)["event.speech"]["other"], "{{.Target}}") {
		t.Errorf("ka event.speech lost its template field")
	}
	if Messages("de") != nil {
		t.Errorf("Messages(de) is not nil")
	}
}

func TestMessagesIsTheCallersOwnCopy(t *testing.T) {
	a := Messages(En)
	a["role.don"]["other"] = "changed"
	if b := Messages(En); b["role.don"]["other"] != "don" {
		t.Errorf("a change to one result shows in the next: %q", b["role.don"]["other"])
	}
}
