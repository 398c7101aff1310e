package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"mafia/account"
	"mafia/store"
)

// RunNameForms is the contract of store.NameForms: an account's forms are
// found by any of them (the oldest account of a form first), kept once
// however often they are added, refused for an account that is not
// there; the accounts without forms are listed, oldest first, until they
// have some; and an account made with its forms is refused when another
// has one of them as a form or a key (of callers asking at once, one is
// made), and is found by them.
func RunNameForms(t *testing.T, open Open) {
	ctx := context.Background()
	s := openAs[interface {
		store.Accounts
		store.NameForms
	}](t, open)
	kot := newAccount(t, s, "\u041a\u041e\u0422") // КОТ
	cat := newAccount(t, s, "cat")
	none, err := s.AccountsWithoutNameForms(ctx, 10)
	if err != nil || len(none) != 2 || none[0].ID != kot || none[1].ID != cat {
		t.Fatalf("accounts without forms: %+v, %v; want КОТ, cat", none, err)
	}
	if _, err := s.AccountByNameForm(ctx, "kot"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a form no account has: %v, want ErrNotFound", err)
	}
	for range 2 {
		if err := s.AddNameForms(ctx, kot, []string{account.Key("КОТ"), "kot"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddNameForms(ctx, cat, []string{"cat", "kot"}); err != nil { // a form two accounts share
		t.Fatal(err)
	}
	for _, f := range []string{account.Key("КОТ"), "kot"} {
		if a, err := s.AccountByNameForm(ctx, f); err != nil || a.ID != kot || a.Name != "КОТ" {
			t.Errorf("by form %q: %+v, %v; want КОТ", f, a, err)
		}
	}
	if a, err := s.AccountByNameForm(ctx, "cat"); err != nil || a.ID != cat {
		t.Errorf("by form cat: %+v, %v", a, err)
	}
	if none, err := s.AccountsWithoutNameForms(ctx, 10); err != nil || len(none) != 0 {
		t.Errorf("accounts without forms after adding: %+v, %v", none, err)
	}
	if err := s.AddNameForms(ctx, 9999, []string{"ghost"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("forms of no account: %v, want ErrNotFound", err)
	}

	created := func(name string, forms ...string) (int64, error) {
		return s.CreateAccountWithForms(ctx, store.Account{Name: name, Key: account.Key(name), PasswordHash: "h", Created: t0}, forms)
	}
	kato, err := created("Kato", "kato", "k4to")
	if err != nil {
		t.Fatal(err)
	}
	if a, err := s.AccountByNameForm(ctx, "k4to"); err != nil || a.ID != kato {
		t.Errorf("an account made with its forms, by one: %+v, %v", a, err)
	}
	for _, c := range []struct{ name, form, whose string }{
		{"Pluto", "k4to", "another's form"},
		{"Gato", account.Key("cat"), "another's key"},
	} {
		if _, err := created(c.name, "unused-"+c.name, c.form); !errors.Is(err, store.ErrConflict) {
			t.Errorf("%s with %s: %v, want ErrConflict", c.name, c.whose, err)
		}
		if _, err := s.AccountByKey(ctx, account.Key(c.name)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s, refused, was made anyway: %v", c.name, err)
		}
		if _, err := s.AccountByNameForm(ctx, "unused-"+c.name); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s, refused, left its forms: %v", c.name, err)
		}
	}
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { _, errs[i] = created(fmt.Sprintf("Lookalike%d", i), fmt.Sprintf("own%d", i), "shared-form") })
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, store.ErrConflict):
			t.Errorf("a losing caller: %v, want ErrConflict", err)
		}
	}
	if won != 1 {
		t.Errorf("of %d names sharing a form made at once, %d were made; want 1", n, won)
	}
}
