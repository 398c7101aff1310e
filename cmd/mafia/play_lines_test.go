package main

import (
	"strconv"
	"strings"
	"testing"
	"unicode"

	"mafia/bot"
	"mafia/engine"
	"mafia/locale"
	"mafia/room"
)

// TestPlayShowsTheBotsLinesAsTheTablesChat: in a seeded game against smart
// bots the person reads the bots' spoken lines in her language, each as the
// table's chat shows a bot's line ("Bot N (seat N): …"), at the moment it is
// said: on the bot's own floor (after the narration of its speech, defence,
// tie speech or last words began, before another floor), or after the end.
// None is said for the person's seat, none shows a catalog id, and each is
// written in the language's own letters.
func TestPlayShowsTheBotsLinesAsTheTablesChat(t *testing.T) {
	script := map[locale.Lang]*unicode.RangeTable{locale.Ka: unicode.Georgian, locale.Ru: unicode.Cyrillic, locale.En: unicode.Latin}
	for _, lang := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		t.Run(string(lang), func(t *testing.T) {
			p := locale.New(lang)
			const me = 1
			out, errs, code := play(t, sensible, "--seed", "7", "--seat", "1", "--bots", "smart", "--lang", string(lang))
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			checkClean(t, out)
			// the sentence of a line of seat s, cut around its text
			prefix := make(map[int]string)
			suffix := make(map[int]string)
			floors := make(map[string]int)
			for s := 1; s <= engine.PresetMax; s++ {
				full := p.T("play.chat.bot_line", map[string]any{"Seat": s, "Text": "\x00"})
				prefix[s], suffix[s], _ = strings.Cut(full, "\x00")
				for _, k := range []engine.EventKind{engine.EvSpeech, engine.EvDefence, engine.EvTieSpeech, engine.EvLastWords} {
					floors[p.Event(engine.Event{Kind: k, Target: engine.Seat(s)}, me)] = s
				}
			}
			ends := map[string]bool{p.T("play.you_win", nil): true, p.T("play.you_lose", nil): true, p.T("play.you_draw", nil): true}
			holder, ended := 0, false
			said := 0
			for _, line := range strings.Split(out, "\n") {
				line = strings.TrimPrefix(line, "> ")
				if s, ok := floors[line]; ok {
					holder = s
				}
				if ends[line] {
					ended = true
				}
				for s := 1; s <= engine.PresetMax; s++ {
					if !strings.HasPrefix(line, prefix[s]) || !strings.HasSuffix(line, suffix[s]) {
						continue
					}
					said++
					text := strings.TrimSuffix(strings.TrimPrefix(line, prefix[s]), suffix[s])
					switch {
					case s == me:
						t.Errorf("a line for the person's seat: %q", line)
					case !ended && holder != s:
						t.Errorf("seat %d speaks on seat %d's floor: %q", s, holder, line)
					case strings.Contains(text, "botline"):
						t.Errorf("a line shows its catalog id: %q", line)
					case !strings.ContainsFunc(text, func(r rune) bool { return unicode.Is(script[lang], r) }):
						t.Errorf("a line not in %s: %q", lang, line)
					}
				}
			}
			if said == 0 {
				t.Fatalf("no bot said a line:\n%s", out)
			}
			t.Logf("%d lines", said)
		})
	}
}

// botLinesOf returns the texts of the bots' lines in play's output, by the
// catalog's sentence id (play.chat.bot_line or play.chat.mafia_line).
func botLinesOf(p *locale.Printer, out, id string) []string {
	var texts []string
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimPrefix(line, "> ")
		for s := 1; s <= engine.PresetMax; s++ {
			pre, suf, _ := strings.Cut(p.T(id, map[string]any{"Seat": s, "Text": "\x00"}), "\x00")
			if strings.HasPrefix(line, pre) && strings.HasSuffix(line, suf) {
				texts = append(texts, strings.TrimSuffix(strings.TrimPrefix(line, pre), suf))
			}
		}
	}
	return texts
}

// TestPlayShowsAStatementOnce: a bot's statement is narrated, and the line
// that only says it aloud is not shown again (the review of 2026-12-05, §4:
// every statement was printed twice). No bot line shown is the voice of a
// claim, a report, a vouch or a nomination to come, in any phrasing.
func TestPlayShowsAStatementOnce(t *testing.T) {
	p := locale.New(locale.En)
	voices := map[string]bool{}
	for s := 1; s <= 11; s++ {
		for pick := 0; pick < 8; pick++ {
			for _, l := range []bot.Line{
				{Kind: bot.LineTrust, Seat: engine.Seat(s)}, {Kind: bot.LineWillNominate, Seat: engine.Seat(s)},
				{Kind: bot.LineChecked, Seat: engine.Seat(s), Result: engine.ResultMafia},
				{Kind: bot.LineChecked, Seat: engine.Seat(s), Result: engine.ResultNotMafia},
			} {
				l.Pick = uint8(pick)
				voices[room.RenderLine(locale.En, l)] = true
			}
		}
	}
	shown := 0
	for _, seed := range []string{"7", "11", "23"} {
		out, errs, code := play(t, sensible, "--seed", seed, "--seat", "3", "--bots", "smart", "--lang", "en")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		for _, text := range botLinesOf(p, out, "play.chat.bot_line") {
			shown++
			if voices[text] {
				t.Errorf("seed %s: a statement shown again as a line: %q", seed, text)
			}
		}
	}
	if shown == 0 {
		t.Fatal("no bot line shown")
	}
	t.Logf("%d bot lines shown", shown)
}

// TestPlayShowsTheMafiasNightChatToTheMafiaOnly: a person seated as a
// mafioso reads the mafia bots' night chat; a citizen reads none of it.
func TestPlayShowsTheMafiasNightChatToTheMafiaOnly(t *testing.T) {
	const seed = 7
	setup, err := engine.Preset(11)
	if err != nil {
		t.Fatal(err)
	}
	roles := setup.Deal(seed, make([]engine.Role, setup.Players()))
	var mafioso, citizen int
	for i, r := range roles {
		switch {
		case r.IsMafia() && mafioso == 0:
			mafioso = i + 1
		case r == engine.Citizen && citizen == 0:
			citizen = i + 1
		}
	}
	p := locale.New(locale.Ru)
	for _, c := range []struct {
		seat int
		want bool
	}{{mafioso, true}, {citizen, false}} {
		out, errs, code := play(t, sensible, "--seed", strconv.Itoa(seed), "--seat", strconv.Itoa(c.seat), "--bots", "smart", "--lang", "ru")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		chat := botLinesOf(p, out, "play.chat.mafia_line")
		if (len(chat) > 0) != c.want {
			t.Errorf("seat %d (%s): %d lines of the mafia's night chat shown, want some: %v", c.seat, roles[c.seat-1], len(chat), c.want)
		}
		for _, text := range chat {
			if strings.Contains(text, "botline") || !strings.ContainsFunc(text, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) {
				t.Errorf("a night line not in Russian: %q", text)
			}
		}
	}
}
