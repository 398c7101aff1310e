package locale

import (
	"strings"
	"testing"
)

// withFreshCatalogs runs f with no catalog parsed yet (as a program
// starts), and puts the package's catalogs back after.
func withFreshCatalogs(t *testing.T, f func()) {
	t.Helper()
	kept := langCatalogs
	langCatalogs = map[Lang]*lazyCatalog{En: {lang: En}, Ka: {lang: Ka}, Ru: {lang: Ru}}
	defer func() { langCatalogs = kept }()
	f()
}

// parsed returns the languages whose catalogs have been parsed.
func parsed() []Lang {
	var out []Lang
	for _, l := range Langs() {
		if langCatalogs[l].cat != nil {
			out = append(out, l)
		}
	}
	return out
}

func TestAPrinterParsesOnlyItsOwnLanguagesCatalogOnItsFirstSentence(t *testing.T) {
	withFreshCatalogs(t, func() {
		p := New(Ka)
		if got := parsed(); len(got) != 0 {
			t.Fatalf("New parsed %v before any sentence", got)
		}
		if got := p.Role(0); got == "" || got == "role.citizen" {
			t.Fatalf("ka citizen: %q", got)
		}
		if got := parsed(); len(got) != 1 || got[0] != Ka {
			t.Errorf("after a Georgian sentence the parsed catalogs are %v, want [ka]", got)
		}
	})
}

func TestAMessageTheLanguageLacksIsEnglishAndOneNoCatalogHoldsIsItsID(t *testing.T) {
	withFreshCatalogs(t, func() {
		buf, err := catalogFS.ReadFile("catalog/active.ka.toml")
		if err != nil {
			t.Fatal(err)
		}
		// Georgian without the mafioso's name.
		lines := strings.Split(string(buf), "\n")
		kept := lines[:0]
		section := ""
		for _, line := range lines {
			if strings.HasPrefix(line, "[") {
				section = line
			}
			if section == "[role]" && strings.HasPrefix(line, "mafia =") {
				continue
			}
			kept = append(kept, line)
		}
		cut, err := parseLang(Ka, []byte(strings.Join(kept, "\n")), "cut.ka.toml")
		if err != nil {
			t.Fatal(err)
		}
		if cut.msgs["role.mafia"] != nil || cut.msgs["role.citizen"] == nil {
			t.Fatal("the cut catalog should lack role.mafia alone")
		}
		langCatalogs[Ka].once.Do(func() { langCatalogs[Ka].cat = cut })
		ka := New(Ka)
		if got := ka.T("role.mafia", nil); got != "mafioso" {
			t.Errorf("a message ka lacks: %q, want English's %q", got, "mafioso")
		}
		if got := ka.T("role.citizen", nil); got == "citizen" || got == "role.citizen" {
			t.Errorf("a message ka has: %q, want Georgian", got)
		}
		if got := ka.T("no.such.message", nil); got != "no.such.message" {
			t.Errorf("a message no catalog holds: %q, want its id", got)
		}
		if got := parsed(); len(got) != 2 || got[0] != En || got[1] != Ka {
			t.Errorf("parsed %v, want [en ka]", got)
		}
	})
}
