package postgres

import (
	"context"
	"testing"

	"mafia/account"
	"mafia/store/storetest"
)

// TestContractNameForms runs the store contract's name forms on
// PostgreSQL.
func TestContractNameForms(t *testing.T) {
	t.Parallel()
	storetest.RunNameForms(t, openContract)
}

// TestAccountService_LookalikeAcrossNodes: package account's service on
// two nodes of one database: an all-Cyrillic name signed up on one node
// refuses its Latin look-alike on the other (they meet only by the older
// one's shape), and the other way round; so does a bot's name.
func TestAccountService_LookalikeAcrossNodes(t *testing.T) {
	ctx := context.Background()
	ns := nodes(t, 2)
	fast := account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}
	a, b := account.New(account.Config{Store: ns[0], Params: fast}), account.New(account.Config{Store: ns[1], Params: fast})
	if _, _, err := a.Signup(ctx, "\u041a\u041e\u0422", "password1", ""); err != nil { // КОТ
		t.Fatal(err)
	}
	if _, _, err := b.Signup(ctx, "kot", "password1", ""); code(err) != account.CodeNameLookalike {
		t.Errorf("kot on the other node beside КОТ: %v, want %s", err, account.CodeNameLookalike)
	}
	p, _, err := b.Signup(ctx, "TEPMOC", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Signup(ctx, "\u0422\u0415\u0420\u041c\u041e\u0421", "password1", ""); code(err) != account.CodeNameLookalike { // ТЕРМОС
		t.Errorf("ТЕРМОС beside TEPMOC: %v, want %s", err, account.CodeNameLookalike)
	}
	if _, _, err := b.CreateBot(ctx, p, "KOT"); code(err) != account.CodeNameLookalike {
		t.Errorf("a bot KOT beside КОТ: %v, want %s", err, account.CodeNameLookalike)
	}
}

// TestContractSeenAddrs runs the store contract's addresses seen on
// PostgreSQL.
func TestContractSeenAddrs(t *testing.T) {
	t.Parallel()
	storetest.RunSeenAddrs(t, openContract)
}
