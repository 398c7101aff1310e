package account

import (
	"testing"

	"mafia/engine"
	"mafia/internal/namekey"
	"mafia/store"
)

// TestName_LookalikeRefusedWhicheverIsOlder (issue 25, item 10, both
// ways): a Latin name is refused next to an older all-Cyrillic name that
// reads as it (they meet only by the older one's shape), as the Cyrillic
// one is next to an older Latin name; for accounts and bot accounts alike,
// and next to accounts made before the store kept their forms.
func TestName_LookalikeRefusedWhicheverIsOlder(t *testing.T) {
	s, _ := newTestService(t, Config{})
	// An account made before the forms were kept: in the store only.
	old := "\u0412\u0415\u0422" // ВЕТ
	if _, err := s.cfg.Store.CreateAccount(bg, store.Account{Name: old, Key: Key(old), PasswordHash: s.dummy, Created: s.cfg.Now()}); err != nil {
		t.Fatal(err)
	}
	owner, _, err := s.Signup(bg, "Tamar", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		older, newer string
		bot          bool
		code         engine.Code
	}{
		{"\u041a\u041e\u0422", "kot", false, CodeNameLookalike},                      // КОТ, then kot
		{"\u041a\u041e\u0422", "KOT", false, CodeNameLookalike},                      // and KOT
		{"\u041a\u041e\u0422", "Kot", true, CodeNameLookalike},                       // and a bot
		{"TEPMOC", "\u0422\u0415\u0420\u041c\u041e\u0421", false, CodeNameLookalike}, // TEPMOC, then ТЕРМОС
		{"", "bet", false, CodeNameLookalike},                                        // ВЕТ, made before
		{"", "BET", true, CodeNameLookalike},
		{"", "\u0432\u0435\u0442", false, CodeNameTaken}, // вет: ВЕТ's own name
		{"", "bat", false, ""},
	} {
		if c.older != "" {
			if _, _, err := s.Signup(bg, c.older, "password1", ""); err != nil && codeOf(err) != CodeNameTaken {
				t.Fatalf("signup %q: %v", c.older, err)
			}
		}
		if c.bot {
			_, _, err = s.CreateBot(bg, owner, c.newer)
		} else {
			_, _, err = s.Signup(bg, c.newer, "password1", "")
		}
		if codeOf(err) != c.code {
			t.Errorf("%q (bot %v) beside %q: %v, want %q (forms %q, %q)", c.newer, c.bot, c.older, err, c.code, namekey.Forms(c.newer), namekey.Forms(c.older))
		}
	}
}
