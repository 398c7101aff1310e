package account

import (
	"context"
	"fmt"
	"sync"
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

// atOnce is a Store whose account creations wait until n have been asked
// for: every caller has passed its look-up of the name before any is made.
type atOnce struct {
	Store
	arrive sync.WaitGroup
}

func (s *atOnce) CreateAccount(ctx context.Context, a store.Account) (int64, error) {
	s.arrive.Done()
	s.arrive.Wait()
	return s.Store.CreateAccount(ctx, a)
}

func (s *atOnce) CreateAccountWithForms(ctx context.Context, a store.Account, forms []string) (int64, error) {
	s.arrive.Done()
	s.arrive.Wait()
	return s.Store.CreateAccountWithForms(ctx, a, forms)
}

// TestName_LookalikesAskedForAtOnceMakeOneAccount (issue 25, item 10: the
// forms were recorded after the account, outside its transaction): eight
// names that all read as one another, each past the look-up of its name
// before any is made, make exactly one account; each other is refused as
// it would be had it come second (name_lookalike, or name_taken for the
// same name in another case), and the one made keeps its forms.
func TestName_LookalikesAskedForAtOnceMakeOneAccount(t *testing.T) {
	s, _ := newTestService(t, Config{})
	names := []string{"kot", "\u041a\u041e\u0422", "KOT", "kOT", "Kot", "\uff4b\uff4f\uff54", "\uff2b\uff2f\uff34", "KoT"}
	gate := &atOnce{Store: s.cfg.Store}
	gate.arrive.Add(len(names))
	s.cfg.Store = gate
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Go(func() {
			_, _, errs[i] = s.Signup(bg, n, "password1", fmt.Sprintf("198.51.100.%d", i+1))
		})
	}
	wg.Wait()
	made := ""
	for i, err := range errs {
		switch codeOf(err) {
		case "":
			if err != nil {
				t.Fatalf("%q: %v", names[i], err)
			}
			if made != "" {
				t.Errorf("both %q and %q were made", made, names[i])
			}
			made = names[i]
		case CodeNameLookalike, CodeNameTaken:
		default:
			t.Errorf("%q: %v, want name_lookalike or name_taken", names[i], err)
		}
	}
	if made == "" {
		t.Fatal("none of the names was made")
	}
	a, err := s.cfg.Store.AccountByNameForm(bg, namekey.Forms(made)[0])
	if err != nil || a.Name != made {
		t.Errorf("the account made (%q) by its first form: %+v, %v", made, a, err)
	}
}
