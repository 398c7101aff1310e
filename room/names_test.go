package room_test

import (
	"bytes"
	"strings"
	"testing"

	"mafia/engine"
	"mafia/room"
)

// nameCases are display names and the code each is refused with ("" for
// accepted), for the rules a name must follow.
var nameCases = []struct {
	name string
	code engine.Code
}{
	// Length, in characters (a Georgian letter is 3 bytes).
	{"Nino", ""},
	{strings.Repeat("x", room.MaxName), ""},
	{strings.Repeat("ნ", room.MaxName), ""},
	{strings.Repeat("x", room.MaxName+1), room.CodeNameTooLong},
	{strings.Repeat("ნ", room.MaxName+1), room.CodeNameTooLong},
	{"  " + strings.Repeat("x", room.MaxName) + "  ", ""}, // trimmed first
	{"", room.CodeNameRequired},
	{"   ", room.CodeNameRequired},
	// Characters that change how the text around them reads.
	{"ab\x00c", room.CodeNameBadCharacter},
	{"a\nb", room.CodeNameBadCharacter},
	{"a\tb", room.CodeNameBadCharacter},
	{"a\u007fb", room.CodeNameBadCharacter},
	{"\u202enimda", room.CodeNameBadCharacter}, // right-to-left override
	{"a\u202ab", room.CodeNameBadCharacter},
	{"a\u202cb", room.CodeNameBadCharacter},
	{"a\u2066b\u2069", room.CodeNameBadCharacter}, // isolates
	{"a\u2067b", room.CodeNameBadCharacter},
	{"a\u200fb", room.CodeNameBadCharacter},
	{"a\u061cb", room.CodeNameBadCharacter},
	{"Ni\u200bno", room.CodeNameBadCharacter}, // zero-width space
	{"\ufeffNino", room.CodeNameBadCharacter},
	{"a\u2028b", room.CodeNameBadCharacter},
	{"a\ue000b", room.CodeNameBadCharacter}, // private use
	{"a\ufffeb", room.CodeNameBadCharacter},
	{"a\xffb", room.CodeNameBadCharacter},   // not UTF-8
	{"a\ufffdb", room.CodeNameBadCharacter}, // what JSON makes of bytes that are not UTF-8
	{"\u3164", room.CodeNameBadCharacter},   // a letter that draws nothing
	{"Z\u0301\u0301\u0301\u0301", room.CodeNameBadCharacter},
	// What real names and nicknames hold.
	{"e\u0301a\u0301", ""},
	{"Giorgi O'Neil-Smith", ""},
	{"👨\u200d👩\u200d👧 family", ""},
	{"\u200d", room.CodeNameRequired},
	{"Тамара", ""},
	{"თამარი", ""},
	// Names that read as a server bot's.
	{"Bot 1", room.CodeNameLikeBot},
	{"bot1", room.CodeNameLikeBot},
	{"BOT 12", room.CodeNameLikeBot},
	{"Bot", room.CodeNameLikeBot},
	{"b o t - 3", room.CodeNameLikeBot},
	{"bot_3", room.CodeNameLikeBot},
	{"Ｂｏｔ３", room.CodeNameLikeBot},
	{"B0t 7", room.CodeNameLikeBot},
	{"Вот 3", room.CodeNameLikeBot}, // Cyrillic letters that look like Latin ones
	{"Бот 3", room.CodeNameLikeBot},
	{"бот", room.CodeNameLikeBot},
	{"ბოტი 3", room.CodeNameLikeBot},
	{"ბოტი", room.CodeNameLikeBot},
	{"Bot\u00a03", room.CodeNameLikeBot},
	{"Robot 1", ""},
	{"Botanic", ""},
	{"Abbot", ""},
	{"Bot night fan", ""},
	{"ბოტანიკა", ""},
}

func TestPlayerNamesAreBoundedReadableAndNotABots(t *testing.T) {
	for _, c := range nameCases {
		_, err := room.CheckName(c.name)
		if got := codeOf(err); got != c.code {
			t.Errorf("%+q: %v, want %q", c.name, err, c.code)
		}
	}
	// Through a room: a refused name changes no seat and sends nothing.
	f := newFixture(t, settings(t, 5, fastTimings), nil)
	watch := f.attach("")
	_, seats0 := f.storedTable()
	for _, c := range nameCases {
		if c.code == "" {
			continue
		}
		_, _, err := f.r.Join(bg(), room.JoinRequest{Name: c.name})
		if got := codeOf(err); got != c.code {
			t.Errorf("join as %+q: %v, want %q", c.name, err, c.code)
		}
	}
	if _, seats := f.storedTable(); !bytes.Equal(mustJSON(t, seats), mustJSON(t, seats0)) {
		t.Errorf("refused names took seats: %+v", seats)
	}
	if frs := watch.drain(); len(frs) != 0 {
		t.Errorf("a refused join sent %s", frs[0].raw)
	}
	// A refusal names what it refuses.
	_, err := room.CheckName("a\u202eb")
	if valueOf(err) != "U+202E" {
		t.Errorf("the bidi override is named %q", valueOf(err))
	}
}

func TestTableNamesAreBoundedAndReadable(t *testing.T) {
	cases := []struct {
		name string
		code engine.Code
	}{
		{"Friday club", ""},
		{"Bot night", ""}, // a table may be named anything readable
		{strings.Repeat("x", room.MaxTableName), ""},
		{strings.Repeat("ნ", room.MaxTableName), ""},
		{strings.Repeat("x", room.MaxTableName+1), room.CodeNameTooLong},
		{strings.Repeat("x", 16300), room.CodeNameTooLong},
		{" ", room.CodeNameRequired},
		{"\u202eclub", room.CodeNameBadCharacter},
		{"club\x00", room.CodeNameBadCharacter},
		{"a\u2069", room.CodeNameBadCharacter},
		{"a\xfe", room.CodeNameBadCharacter},
	}
	db := newFixture(t, settings(t, 5, nil), nil).db
	for _, c := range cases {
		set := settings(t, 5, nil)
		set.Name = c.name
		r, _, err := room.Create(bg(), room.Config{Store: db}, set)
		if got := codeOf(err); got != c.code {
			t.Errorf("a table named %.40q: %v, want %q", c.name, err, c.code)
		}
		if r != nil {
			if got := r.Lobby().Name; got != strings.TrimSpace(c.name) {
				t.Errorf("a table named %.40q is listed as %.40q", c.name, got)
			}
			r.Stop()
		}
	}
}
