package room

// This file is a server's bot's line for each reader. A bot's line is kept
// as what it means (store.BotLine: its kind, the seat it names, a claim's
// card, a report's answer, a Detective's nights, its phrasing), never as
// words, and is rendered (RenderLine) in the language of each connection
// that reads it: its chat frame, the history pages, the record. A bot's
// name ("Bot 3") is rendered the same way ("ბოტი 3", "Бот 3"). Every other
// line is shown as it was said.
//
// Its frame (chat, a history page's line) also carries what it means (bot:
// wire.BotLine), for programs that read the chat without parsing text.
//
// A connection's language is the one it was attached with (AttachIn: the
// server gives the language of its request, the one its errors are
// written in); a connection attached with none reads the table's
// (Settings.Lang).

import (
	"mafia/bot"
	"mafia/engine"
	"mafia/locale"
	"mafia/store"
	"mafia/wire"
)

// lineKinds maps a kind's name to the kind.
var lineKinds = func() map[string]bot.LineKind {
	m := map[string]bot.LineKind{}
	for _, k := range bot.LineKinds() {
		m[k.String()] = k
	}
	return m
}()

// saidOf is bot line l as the store keeps it.
func saidOf(l bot.Line) store.BotLine {
	b := store.BotLine{Kind: l.Kind.String(), Seat: int(l.Seat), Count: int(l.Count), Pick: int(l.Pick),
		More: [2]int{int(l.More[0]), int(l.More[1])}, Voice: l.Voice}
	if l.Role != engine.RoleNone {
		b.Role = l.Role.String()
	}
	if l.Result != engine.ResultNone {
		b.Result = l.Result.String()
	}
	return b
}

// lineOfSaid is the bot line a stored one means; false for a kind (or a
// card, an answer) this server does not know, which is then shown as its
// stored text.
func lineOfSaid(b store.BotLine) (bot.Line, bool) {
	k, ok := lineKinds[b.Kind]
	if !ok || b.Seat < 0 || b.Seat > 255 || b.Count < 0 || b.Count > 255 || b.Pick < 0 {
		return bot.Line{}, false
	}
	l := bot.Line{Kind: k, Seat: engine.Seat(b.Seat), Count: uint8(b.Count), Pick: uint8(b.Pick % 256), Voice: b.Voice}
	for i, s := range b.More {
		if s < 0 || s > 255 {
			return bot.Line{}, false
		}
		l.More[i] = engine.Seat(s)
	}
	if b.Role != "" {
		if l.Role, ok = engine.ParseRole(b.Role); !ok {
			return bot.Line{}, false
		}
	}
	if b.Result != "" {
		if l.Result, ok = engine.ParseResult(b.Result); !ok {
			return bot.Line{}, false
		}
	}
	return l, true
}

// ChatText is the text of chat line l for a reader in language lang: a
// server's bot's line rendered in lang, any other line as it was said.
func ChatText(lang locale.Lang, l store.ChatLine) string {
	if l.Bot.Kind == "" {
		return l.Text
	}
	bl, ok := lineOfSaid(l.Bot)
	if !ok {
		return l.Text
	}
	return RenderLine(lang, bl)
}

// ChatName is the sender's name of chat line l for a reader in language
// lang: a server's bot's from the catalog ("ბოტი 3"), anyone else's as it
// was then.
func ChatName(lang locale.Lang, l store.ChatLine) string {
	if l.Bot.Kind == "" || l.Seat <= 0 {
		return l.Name
	}
	return BotName(lang, l.Seat)
}

// BotName is the name of the server's bot in seat s in language lang, as
// the catalogs write it ("Bot 3", "ბოტი 3", "Бот 3").
func BotName(lang locale.Lang, s int) string {
	return locale.New(lang).T("web.bot_name", map[string]any{"Seat": s})
}

// langOf is the language sub reads in: its own, else the table's.
func (r *Room) langOf(sub *Sub) locale.Lang {
	if sub.lang != "" {
		return sub.lang
	}
	return r.set.lang()
}

// langIndex is lang's place in locale.Langs (0 for one it does not hold).
func langIndex(lang locale.Lang) int {
	for i, l := range locale.Langs() {
		if l == lang {
			return i
		}
	}
	return 0
}

// lineFrames are the frames of one chat line, made once per language that
// reads it: a person's line has one frame for everyone, a bot's one per
// language.
type lineFrames struct {
	line   store.ChatLine
	now    int64 // the frame's now (Unix ms)
	frames [3][]byte
}

// newLineFrames prepares the frames of line l, sent at now (Unix ms).
func newLineFrames(l store.ChatLine, now int64) *lineFrames {
	return &lineFrames{line: l, now: now}
}

// in is the frame for a reader in lang.
func (f *lineFrames) in(lang locale.Lang) []byte {
	i := 0
	if f.line.Bot.Kind != "" {
		i = langIndex(lang)
	}
	if f.frames[i] == nil {
		l := f.line
		f.frames[i] = wire.Encode(wire.ServerMessage{Type: "chat", Channel: l.Channel, From: l.Seat,
			Name: ChatName(lang, l), Text: ChatText(lang, l), Bot: wireBot(l.Bot), Now: f.now})
	}
	return f.frames[i]
}

// longest is the length of the longest of the line's frames, whatever the
// reader's language.
func (f *lineFrames) longest() int {
	if f.line.Bot.Kind == "" {
		return len(f.in(locale.En))
	}
	n := 0
	for _, lang := range locale.Langs() {
		n = max(n, len(f.in(lang)))
	}
	return n
}

// wireLineIn is a stored line as a history page carries it to a reader in
// lang.
func (r *Room) wireLineIn(l store.ChatLine, lang locale.Lang) wire.ChatLine {
	name, text := r.lineIn(l, lang)
	return wire.ChatLine{Channel: l.Channel, From: l.Seat, Name: name, Text: text,
		Now: l.At.UnixMilli(), Round: l.Round, Phase: l.Phase, Bot: wireBot(l.Bot)}
}

// maxRendered bounds the renderings the room keeps (lineIn): a few pages'
// lines in every language.
const maxRendered = 4 * (chatKept + pageLines) * 3

// renderKey is a line (its Seq) in a language.
type renderKey struct {
	seq  int
	lang locale.Lang
}

// rendered is a bot line's name and text in one language.
type rendered struct{ name, text string }

// lineIn is line l's sender's name and text for a reader in lang (ChatName,
// ChatText). A bot's line is rendered once per language and kept: a
// rendering takes tens of microseconds, and a history page renders up to
// fifty lines in every language (lineBound).
func (r *Room) lineIn(l store.ChatLine, lang locale.Lang) (name, text string) {
	if l.Bot.Kind == "" {
		return l.Name, l.Text
	}
	k := renderKey{l.Seq, lang}
	if v, ok := r.renders[k]; ok {
		return v.name, v.text
	}
	if r.renders == nil || len(r.renders) >= maxRendered {
		r.renders = map[renderKey]rendered{}
	}
	v := rendered{ChatName(lang, l), ChatText(lang, l)}
	r.renders[k] = v
	return v.name, v.text
}

// wireBot is what a bot's line means as its frame carries it (nil for any
// other line): for programs, which need not parse its text.
func wireBot(b store.BotLine) *wire.BotLine {
	if b.Kind == "" {
		return nil
	}
	w := &wire.BotLine{Kind: b.Kind, Seat: b.Seat, Role: b.Role, Result: b.Result, Count: b.Count, Pick: b.Pick, Voice: b.Voice}
	for i, s := range b.More {
		if s != 0 {
			w.More = append([]int(nil), b.More[:i+1]...)
		}
	}
	return w
}

// lineBound is a bound on the bytes line l takes in a history page,
// whatever its reader's language: the longest of its renderings.
func (r *Room) lineBound(l store.ChatLine) (wire.ChatLine, int) {
	longest := r.wireLineIn(l, locale.En)
	n := len(longest.AppendJSON(nil))
	if l.Bot.Kind == "" {
		return longest, n
	}
	for _, lang := range locale.Langs()[1:] {
		wl := r.wireLineIn(l, lang)
		if m := len(wl.AppendJSON(nil)); m > n {
			longest, n = wl, m
		}
	}
	return longest, n
}
