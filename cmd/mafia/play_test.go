package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"mafia/engine"
	"mafia/locale"
)

// player is a stdin that answers each prompt when the game asks, from
// what the game has printed since its last answer: a scripted person.
type player struct {
	out     *bytes.Buffer
	seen    int
	answer  func(screen string) string
	pending []byte
	lines   int
}

// maxLines bounds a scripted game's input; past it, input ends.
const maxLines = 5000

func (r *player) Read(p []byte) (int, error) {
	if len(r.pending) == 0 {
		if r.lines >= maxLines {
			return 0, io.EOF
		}
		screen := r.out.String()[r.seen:]
		r.seen = r.out.Len()
		r.pending = []byte(r.answer(screen) + "\n")
		r.lines++
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// play runs mafia play with a scripted person, among random bots unless
// args choose a level (the scripted flows were written for bots that do not
// talk; TestPlayTheDefaultBotsTalk plays the default).
func play(t *testing.T, answer func(screen string) string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if !slices.Contains(args, "--bots") {
		args = append([]string{"--bots", "random"}, args...)
	}
	var out, errb bytes.Buffer
	in := &player{out: &out, answer: answer}
	code = runPlay(args, in, &out, &errb)
	return out.String(), errb.String(), code
}

// choices returns the choices of the prompt at the end of the screen.
func choices(screen string) []string {
	lines := strings.Split(strings.TrimSuffix(screen, "> "), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if _, rest, ok := strings.Cut(lines[i], ": "); ok && strings.Contains(rest, " | ") || strings.HasPrefix(rest, "Enter") {
			return strings.Split(rest, " | ")
		}
	}
	return nil
}

var targetChoice = regexp.MustCompile(`^(\S+) N \(([0-9, ]+)\)$`)

// target reads a choice "word N (1, 2, 4)".
func target(choice string) (word string, seats []int, ok bool) {
	m := targetChoice.FindStringSubmatch(choice)
	if m == nil {
		return "", nil, false
	}
	for _, s := range strings.Split(m[2], ", ") {
		n, _ := strconv.Atoi(s)
		seats = append(seats, n)
	}
	return m[1], seats, true
}

// sensible answers every prompt legally in the prompt's own words: the
// first target of the first command that takes one, else the first word
// offered (yes, skip), else Enter.
func sensible(screen string) string {
	cs := choices(screen)
	for _, c := range cs {
		if w, seats, ok := target(c); ok {
			return fmt.Sprintf("%s %d", w, seats[len(seats)/2])
		}
	}
	for _, c := range cs {
		if !strings.HasPrefix(c, "Enter") && !strings.Contains(c, " ") {
			return c
		}
	}
	return ""
}

func winners(p *locale.Printer) map[string]engine.Winner {
	out := map[string]engine.Winner{}
	for w := engine.WinnerTown; w <= engine.WinnerDraw; w++ {
		out[p.Winner(w)] = w
	}
	return out
}

// checkClean fails on template leftovers in the output.
func checkClean(t *testing.T, out string) {
	t.Helper()
	for _, bad := range []string{"<no value>", "{{", "}}", "%!"} {
		if strings.Contains(out, bad) {
			t.Errorf("the output holds %q", bad)
		}
	}
}

func TestPlayAWholeGameReachesTheEndInEveryLanguage(t *testing.T) {
	for _, l := range locale.Langs() {
		t.Run(string(l), func(t *testing.T) {
			p := locale.New(l)
			voted := false
			for seed := 1; seed <= 6; seed++ {
				out, errs, code := play(t, sensible, "--seed", strconv.Itoa(seed), "--lang", string(l))
				if code != 0 {
					t.Fatalf("seed %d: exit %d, stderr %q", seed, code, errs)
				}
				checkClean(t, out)
				head := p.T("event.game_ended", nil) + "\n"
				i := strings.Index(out, head)
				if i < 0 {
					t.Fatalf("seed %d: the game did not end:\n%s", seed, tail(out))
				}
				line, _, _ := strings.Cut(out[i+len(head):], "\n")
				if _, ok := winners(p)[line]; !ok {
					t.Errorf("seed %d: after %q comes %q, not a winner line", seed, head, line)
				}
				verdicts := []string{p.T("play.you_win", nil), p.T("play.you_lose", nil), p.T("play.you_draw", nil)}
				if last := lastLine(strings.TrimSuffix(out, lastLine(out)+"\n")); !contains(verdicts, last) {
					t.Errorf("seed %d: the line before the replay line, %q, is no verdict", seed, last)
				}
				if replay := lastLine(out); !strings.Contains(replay, "--seed "+strconv.Itoa(seed)) {
					t.Errorf("seed %d: the last line %q does not say how to replay the deal", seed, replay)
				}
				if strings.Contains(out, tail(p.T("play.unknown", map[string]any{"Input": "", "Help": ""}))) {
					t.Errorf("seed %d: a word of the prompt was not understood:\n%s", seed, out)
				}
				for s := 1; s <= 11; s++ {
					voted = voted || strings.Contains(out, p.T("event.vote_cast_you", map[string]any{"Target": s}))
				}
			}
			if !voted {
				t.Error("in no game did the person's vote (typed in the prompt's words) count")
			}
		})
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func tail(s string) string {
	if len(s) > 12 {
		return s[len(s)-12:]
	}
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// seatOf returns the seat that holds role in the preset of 11 dealt with seed.
func seatOf(t *testing.T, seed uint64, role engine.Role) int {
	t.Helper()
	setup, err := engine.Preset(11)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range setup.Deal(seed, make([]engine.Role, 11)) {
		if r == role {
			return i + 1
		}
	}
	t.Fatalf("no %s in the deal", role)
	return 0
}

func TestPlayIllegalInputGetsTheEnginesSentenceAndTheGameGoesOn(t *testing.T) {
	for _, c := range []struct {
		name string
		lang locale.Lang
		role engine.Role // the person's card (RoleNone: any)
		when string      // type the line at a prompt offering this word ("": any prompt)
		line string      // %d is the person's seat
		want string      // the sentence; %d is the person's seat
	}{
		{"healing a player twice", locale.En, engine.Doctor, "heal", "heal %d",
			"Seat %d has already been healed this game."},
		{"healing a player twice, in Russian words", locale.Ru, engine.Doctor, "лечить", "лечить №%d",
			"Игрока №%d в этой игре уже лечили."},
		{"nominating yourself", locale.En, engine.RoleNone, "nominate", "nominate %d",
			"You may not nominate yourself."},
		{"nominating yourself, in Georgian words", locale.Ka, engine.RoleNone, "დაასახელე", "დაასახელე %d",
			"საკუთარი თავის დასახელება არ შეიძლება."},
		{"a seat off the table", locale.En, engine.RoleNone, "vote", "vote 12",
			"There is no seat 12 at this table: the seats are 1 to 11."},
		{"a number no seat can have", locale.En, engine.RoleNone, "vote", "vote 300",
			"There is no seat 300 at this table: the seats are 1 to 11."},
		{"a night action in the day", locale.En, engine.Citizen, "nominate", "kill 1",
			"That cannot be done now (the game is at: speeches)."},
		{"gibberish", locale.En, engine.RoleNone, "", "blorp 7",
			"“blorp 7” is not a command here. Type help for the commands."},
		{"gibberish in Russian", locale.Ru, engine.RoleNone, "", "абракадабра",
			"«абракадабра» — здесь не команда. Наберите помощь, чтобы увидеть список команд."},
		{"a command without its seat", locale.En, engine.RoleNone, "vote", "vote",
			"Which seat? Type vote and a seat number, for example: vote 3."},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := locale.New(c.lang)
			prompt := strings.TrimSpace(p.T("play.prompt", map[string]any{"Choices": ""}))
			for seed := uint64(1); seed <= 40; seed++ {
				args := []string{"--seed", strconv.FormatUint(seed, 10), "--lang", string(c.lang)}
				me := 0
				if c.role != engine.RoleNone {
					me = seatOf(t, seed, c.role)
					args = append(args, "--seat", strconv.Itoa(me))
				}
				tried := 0
				out, _, code := play(t, func(screen string) string {
					if me == 0 {
						me = seatFromScreen(screen)
					}
					if tried < 2 && (c.when == "" || hasWord(choices(screen), c.when)) {
						tried++
						return strings.ReplaceAll(c.line, "%d", strconv.Itoa(me))
					}
					return sensible(screen)
				}, args...)
				want := strings.ReplaceAll(c.want, "%d", strconv.Itoa(me))
				i := strings.Index(out, want+"\n")
				if i < 0 {
					continue // this deal never gave the chance: try the next
				}
				if code != 0 {
					t.Fatalf("seed %d: exit %d", seed, code)
				}
				if next := out[i+len(want)+1:]; !strings.HasPrefix(next, prompt) {
					t.Errorf("seed %d: after the sentence comes %q, not the prompt again", seed, tail(next))
				}
				if !strings.Contains(out, p.T("event.game_ended", nil)+"\n") {
					t.Errorf("seed %d: the game did not go on to its end:\n%s", seed, tail(out))
				}
				checkClean(t, out)
				return
			}
			t.Fatalf("in no game of 40 did %q appear", c.want)
		})
	}
}

func hasWord(cs []string, word string) bool {
	for _, c := range cs {
		if strings.HasPrefix(c, word+" ") || c == word {
			return true
		}
	}
	return false
}

var seatLine = regexp.MustCompile(`(?:You are seat |შენ ხარ №|Вы — игрок №)(\d+)`)

// seatFromScreen reads the person's seat from the card line of the start
// (the replay line, which would say it too, comes only at the end).
func seatFromScreen(screen string) int {
	m := seatLine.FindStringSubmatch(screen)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// mischief answers like sensible, but first tries every night action,
// a bare number, status and help, so that refusals and hints get printed too.
func mischief() func(string) string {
	n := 0
	script := []string{"kill 1", "check 2", "shoot 3", "heal 4", "5", "status", "help", "nominate 6", "vote 7", "yes"}
	return func(screen string) string {
		n++
		if n%3 == 0 {
			return script[(n/3)%len(script)]
		}
		return sensible(screen)
	}
}

func TestPlayNeverNamesAnotherSeatsRoleBeforeTheEnd(t *testing.T) {
	setup, _ := engine.Preset(11)
	secret := []engine.Role{engine.Don, engine.Mafioso, engine.Detective, engine.Doctor, engine.Maniac}
	for _, l := range locale.Langs() {
		t.Run(string(l), func(t *testing.T) {
			p := locale.New(l)
			words := map[string]engine.Role{}
			for _, r := range secret {
				words[strings.ToLower(p.Role(r))] = r
			}
			for seed := uint64(1); seed <= 25; seed++ {
				me := seatOf(t, seed, engine.Citizen)
				out, _, code := play(t, mischief(), "--seed", strconv.FormatUint(seed, 10), "--seat", strconv.Itoa(me), "--lang", string(l))
				if code != 0 {
					t.Fatalf("seed %d: exit %d", seed, code)
				}
				end := strings.Index(out, p.T("event.game_ended", nil)+"\n")
				if end < 0 {
					t.Fatalf("seed %d: the game did not end", seed)
				}
				// The setup of a preset is public: strip that one line.
				before := strings.Replace(out[:end], p.Setup(setup)+"\n", "", 1)
				if w, ok := roleWord(before, words); ok {
					t.Errorf("seed %d: before the end, a citizen's screen names the role %q:\n%s", seed, w, before)
				}
				if _, ok := roleWord(out[end:], words); !ok {
					t.Errorf("seed %d: the final reveal names no role: the scan cannot see roles", seed)
				}
			}
		})
	}
}

// roleWord finds a word of the text that is a role's name.
func roleWord(text string, words map[string]engine.Role) (string, bool) {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if _, ok := words[w]; ok {
			return w, true
		}
	}
	return "", false
}

func TestPlayLeavesPolitelyWhenInputEnds(t *testing.T) {
	for _, c := range []struct {
		name, lang, input string
	}{
		{"end of input at once", "en", ""},
		{"quit typed", "en", "quit\n"},
		{"выход typed", "ru", "выход\n"},
		{"გასვლა typed", "ka", "გასვლა\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := runPlay([]string{"--bots", "random", "--seed", "3", "--lang", c.lang}, strings.NewReader(c.input), &out, &errb)
			l, _ := locale.Parse(c.lang)
			if code != 0 {
				t.Errorf("exit %d, want 0", code)
			}
			before := strings.TrimSuffix(out.String(), lastLine(out.String())+"\n")
			if want := locale.New(l).T("play.left", nil); lastLine(before) != want {
				t.Errorf("line before the replay line %q, want %q", lastLine(before), want)
			}
		})
	}
}

func TestPlayBadFlagsExitTwoWithUsage(t *testing.T) {
	t.Setenv("LC_ALL", "en_US.UTF-8")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"too few players", []string{"--players", "4"}, "A table needs at least 5 players."},
		{"too many players", []string{"--players", "12"}, "At most 11 players can sit at a table."},
		{"a seat off the table", []string{"--players", "7", "--seat", "8"}, "There is no seat 8 at this table: the seats are 1 to 7."},
		{"a negative seat", []string{"--seat", "-1"}, "There is no seat -1 at this table"},
		{"an unknown language", []string{"--lang", "xx"}, "Unknown language “xx”: choose ka, en or ru."},
		{"an unknown option", []string{"--options", "night=long"}, "There is no option “night”."},
		{"a bad option value", []string{"--options", "second_tie=sometimes"}, "The option second_tie has no value “sometimes”: choose ask, nobody or all."},
		{"a bad option value, in Russian", []string{"--lang", "ru", "--options", "last_words=maybe"}, "У настройки last_words нет значения «maybe»: выберите on или off."},
		{"an option without a value", []string{"--options", "first_night"}, "There is no option “first_night”."},
		{"an unknown flag", []string{"--bogus"}, "flag provided but not defined: -bogus"},
		{"a seed that is no number", []string{"--seed", "abc"}, "invalid value"},
		{"an extra argument", []string{"now"}, "unexpected argument"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := runPlay(c.args, strings.NewReader(""), &out, &errb)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errb.String(), c.want) {
				t.Errorf("stderr lacks %q:\n%s", c.want, errb.String())
			}
			if !strings.Contains(errb.String(), playUsage) {
				t.Errorf("stderr lacks the usage:\n%s", errb.String())
			}
			if out.Len() != 0 {
				t.Errorf("a refused start printed a game:\n%s", out.String())
			}
		})
	}
}

func TestPlayHelpFlagExitsZero(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runPlay([]string{"-h"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	if !strings.Contains(errb.String(), playUsage) {
		t.Errorf("no usage: %q", errb.String())
	}
}

func TestWordBookReadsCommandsInTheLanguageAndInEnglish(t *testing.T) {
	for _, c := range []struct {
		lang    locale.Lang
		line    string
		key     string
		seat    int
		hasSeat bool
	}{
		{locale.En, "kill 3", keyKill, 3, true},
		{locale.En, "  VOTE   7 ", keyVote, 7, true},
		{locale.En, "vote for 7", keyVote, 7, true},
		{locale.En, "vote #7", keyVote, 7, true},
		{locale.En, "heal", keyHeal, 0, false},
		{locale.En, "5", keyNumber, 5, true},
		{locale.En, "", keyEnter, 0, false},
		{locale.En, "blorp", keyUnknown, 0, false},
		{locale.En, "y", keyYes, 0, false},
		{locale.Ru, "Убить №3", keyKill, 3, true},
		{locale.Ru, "kill 3", keyKill, 3, true},
		{locale.Ru, "голос 4", keyVote, 4, true},
		{locale.Ru, "да", keyYes, 0, false},
		{locale.Ru, "нет", keyNo, 0, false},
		{locale.Ka, "შეამოწმე 2", keyCheck, 2, true},
		{locale.Ka, "ki", keyYes, 0, false},
		{locale.Ka, "არა", keyNo, 0, false},
		{locale.Ka, "check 2", keyCheck, 2, true},
		{locale.Ka, "убить 2", keyUnknown, 0, false},
	} {
		b := newWordBook(locale.New(c.lang))
		got := b.parse(c.line)
		if got.key != c.key || got.seat != c.seat || got.hasSeat != c.hasSeat {
			t.Errorf("%s %q: got key %s seat %d (%v), want %s %d (%v)", c.lang, c.line, got.key, got.seat, got.hasSeat, c.key, c.seat, c.hasSeat)
		}
	}
}

func TestRefusalTextSpeaksTheLanguageAsked(t *testing.T) {
	err := &engine.Error{Code: engine.CodeNotSpeaker, Seat: 3}
	for lang, want := range map[string]string{
		"en":          "It is not your speech.",
		"ru_RU.UTF-8": "Сейчас не ваша речь.",
		"ka":          "ახლა შენი სიტყვა არ არის.",
	} {
		if got := refusalText(lang)(err); got != want {
			t.Errorf("refusalText(%q) = %q, want %q", lang, got, want)
		}
	}
}

// TestPlayShowsTheSeedOnlyAfterTheEnd: the seed is the deal, so it is not
// shown while the game runs (it would let a player look at every card).
func TestPlayShowsTheSeedOnlyAfterTheEnd(t *testing.T) {
	for seed := 1; seed <= 5; seed++ {
		out, _, code := play(t, sensible, "--seed", strconv.Itoa(seed), "--lang", "en")
		if code != 0 {
			t.Fatalf("seed %d: exit %d", seed, code)
		}
		end := strings.Index(out, locale.New(locale.En).T("event.game_ended", nil))
		if end < 0 {
			t.Fatalf("seed %d: no end", seed)
		}
		if strings.Contains(out[:end], "--seed") || strings.Contains(out[:end], "Seed "+strconv.Itoa(seed)) {
			t.Errorf("seed %d: the seed is shown before the end", seed)
		}
	}
}

// TestPlayTheDefaultBotsTalk pins play's default level: a person who
// names none plays among expert bots, which speak on their floors (random
// bots never do), and the game still reaches its end.
func TestPlayTheDefaultBotsTalk(t *testing.T) {
	var out, errb bytes.Buffer
	in := &player{out: &out, answer: sensible}
	if code := runPlay([]string{"--seed", "5", "--lang", "en"}, in, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	s := out.String()
	checkClean(t, s)
	if !strings.Contains(s, locale.New(locale.En).T("event.game_ended", nil)) {
		t.Fatalf("the game did not end:\n%s", tail(s))
	}
	if !regexp.MustCompile(`Bot \d+ \(seat \d+\): “`).MatchString(s) {
		t.Errorf("no bot said a line, as the default (expert) bots do:\n%s", tail(s))
	}
}
