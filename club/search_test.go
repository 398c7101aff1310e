package club

import "testing"

// TestFold_SpellsEveryScriptInLatin pins the transliteration: Georgian and
// Russian to Latin, case and diacritics dropped.
func TestFold_SpellsEveryScriptInLatin(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ნინო", "nino"},
		{"Нино", "nino"},
		{"NINO", "nino"},
		{"Nínó", "nino"},
		{"გიორგი", "giorgi"},
		{"თამარ ჭავჭავაძე", "tamar chavchavadze"},
		{"ხატია", "khatia"},
		{"შოთა", "shota"},
		{"ყვარყვარე", "qvarqvare"},
		{"ღვთისო", "ghvtiso"},
		{"წერეთელი", "tsereteli"},
		{"Юлия", "yuliya"},
		{"Андрей Щукин", "andrei shchukin"},
		{"Алёна", "alena"},
		{"ᲜᲘᲜᲝ", "nino"}, // Georgian capitals (Mtavruli)
		{"ЙОГА", "ioga"},
		{"Ночь-Мафия!", "noch mafiya"},
		{"Straße", "strasse"},
		{"  Zoë   Ø. ", "zoe o"},
		{"", ""},
	} {
		if got := Fold(c.in); got != c.want {
			t.Errorf("Fold(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

// TestMatch_ANameIsFoundInAnyScript: a search in one script finds the name
// written in another; a query's words begin the name's words.
func TestMatch_ANameIsFoundInAnyScript(t *testing.T) {
	for _, c := range []struct {
		query, name string
		want        bool
	}{
		{"nino", "ნინო", true},
		{"nino", "Нино", true},
		{"nino", "Nino Beridze", true},
		{"ნინო", "Нино", true},
		{"Нино", "nino", true},
		{"nin", "ნინო ბერიძე", true},
		{"ber nin", "ნინო ბერიძე", true},
		{"giorgi", "გიორგი", true},
		{"tamar", "Тамар", true},
		{"NINO", "nino", true},
		{"", "anyone", true},
		{"nino", "Nana", false},
		{"nino", "გიორგი", false},
		{"ber nana", "ნინო ბერიძე", false},
	} {
		if got := Match(c.query, c.name); got != c.want {
			t.Errorf("Match(%q, %q) = %v; want %v", c.query, c.name, got, c.want)
		}
	}
}

// TestSearch_FindsTheRosterInAnyScriptAndSkipsMergedEntries.
func TestSearch_FindsTheRosterInAnyScriptAndSkipsMergedEntries(t *testing.T) {
	people := []Person{{ID: "p1", Name: "ნინო"}, {ID: "p2", Name: "Нино"}, {ID: "p3", Name: "Giorgi"},
		{ID: "p4", Name: "Nino", MergedInto: "p1"}}
	got := NewRoster(people).Search("nino")
	if len(got) != 2 || got[0].ID != "p1" || got[1].ID != "p2" {
		t.Errorf("search for nino: %+v; want ნინო and Нино (not the merged Nino)", got)
	}
}
