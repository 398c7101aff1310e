package room_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"mafia/bot"
	"mafia/engine"
	"mafia/locale"
	"mafia/room"
	"mafia/store"
)

// The bots' spoken lines (room/botlines.go): smart bots at a table with a
// person say a few lines on their floors, in the table's language, as
// their seats' chat lines (stored, read by everyone); a stand-in never
// speaks; at human pace a floor's lines and statements are spread over it,
// never past its deadline.

// storedChat is the table's chat as the store keeps it.
func (f *fixture) storedChat() []store.ChatLine {
	f.t.Helper()
	lines, err := f.db.Chat(bg(), f.r.ID(), store.MaxChatLines)
	if err != nil {
		f.t.Fatal(err)
	}
	return lines
}

// floorOf is the step (the index in the log of the event that began it) a
// line said after the log's first n events belongs to.
func floorOf(evs []engine.Event, n int) int {
	for i := min(n, len(evs)) - 1; i >= 0; i-- {
		if evs[i].Kind.BeginsStep() {
			return i
		}
	}
	return -1
}

// script reports whether every letter of s is of the language's script.
func script(lang locale.Lang, s string) bool {
	letters := 0
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		var ok bool
		switch lang {
		case locale.Ka:
			ok = unicode.Is(unicode.Georgian, r)
		case locale.Ru:
			ok = unicode.Is(unicode.Cyrillic, r)
		default:
			ok = r < unicode.MaxASCII
		}
		if !ok {
			return false
		}
	}
	return letters > 0
}

func TestBotLines_SmartBotsSpeakOnTheirFloorsInTheTablesLanguage(t *testing.T) {
	for _, lang := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		t.Run(string(lang), func(t *testing.T) {
			set := settings(t, 11, fastTimings)
			set.Bots, set.Lang = "smart", string(lang)
			f := newFixture(t, set, nil)
			host := f.hostClient()
			_, tok := f.join("Nino", 1)
			person := f.attach(tok)
			watch := f.attach("")
			host.must(hostAction("add_bots", 0))
			host.must(hostAction("start", 0))
			f.runToEnd(watch, time.Hour)
			f.checkEnded(watch)
			evs := f.events()
			lines := f.storedChat()
			perFloor := map[[2]int]int{}
			texts := map[string]bool{}
			after, town := 0, 0
			for _, l := range lines {
				// the mafia's bots talk at night in their own chat
				night := l.Channel == "mafia" && l.Phase == "night" && strings.HasPrefix(l.Bot.Kind, "night_")
				if l.Seat == 1 || (l.Channel != "town" && !night) {
					t.Fatalf("a line not of a bot's seat on the town's channel, nor of the mafia's night: %+v", l)
				}
				if !script(lang, l.Text) {
					t.Errorf("a bot's line not in %s: %q", lang, l.Text)
				}
				if strings.Contains(l.Text, "botline") || strings.Contains(l.Text, "<no value>") {
					t.Errorf("a line with no sentence: %q", l.Text)
				}
				texts[l.Text] = true
				if night {
					continue
				}
				town++
				if l.Phase == "ended" {
					after++
					continue
				}
				// on its own floor: the step it was said in is its speaker's
				st := floorOf(evs, l.Log)
				if _, sp := stepOf(evs[st]); sp != engine.Seat(l.Seat) {
					t.Errorf("seat %d spoke in a step of seat %d: %q", l.Seat, sp, l.Text)
				}
				if perFloor[[2]int{l.Seat, st}]++; perFloor[[2]int{l.Seat, st}] > bot.MaxLines {
					t.Errorf("seat %d said more than %d lines on one floor", l.Seat, bot.MaxLines)
				}
			}
			if len(texts) < 5 {
				t.Fatalf("the bots said %d different lines in a game: %v", len(texts), texts)
			}
			if after > 10 {
				t.Errorf("%d farewells after the end: every bot at once is a wall", after)
			}
			// everyone reads them as chat from the bot's seat, the person too
			read := 0
			person.drain()
			for _, fr := range person.frames {
				if fr.msg.Type == "chat" && fr.msg.Channel == "town" && fr.msg.From != 1 {
					read++
				}
			}
			if read != town {
				t.Errorf("the person read %d of the bots' %d lines in the town's chat", read, town)
			}
			t.Logf("%s: %d lines (%d after the end), e.g. %q", lang, len(lines), after, lines[0].Text)
		})
	}
}

// TestBotLines_ATableOfBotsAloneSaysNothing: nobody reads a table with no
// person at it (the bench's), so its bots say no lines.
func TestBotLines_ATableOfBotsAloneSaysNothing(t *testing.T) {
	set := settings(t, 11, fastTimings)
	set.Bots = "smart"
	f := newFixture(t, set, nil)
	host := f.hostClient()
	watch := f.attach("")
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	f.runToEnd(watch, time.Hour)
	if lines := f.storedChat(); len(lines) != 0 {
		t.Fatalf("bots alone said %d lines: %q", len(lines), lines[0].Text)
	}
}

// TestBotLines_ATableIsMadeInTheServersDefaultUnlessToldAndOnlyInALanguageTheCatalogsHold:
// the default is the one errors use for a request that names no language
// (negotiate.Lang), English.
func TestBotLines_ATableIsMadeInTheServersDefaultUnlessToldAndOnlyInALanguageTheCatalogsHold(t *testing.T) {
	f := newFixture(t, settings(t, 7, nil), nil)
	tb, _ := f.storedTable()
	if room.DefaultLang != locale.En || !strings.Contains(string(tb.Data), `"lang":"en"`) {
		t.Errorf("a table made without a language is stored as %s (default %s), want en", tb.Data, room.DefaultLang)
	}
	for _, lang := range []string{"de", "english", "KA ", "ka_GE"} {
		set := settings(t, 7, nil)
		set.Lang = lang
		if _, _, err := set.Check(); codeOf(err) != room.CodeBadRequest {
			t.Errorf("language %q: %v, want bad_request", lang, err)
		}
	}
}

// TestBotLines_AStandInNeitherSpeaksNorStates: a bot standing in for a
// person who dropped plays their seat but puts no words in their mouth: no
// line, no statement; the table's own bots speak meanwhile.
func TestBotLines_AStandInNeitherSpeaksNorStates(t *testing.T) {
	bots := 0
	for game := 0; game < 3; game++ {
		set := settings(t, 11, fastTimings)
		set.Bots, set.StandIn = "smart", 500*time.Millisecond
		f := newFixture(t, set, nil)
		host := f.hostClient()
		watch := f.attach("")
		cs := map[int]*client{}
		for s := 1; s <= 4; s++ {
			_, tok := f.join(fmt.Sprint("person ", s), s)
			cs[s] = f.attach(tok)
		}
		host.must(hostAction("add_bots", 0))
		host.must(hostAction("start", 0))
		for s := 2; s <= 4; s++ {
			f.r.Detach(cs[s].sub)
		}
		f.runToEnd(watch, time.Hour)
		moved := 0
		for _, e := range f.events() {
			if e.Actor >= 2 && e.Actor <= 4 {
				if e.Kind == engine.EvStatement {
					t.Fatalf("game %d: the stand-in of seat %d stated %s", game, e.Actor, e.Verb)
				}
				if botMoves[e.Kind] {
					moved++
				}
			}
		}
		if moved == 0 {
			t.Fatalf("game %d: the stand-ins made no move", game)
		}
		for _, l := range f.storedChat() {
			if l.Seat >= 1 && l.Seat <= 4 {
				t.Fatalf("game %d: a line in the name of seat %d, a person's: %q", game, l.Seat, l.Text)
			}
			bots++
		}
	}
	if bots == 0 {
		t.Fatal("the table's own bots said nothing in 3 games")
	}
}

// floorItem is one thing a bot did on its floor: a line, a statement, or
// the floor's end; when, in its step.
type floorItem struct {
	what  string
	at    time.Time
	floor int // the index of the event that began the step
}

// TestBotLines_AtHumanPaceAFloorsItemsAreSpreadAndNeverPastItsDeadline: on
// the fake clock, a smart bot at human pace reads first (its reading time),
// then says its lines and makes its statements one by one, a sentence's
// time apart, then ends its floor, all before the deadline; at instant pace
// everything comes at once, at the floor's start.
func TestBotLines_AtHumanPaceAFloorsItemsAreSpreadAndNeverPastItsDeadline(t *testing.T) {
	for _, pace := range []string{room.PaceHuman, room.PaceInstant} {
		t.Run(pace, func(t *testing.T) {
			// The deal and the bots' seeds are the room's own (crypto)
			// draw: a game may give no bot two things to say in one
			// floor, so up to eight games are played, each checked whole,
			// until one floor shows its talk spread.
			floors, spread := 0, 0
			for game := 0; game < 8 && (game == 0 || pace == room.PaceHuman && spread == 0); game++ {
				floors, spread = checkBotFloors(t, pace)
			}
			if pace == room.PaceHuman && spread == 0 {
				t.Fatal("in eight games no bot's floor had two items spread over it")
			}
			t.Logf("%s: %d floors of bots, %d with their talk spread over them", pace, floors, spread)
		})
	}
}

// checkBotFloors plays one game of smart bots and a person at pace, fails t
// for any item of a bot's floor past its deadline, before its reading time
// or too soon after the one before it (at instant pace: any not at the
// floor's start), and returns how many bot floors there were and how many
// had two or more things said spread over them.
func checkBotFloors(t *testing.T, pace string) (floors, spread int) {
	t.Helper()
	set := settings(t, 11, tenthTimings)
	set.Bots, set.Pace = "smart", pace
	f, ts := paceTable(t, set)
	f.playFine(2 * time.Hour)
	tm := timingsOf(tenthTimings)
	evs := f.events()
	// each step's start and deadline, by the index of its first event
	type span struct {
		start, deadline time.Time
		phase           engine.Phase
		speaker         engine.Seat
	}
	spans := map[int]span{}
	var items []floorItem
	n := 0
	ts.mu.Lock()
	for _, b := range ts.batches {
		for _, e := range b.evs {
			if e.Kind.BeginsStep() && b.clk != nil && e.Kind != engine.EvGameEnded {
				p, sp := stepOf(e)
				spans[n] = span{b.at, b.clk.Deadline, p, sp}
			}
			if e.Kind == engine.EvStatement {
				items = append(items, floorItem{"statement " + e.Verb.String(), b.at, floorOf(evs, n+1)})
			}
			if e.Kind.BeginsStep() && n > 0 {
				items = append(items, floorItem{"end", b.at, floorOf(evs, n)})
			}
			n++
		}
	}
	ts.mu.Unlock()
	for _, l := range f.storedChat() {
		if l.Phase != "ended" {
			items = append(items, floorItem{"line", l.At, floorOf(evs, l.Log)})
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].at.Before(items[j].at) })
	byFloor := map[int][]floorItem{}
	for _, it := range items {
		if sp, ok := spans[it.floor]; ok && sp.phase.Timed() && sp.speaker != 1 {
			byFloor[it.floor] = append(byFloor[it.floor], it)
		}
	}
	for fl, its := range byFloor {
		sp := spans[fl]
		step := tm.For(sp.phase)
		margin := min(step/10, 2*time.Second)
		talk := 0
		for i, it := range its {
			if it.what != "end" {
				talk++
			}
			if !it.at.Before(sp.deadline) {
				t.Errorf("%s of seat %d's %s %v after its deadline", it.what, sp.speaker, sp.phase, it.at.Sub(sp.deadline))
			}
			if pace == room.PaceInstant {
				if !it.at.Equal(sp.start) {
					t.Errorf("instant pace: %s of seat %d's %s %v after its start", it.what, sp.speaker, sp.phase, it.at.Sub(sp.start))
				}
				continue
			}
			if i == 0 {
				if lo, _ := room.HumanWait(sp.phase, step); it.at.Sub(sp.start) < lo-slack {
					t.Errorf("seat %d's %s: %s %v after the start, before its reading time (%v)", sp.speaker, sp.phase, it.what, it.at.Sub(sp.start), lo)
				}
				continue
			}
			gap := it.at.Sub(its[i-1].at)
			hurried := sp.deadline.Sub(it.at) <= margin+slack
			if lo, _ := room.ItemGap(sp.phase, step); gap < lo-slack && !hurried && it.what != "end" {
				t.Errorf("seat %d's %s: %s only %v after its last item (a sentence's time is %v)", sp.speaker, sp.phase, it.what, gap, lo)
			}
		}
		if pace == room.PaceHuman && talk >= 2 && its[len(its)-1].at.Sub(its[0].at) > 0 {
			spread++
		}
	}
	return len(byFloor), spread
}
