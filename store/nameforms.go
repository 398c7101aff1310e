package store

import "context"

// NameForms is a Store that keeps, beside each account's Key, every form
// its name is read in (package internal/namekey's Forms: the key, and the
// shape of its letters as written), so that a new name is refused next to
// an older look-alike whichever of them is Latin and whichever Cyrillic:
// an account's Key is one form, and two names may meet only by another
// (the older "КОТ" and a newer "kot" meet by the older one's shape).
type NameForms interface {
	// AddNameForms records the forms of an account's name; a form the
	// account has already is kept once. ErrNotFound if no account has
	// that id.
	AddNameForms(ctx context.Context, account int64, forms []string) error
	// CreateAccountWithForms is Accounts.CreateAccount for a new name
	// whose forms are known: it refuses ErrConflict when any of forms is
	// another account's form or key, and records them with the account,
	// in one transaction, so that two look-alike names made at once
	// cannot both be.
	CreateAccountWithForms(ctx context.Context, a Account, forms []string) (int64, error)
	// AccountByNameForm finds the oldest account one of whose forms is
	// form; ErrNotFound if none.
	AccountByNameForm(ctx context.Context, form string) (Account, error)
	// AccountsWithoutNameForms lists up to n accounts with no form
	// recorded (made before forms were kept), oldest first.
	AccountsWithoutNameForms(ctx context.Context, n int) ([]Account, error)
}
