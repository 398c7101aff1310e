package locale

import (
	"regexp"
	"sort"
	"strings"
	"testing"
	"text/template"
)

// requiredForms are the plural forms (CLDR) each language's plural messages
// must define.
var requiredForms = map[Lang][]string{
	En: {"one", "other"},
	Ka: {"one", "other"},
	Ru: {"one", "few", "many", "other"},
}

func TestEveryLanguageHasTheSameMessageIDs(t *testing.T) {
	c := theCatalog()
	en := c.ids(En)
	if len(en) == 0 {
		t.Fatal("the English catalog is empty")
	}
	for _, l := range Langs() {
		got := strings.Join(c.ids(l), "\n")
		if got != strings.Join(en, "\n") {
			t.Errorf("%s: ids differ from en:\nmissing: %v\nextra: %v", l, minus(en, c.ids(l)), minus(c.ids(l), en))
		}
	}
}

func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
}

func TestPluralMessagesDefineEveryFormTheLanguageNeeds(t *testing.T) {
	c := theCatalog()
	for _, id := range c.ids(En) {
		plural := len(c.forms(En, id)) > 1
		for _, l := range Langs() {
			got := c.forms(l, id)
			if !plural {
				if len(got) > 1 {
					t.Errorf("%s %s: plural forms %v, but en is a plain message", l, id, got)
				}
				continue
			}
			if strings.Join(got, ",") != strings.Join(requiredForms[l], ",") {
				t.Errorf("%s %s: forms %v, want %v", l, id, got, requiredForms[l])
			}
		}
	}
}

var fieldRE = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

// fields returns the template fields a message uses, in all its forms.
func fields(texts []string) []string {
	set := map[string]bool{}
	for _, t := range texts {
		for _, m := range fieldRE.FindAllStringSubmatch(t, -1) {
			set[m[1]] = true
		}
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// TestTranslationsUseOnlyTheFieldsTheEnglishMessageUses: a translation may
// also use the case forms of a field the English message uses (a bot line's
// ordinal: Nth → NthDat, room/botrender.go), since English has one form where
// Georgian and Russian choose by case.
func TestTranslationsUseOnlyTheFieldsTheEnglishMessageUses(t *testing.T) {
	c := theCatalog()
	for _, id := range c.ids(En) {
		en := fields(c.texts(En, id))
		for _, f := range en {
			en = append(en, f+"Gen", f+"Dat", f+"Erg", f+"On", f+"Ins", f+"Pre")
		}
		for _, l := range []Lang{Ka, Ru} {
			if extra := minus(fields(c.texts(l, id)), en); len(extra) > 0 {
				t.Errorf("%s %s uses %v, which the English message does not have (a typo?)", l, id, extra)
			}
		}
	}
}

func TestEveryMessageIsAValidTemplateOfPlainFields(t *testing.T) {
	c := theCatalog()
	other := regexp.MustCompile(`\{\{`)
	for _, l := range Langs() {
		for _, id := range c.ids(l) {
			for _, text := range c.texts(l, id) {
				if _, err := template.New(id).Parse(text); err != nil {
					t.Errorf("%s %s: %v", l, id, err)
				}
				if n, m := len(other.FindAllString(text, -1)), len(fieldRE.FindAllString(text, -1)); n != m {
					t.Errorf("%s %s: only {{.Field}} is allowed in a message: %q", l, id, text)
				}
			}
		}
	}
}

func TestEveryWordBelongsToOneCommand(t *testing.T) {
	keys := []string{"kill", "check", "shoot", "heal", "skip", "nominate", "vote", "yes", "no", "help", "status", "quit",
		"claim", "report", "suspect", "vouch", "will_nominate", "best_move"}
	en := New(En)
	for _, l := range Langs() {
		p := New(l)
		owner := map[string]string{}
		for _, k := range keys {
			words := p.Words(k)
			if len(words) == 0 {
				t.Errorf("%s: no word for %s", l, k)
			}
			for _, w := range append(words, en.Words(k)...) {
				if o, ok := owner[w]; ok && o != k {
					t.Errorf("%s: %q means both %s and %s", l, w, o, k)
				}
				owner[w] = k
			}
		}
	}
}
