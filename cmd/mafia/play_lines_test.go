package main

import (
	"strings"
	"testing"
	"unicode"

	"mafia/engine"
	"mafia/locale"
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
