package room

// This file keeps the bots from speaking as a chorus: two bot lines in a
// row in one channel of a table never have the same words. A line of the
// same kind and the same phrasing (its Pick modulo the number of the
// kind's phrasings, in each language) as the last bot line posted in its
// channel has its Pick moved on to the next phrasing. The catalogs hold as
// many phrasings of a kind in every language, so one step is enough; a
// kind with a single phrasing cannot vary and is left as it is.

import (
	"mafia/bot"
	"mafia/engine"
	"mafia/locale"
)

// unchorus is line l as it is posted in channel: moved to another phrasing
// when it would repeat the words of the channel's last bot line.
func (r *Room) unchorus(channel string, l bot.Line) bot.Line {
	prev, ok := r.lastLine[channel]
	if !ok || phraseBase(prev) != phraseBase(l) {
		return l
	}
	var n [3]int
	for i, lang := range locale.Langs() {
		if n[i] = Phrasings(lang, phraseBase(l)); n[i] <= 1 {
			return l // one phrasing: nothing to vary
		}
	}
	for range 256 {
		if !samePhrasing(prev, l, n) {
			return l
		}
		l.Pick++
	}
	return l
}

// phraseBase is the catalog id the phrasings of l are numbered after, as
// RenderLine names them ("botline.<kind>", a Detective's claim
// "botline.claim_detective").
func phraseBase(l bot.Line) string {
	if l.Kind == bot.LineClaim && l.Role == engine.Detective {
		return "botline.claim_detective"
	}
	return "botline." + l.Kind.String()
}

// samePhrasing reports whether lines a and b of one base are said in the
// same phrasing in some language, n holding the number of phrasings in
// each (locale.Langs' order).
func samePhrasing(a, b bot.Line, n [3]int) bool {
	for _, k := range n {
		if int(a.Pick)%k == int(b.Pick)%k {
			return true
		}
	}
	return false
}
