package main

import (
	"os"
	"strconv"
	"strings"

	"mafia/engine"
	"mafia/locale"
)

// localePrinter returns the printer for a --lang value: a language code or
// locale name, or "" for the environment's language.
func localePrinter(lang string) (*locale.Printer, bool) {
	if lang == "" {
		return locale.New(locale.FromEnv(os.Getenv)), true
	}
	l, ok := locale.Parse(lang)
	if !ok {
		return locale.New(locale.FromEnv(os.Getenv)), false
	}
	return locale.New(l), true
}

// refusalText returns a function that renders an engine refusal as a
// sentence in lang (a language code or locale name; anything else gives the
// environment's language).
func refusalText(lang string) func(error) string {
	p, _ := localePrinter(lang)
	return p.Refusal
}

// The commands a player may type; each has words in every catalog
// (word.<key>), and the English words are understood in every language.
const (
	keyKill     = "kill"
	keyCheck    = "check"
	keyShoot    = "shoot"
	keyHeal     = "heal"
	keySkip     = "skip"
	keyNominate = "nominate"
	keyVote     = "vote"
	keyYes      = "yes"
	keyNo       = "no"
	keyHelp     = "help"
	keyStatus   = "status"
	keyQuit     = "quit"

	// The statements, on one's own floor.
	keyClaim        = "claim"
	keyReport       = "report"
	keySuspect      = "suspect"
	keyVouch        = "vouch"
	keyWillNominate = "will_nominate"
	keyBestMove     = "best_move" // the first night's victim's three seats, in its last words

	keyEnter   = "enter"   // an empty line
	keyNumber  = "number"  // a seat number alone
	keyUnknown = "unknown" // a word no command has
)

var commandKeys = []string{keyKill, keyCheck, keyShoot, keyHeal, keySkip, keyNominate, keyVote,
	keyYes, keyNo, keyHelp, keyStatus, keyQuit, keyClaim, keyReport, keySuspect, keyVouch, keyWillNominate, keyBestMove}

// verbOf maps the keys of engine commands to their verbs.
var verbOf = map[string]engine.Verb{
	keyKill: engine.Kill, keyCheck: engine.Check, keyShoot: engine.Shoot, keyHeal: engine.Heal,
	keySkip: engine.Skip, keyNominate: engine.Nominate, keyVote: engine.Vote,
	keyYes: engine.AllVote, keyNo: engine.AllVote,
	keyClaim: engine.Claim, keyReport: engine.Report, keySuspect: engine.Suspect, keyVouch: engine.Vouch,
	keyWillNominate: engine.WillNominate, keyBestMove: engine.BestMove,
}

// keyOf is the reverse of verbOf for the verbs that take a seat.
var keyOf = map[engine.Verb]string{
	engine.Kill: keyKill, engine.Check: keyCheck, engine.Shoot: keyShoot, engine.Heal: keyHeal,
	engine.Nominate: keyNominate, engine.Vote: keyVote,
}

// wordBook reads a player's line in one language (and English).
type wordBook struct {
	key  map[string]string // word → command key
	show map[string]string // command key → the word prompts show
}

func newWordBook(p *locale.Printer) wordBook {
	en := locale.New(locale.En)
	b := wordBook{key: map[string]string{}, show: map[string]string{}}
	for _, k := range commandKeys {
		words := p.Words(k)
		if len(words) == 0 {
			words = en.Words(k)
		}
		if len(words) > 0 {
			b.show[k] = words[0]
		}
		for _, w := range append(words, en.Words(k)...) {
			if _, taken := b.key[w]; !taken {
				b.key[w] = k
			}
		}
	}
	return b
}

// input is one line a player typed, read.
type input struct {
	key     string // a command key, keyEnter, keyNumber or keyUnknown
	seat    int    // the seat named, when hasSeat
	hasSeat bool
	extra   bool   // words followed the command but named no seat
	rest    string // the words after the command, but the seat (a claim's card, a report's answer)
	raw     string
}

// parse reads a line: a command word and a seat ("kill 3", "убить №3"), a
// seat number alone, or nothing (Enter).
func (b wordBook) parse(line string) input {
	raw := strings.TrimSpace(line)
	f := strings.Fields(strings.ToLower(raw))
	if len(f) == 0 {
		return input{key: keyEnter}
	}
	if n, ok := seatNumber(f[0]); ok {
		return input{key: keyNumber, seat: n, hasSeat: true, raw: raw}
	}
	k, ok := b.key[f[0]]
	if !ok {
		return input{key: keyUnknown, raw: raw}
	}
	in := input{key: k, raw: raw}
	var rest []string
	for _, w := range f[1:] {
		if n, ok := seatNumber(w); ok && !in.hasSeat {
			in.seat, in.hasSeat = n, true
			continue
		}
		rest = append(rest, w)
	}
	in.rest = strings.Join(rest, " ")
	in.extra = len(f) > 1 && !in.hasSeat
	return in
}

// cardOf reads a claim's card: its name in the player's language or in
// English, or as scenarios spell it ("mafia", "mafioso").
func cardOf(p *locale.Printer, words string) (engine.Role, bool) {
	en := locale.New(locale.En)
	for r := engine.Citizen; engine.Claimable(r); r++ {
		if words == strings.ToLower(p.Role(r)) || words == strings.ToLower(en.Role(r)) {
			return r, true
		}
	}
	return engine.ParseRole(words)
}

// answerOf reads a report's answer: "mafia", "not mafia" in the player's
// language or in English, or as the protocol spells it ("not_mafia").
func answerOf(p *locale.Printer, words string) (engine.Result, bool) {
	en := locale.New(locale.En)
	for _, r := range []engine.Result{engine.ResultMafia, engine.ResultNotMafia, engine.ResultManiac} {
		if words == strings.ToLower(p.Result(r)) || words == strings.ToLower(en.Result(r)) || words == r.String() {
			return r, true
		}
	}
	return engine.ResultNone, false
}

// seatsOf reads every seat number among words ("2 5 9", "№2 №5 №9").
func seatsOf(words string) []int {
	var out []int
	for _, w := range strings.Fields(words) {
		if n, ok := seatNumber(w); ok {
			out = append(out, n)
		}
	}
	return out
}

// seatNumber reads "3", "№3" or "#3".
func seatNumber(w string) (int, bool) {
	w = strings.TrimPrefix(strings.TrimPrefix(w, "№"), "#")
	n, err := strconv.Atoi(w)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}
