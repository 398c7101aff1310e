package room

// This file renders a bot's line (bot.Line: a kind and seats) as a sentence
// in a language, from the message catalogs ("botline.*"), naming seats the
// way players at the table say them: a number („№8“, "8") or an ordinal in
// the case the sentence needs („მერვეს“, «восьмому», "the eighth").

import (
	"strconv"

	"mafia/bot"
	"mafia/engine"
	"mafia/locale"
)

// RenderLine is a bot's line as a sentence in language lang: the catalog's
// phrasing of its kind that its Pick chooses ("botline.<kind>_<n>", n the
// Pick modulo the number of phrasings, which is the same in every language;
// a Detective's claim counts its nights, in the language's plural). The
// template's fields: Seat, Seat2, Seat3 (the seats the line names, as
// numbers), Nth and Nth2 (the first two as ordinals) with their case forms
// (ordinalForms), Role, Answer and Count.
func RenderLine(lang locale.Lang, l bot.Line) string {
	p := locale.New(lang)
	base := "botline." + l.Kind.String()
	if l.Kind == bot.LineClaim && l.Role == engine.Detective {
		base = "botline.claim_detective"
	}
	n := Phrasings(lang, base)
	if n == 0 {
		return base // a kind with no sentence shows as its id (the tests catch it)
	}
	id := base + "_" + strconv.Itoa(1+int(l.Pick)%n)
	data := map[string]any{"Seat": int(l.Seat), "Seat2": int(l.More[0]), "Seat3": int(l.More[1]),
		"Role": p.Role(l.Role), "Answer": p.Result(l.Result), "Count": int(l.Count)}
	ordinalForms(lang, "Nth", l.Seat, data)
	ordinalForms(lang, "Nth2", l.More[0], data)
	if base == "botline.claim_detective" {
		return p.Plural(id, int(l.Count), data)
	}
	return p.T(id, data)
}

// Phrasings is how many phrasings the catalog of lang holds of the line
// whose ids begin with base ("botline.suspect": botline.suspect_1, _2, …).
func Phrasings(lang locale.Lang, base string) int {
	p := locale.New(lang)
	n := 0
	for p.Has(base + "_" + strconv.Itoa(n+1)) {
		n++
	}
	return n
}

// OrdinalCases are the case forms of a seat's ordinal a line's template may
// use, after its name (Nth, Nth2): every language fills every one (English
// has a single form; Georgian uses Erg, Dat, Gen, On; Russian Gen — also
// its animate accusative —, Dat, Ins, Pre).
var OrdinalCases = []string{"Gen", "Dat", "Erg", "On", "Ins", "Pre"}

// ordinalForms puts seat s's ordinal, in each case, into data under name
// (name, name+"Gen", …). Seats 1 to 20 have words; a larger one (no table
// has it) is written with its number.
func ordinalForms(lang locale.Lang, name string, s engine.Seat, data map[string]any) {
	n := int(s)
	num := strconv.Itoa(n)
	put := func(nom string, cases ...string) {
		data[name] = nom
		for i, c := range OrdinalCases {
			data[name+c] = cases[i]
		}
	}
	switch lang {
	case locale.Ka:
		if n >= 1 && n < len(kaOrdinals) {
			w := kaOrdinals[n]
			if n == 1 { // პირველი: a consonant stem
				put(w, "პირველის", "პირველს", "პირველმა", "პირველზე", "პირველით", "პირველზე")
				return
			}
			stem := w[:len(w)-len("ე")] // მერვე → მერვ-
			put(w, stem+"ის", w+"ს", w+"მ", w+"ზე", stem+"ით", w+"ზე")
			return
		}
		put("№"+num, "№"+num+"-ის", "№"+num+"-ს", "№"+num+"-მა", "№"+num+"-ზე", "№"+num+"-ით", "№"+num+"-ზე")
	case locale.Ru:
		if n >= 1 && n < len(ruOrdinals) {
			w := ruOrdinals[n]
			if n == 3 {
				put(w, "третьего", "третьему", w, "третьем", "третьим", "третьем")
				return
			}
			stem := w[:len(w)-len("ый")] // пятый, восьмой → пят-, восьм-
			put(w, stem+"ого", stem+"ому", w, stem+"ом", stem+"ым", stem+"ом")
			return
		}
		put(num+"-й", num+"-го", num+"-му", num+"-й", num+"-м", num+"-м", num+"-м")
	default:
		w := num + "th"
		if n >= 1 && n < len(enOrdinals) {
			w = enOrdinals[n]
		}
		put(w, w, w, w, w, w, w)
	}
}

// The ordinals of seats 1 to 20, in the nominative (Russian: masculine, as
// "игрок").
var (
	enOrdinals = [...]string{"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
		"eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"}
	kaOrdinals = [...]string{"", "პირველი", "მეორე", "მესამე", "მეოთხე", "მეხუთე", "მეექვსე", "მეშვიდე", "მერვე", "მეცხრე", "მეათე",
		"მეთერთმეტე", "მეთორმეტე", "მეცამეტე", "მეთოთხმეტე", "მეთხუთმეტე", "მეთექვსმეტე", "მეჩვიდმეტე", "მეთვრამეტე", "მეცხრამეტე", "მეოცე"}
	ruOrdinals = [...]string{"", "первый", "второй", "третий", "четвёртый", "пятый", "шестой", "седьмой", "восьмой", "девятый", "десятый",
		"одиннадцатый", "двенадцатый", "тринадцатый", "четырнадцатый", "пятнадцатый", "шестнадцатый", "семнадцатый", "восемнадцатый",
		"девятнадцатый", "двадцатый"}
)
