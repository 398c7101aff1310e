package storetest

import (
	"context"
	"errors"
	"testing"

	"mafia/account"
	"mafia/store"
)

// RunNameForms is the contract of store.NameForms: an account's forms are
// found by any of them (the oldest account of a form first), kept once
// however often they are added, refused for an account that is not
// there; the accounts without forms are listed, oldest first, until they
// have some.
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
}
