package room

// This file renders a bot's line (bot.Line: a kind and seats) as a sentence
// in a language, from the message catalogs ("botline.*").

import (
	"strconv"

	"mafia/bot"
	"mafia/engine"
	"mafia/locale"
)

// RenderLine is a bot's line as a sentence in language lang: the catalog's
// phrasing of its kind that its Pick chooses ("botline.<kind>_<n>"; a
// Detective's claim counts its nights, in the language's plural).
func RenderLine(lang locale.Lang, l bot.Line) string {
	p := locale.New(lang)
	base := "botline." + l.Kind.String()
	if l.Kind == bot.LineClaim && l.Role == engine.Detective {
		base = "botline.claim_detective"
	}
	n := 0
	for p.Has(base + "_" + strconv.Itoa(n+1)) {
		n++
	}
	if n == 0 {
		return base // a kind with no sentence shows as its id (the tests catch it)
	}
	id := base + "_" + strconv.Itoa(1+int(l.Pick)%n)
	data := map[string]any{"Seat": int(l.Seat), "Role": p.Role(l.Role), "Answer": p.Result(l.Result), "Count": int(l.Count)}
	if base == "botline.claim_detective" {
		return p.Plural(id, int(l.Count), data)
	}
	return p.T(id, data)
}
