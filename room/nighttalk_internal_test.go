package room

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode"

	"mafia/bot"
	"mafia/engine"
	"mafia/locale"
	"mafia/wire"
)

// nightSpeaker is a bot that says two lines of one kind and phrasing at
// each night (what bots-talk's mafia says; here any kind will do), and
// plays as its own bot otherwise.
type nightSpeaker struct {
	bot.Bot
	night uint32 // the step of the night it spoke in
	said  int
}

func (b *nightSpeaker) Speak(v *engine.View) (bot.Line, bool) {
	if v.Phase != engine.PhaseNight {
		return bot.Line{}, false
	}
	if v.Step != b.night {
		b.night, b.said = v.Step, 0
	}
	if b.said == 2 {
		return bot.Line{}, false
	}
	b.said++
	return bot.Line{Kind: bot.LineNightTake, Seat: 4, Pick: 5}, true
}

// tabFrames is what one connection was sent, frame by frame.
type tabFrames struct {
	sub    *Sub
	frames [][]byte
}

func (c *tabFrames) drain() {
	for {
		o, ok, _ := c.sub.Take()
		if !ok {
			return
		}
		if o.Reply == nil {
			c.frames = append(c.frames, append([]byte(nil), o.Frame...))
		}
		o.Release()
	}
}

// chats are the chat frames of channel among c's frames from index from.
func (c *tabFrames) chats(from int, channel string) []wire.ServerMessage {
	var out []wire.ServerMessage
	for _, f := range c.frames[from:] {
		var m wire.ServerMessage
		if json.Unmarshal(f, &m) == nil && m.Type == "chat" && m.Channel == channel {
			out = append(out, m)
		}
	}
	return out
}

// lengths are the lengths of c's frames from index from.
func (c *tabFrames) lengths(from int) []int {
	var out []int
	for _, f := range c.frames[from:] {
		out = append(out, len(f))
	}
	return out
}

func inScript(lang locale.Lang, s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		switch {
		case lang == locale.Ka && !unicode.Is(unicode.Georgian, r),
			lang == locale.Ru && !unicode.Is(unicode.Cyrillic, r),
			lang == locale.En && r > unicode.MaxASCII:
			return false
		}
	}
	return true
}

// TestTheMafiaBotsNightLinesReachTheMafiaAloneInEachReadersLanguage pins
// the room's side of the mafia's night chat with a bot that speaks at
// night: a living mafia bot is asked once a night (at once at an instant
// table) and its lines go out at the night's ticks in the mafia's chat, to
// the mafia's connections alone, each in its own language (a person of the
// mafia in Georgian, the same seat's second tab in English), its name from
// the catalog; the town's person and a spectator read none, and the town's
// person is sent frames of the very lengths the mafioso's tab is, tick by
// tick. The second of two lines of the same kind and phrasing in a row is
// said in another phrasing (chorus.go); both are stored as what they mean.
func TestTheMafiaBotsNightLinesReachTheMafiaAloneInEachReadersLanguage(t *testing.T) {
	for _, pace := range []string{PaceInstant, PaceHuman} {
		t.Run(pace, func(t *testing.T) { mafiaNightLines(t, pace) })
	}
}

// mafiaNightLines is the test above at a table of the given pace: at human
// pace the lines come after the bot's reading time (HumanWait), and before
// the night's deadline.
func mafiaNightLines(t *testing.T, pace string) {
	ctx := context.Background()
	db, clk, setup := internalFixture(t, 7)
	r, host, err := Create(ctx, Config{Store: db, Clock: clk, SendBuffer: 1 << 14},
		Settings{Name: "t", Setup: setup, Lang: "en", Pace: pace, TimingMS: map[string]int64{"night": 10_000}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	_, mafTok, err := r.Join(ctx, JoinRequest{Name: "Nino", Seat: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, townTok, err := r.Join(ctx, JoinRequest{Name: "Gela", Seat: 3})
	if err != nil {
		t.Fatal(err)
	}
	attach := func(tok string, lang locale.Lang) *tabFrames {
		sub, err := r.AttachIn(ctx, tok, 0, lang, nil)
		if err != nil {
			t.Fatal(err)
		}
		return &tabFrames{sub: sub}
	}
	if _, err := r.Attach(ctx, host, 0); err != nil {
		t.Fatal(err)
	}
	mafKa, mafEn := attach(mafTok, locale.Ka), attach(mafTok, locale.En)
	townRu, spectRu := attach(townTok, locale.Ru), attach("", locale.Ru)
	tabs := []*tabFrames{mafKa, mafEn, townRu, spectRu}
	run := func(f func()) {
		t.Helper()
		if err := r.do(ctx, f); err != nil {
			t.Fatal(err)
		}
		for _, c := range tabs {
			c.drain()
		}
	}
	// The deal: seat 1 (Nino) the mafioso, seat 2 the Don (a bot), seat 3
	// (Gela) a citizen.
	run(func() {
		r.set.Sandbox = &Sandbox{Deal: []string{"mafia", "don", "citizen", "detective", "doctor", "citizen", "citizen"}}
		if err := r.hostAction("add_bots", 0); err != nil {
			t.Error(err)
		}
	})
	from := make([]int, len(tabs))
	for i, c := range tabs {
		from[i] = len(c.frames)
	}
	run(func() {
		if err := r.hostAction("start", 0); err != nil {
			t.Fatal(err)
		}
	})
	var night int
	start := clk.Now()
	run(func() {
		if r.game.Phase() != engine.PhaseNight || r.game.Role(2) != engine.Don {
			t.Fatalf("the game begins with %s, seat 2 the %s", r.game.Phase(), r.game.Role(2))
		}
		night = r.game.Step()
	})
	// The Don's bot speaks at night; the others are as they were.
	run(func() {
		r.bots[2] = &nightSpeaker{Bot: r.bots[2]}
		if pace == PaceInstant { // its turn is over: it is given another
			r.nightTalked, r.botDone = 0, r.botDone.Without(2)
			r.settle()
		}
	})
	for i := 0; i < 20; i++ {
		clk.Advance(time.Second)
		step := night
		run(func() { step = r.game.Step() })
		if step != night {
			break
		}
	}
	for i, c := range []*tabFrames{mafKa, mafEn} {
		lang := []locale.Lang{locale.Ka, locale.En}[i]
		got := c.chats(from[i], "mafia")
		if len(got) != 2 {
			t.Fatalf("the mafioso's %s tab read %d lines of the night, want 2", lang, len(got))
		}
		if got[0].Text == got[1].Text {
			t.Errorf("two lines in a row in the same words: %q", got[0].Text)
		}
		lo, _ := HumanWait(engine.PhaseNight, 10*time.Second)
		for _, m := range got {
			at := time.UnixMilli(m.Now).Sub(start)
			if at >= 10*time.Second || (pace == PaceHuman && at < lo) {
				t.Errorf("at %s pace a line of the night went out %s into it (a reading time of %s at least, before 10 s)", pace, at, lo)
			}
			if m.From != 2 || m.Name != BotName(lang, 2) || !inScript(lang, m.Text) || strings.Contains(m.Text, "botline") {
				t.Errorf("the %s tab read %+v", lang, m)
			}
		}
	}
	if BotName(locale.Ka, 2) != "ბოტი 2" {
		t.Errorf("the Georgian bot's name is %q", BotName(locale.Ka, 2))
	}
	for i, c := range []*tabFrames{townRu, spectRu} {
		if got := c.chats(from[2+i], "mafia"); len(got) != 0 {
			t.Errorf("%s read the mafia's lines: %+v", []string{"the town's person", "a spectator"}[i], got)
		}
	}
	ka, en, town := mafKa.lengths(from[0]), mafEn.lengths(from[1]), townRu.lengths(from[2])
	if !equalInts(ka, en) || !equalInts(ka, town) {
		t.Errorf("the night's frames differ in length:\n  mafioso (ka) %v\n  mafioso (en) %v\n  town (ru)    %v", ka, en, town)
	}
	t.Logf("the night's frame lengths, every seat's: %v; the lines (ka): %q", ka, []string{mafKa.chats(from[0], "mafia")[0].Text, mafKa.chats(from[0], "mafia")[1].Text})
	lines, err := db.Chat(ctx, r.id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 {
		t.Fatalf("%d lines stored, want 2", len(lines))
	}
	n := Phrasings(locale.En, "botline.night_take")
	if n < 2 {
		t.Fatalf("the catalog holds %d phrasings of night_take", n)
	}
	for _, l := range lines {
		if l.Channel != "mafia" || l.Bot.Kind != "night_take" || l.Bot.Seat != 4 || !inScript(locale.En, l.Text) {
			t.Errorf("stored: %+v", l)
		}
	}
	if lines[0].Bot.Pick%n == lines[1].Bot.Pick%n {
		t.Errorf("two lines in a row in one phrasing: picks %d and %d of %d", lines[0].Bot.Pick, lines[1].Bot.Pick, n)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
