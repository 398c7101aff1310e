package postgres

import (
	"context"
	"errors"
	"sync"
	"testing"

	"mafia/account"
	"mafia/engine"
)

// code is the engine code of err ("" if none).
func code(err error) engine.Code {
	var e *engine.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// TestAccountService_OnPostgreSQL: package account's service over the
// PostgreSQL store, on two stores of one database as two nodes: a name is
// taken whatever its case, also by two signups at once on the two nodes; a
// login made on one node authenticates on the other; a password change on
// one ends the other logins on both; a bot's token works on either, and a
// rotated one on neither.
func TestAccountService_OnPostgreSQL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := nodes(t, 2)
	fast := account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}
	svc := []*account.Service{account.New(account.Config{Store: ns[0], Params: fast}), account.New(account.Config{Store: ns[1], Params: fast})}

	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i, name := range []string{"Nino", "NINO", "nino", "NiNo"} {
		wg.Go(func() { _, _, errs[i] = svc[i%2].Signup(ctx, name, "password1", "") })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case code(err) != account.CodeNameTaken:
			t.Errorf("a losing signup: %v, want %s", err, account.CodeNameTaken)
		}
	}
	if ok != 1 {
		t.Fatalf("%d signups of one name in four cases succeeded, want 1", ok)
	}
	if _, _, err := svc[1].Signup(ctx, "ნინო", "password1", ""); err != nil {
		t.Errorf("the name in another script: %v", err)
	}

	p, tok1, err := svc[0].Login(ctx, "nINO", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	_, tok2, err := svc[1].Login(ctx, "Nino", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	if q, err := svc[1].Authenticate(ctx, tok1); err != nil || q.Account.ID != p.Account.ID {
		t.Errorf("node 1's login on node 2: %+v, %v", q, err)
	}
	if err := svc[1].ChangePassword(ctx, p, "password1", "password2"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc[0].Authenticate(ctx, tok2); err == nil {
		t.Errorf("a login after its password changed on the other node still works")
	}
	if _, _, err := svc[0].Login(ctx, "nino", "password2", ""); err != nil {
		t.Errorf("the new password on the other node: %v", err)
	}

	owner, err := svc[0].Authenticate(ctx, tok1)
	if err != nil {
		t.Fatalf("the login that changed the password: %v", err)
	}
	bot, btok, err := svc[0].CreateBot(ctx, owner, "Robo")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc[1].CreateBot(ctx, owner, "ROBO"); code(err) != account.CodeNameTaken {
		t.Errorf("a bot of a name taken: %v, want %s", err, account.CodeNameTaken)
	}
	if b, err := svc[1].Authenticate(ctx, btok); err != nil || !b.Bot() || b.Account.ID != bot.ID {
		t.Errorf("the bot's token on the other node: %+v, %v", b, err)
	}
	if _, btok2, err := svc[1].RotateBot(ctx, owner, "robo"); err != nil {
		t.Fatal(err)
	} else if _, err := svc[0].Authenticate(ctx, btok2); err != nil {
		t.Errorf("the rotated token: %v", err)
	}
	if _, err := svc[0].Authenticate(ctx, btok); err == nil {
		t.Errorf("the bot's old token still works after a rotation on the other node")
	}
}
