package attack

import (
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"testing"
	"time"
)

// TestAttack_Lockout (issue 25, item 7): an attacker at address A types
// wrong passwords for another player's name until the server refuses it,
// and then from nine more addresses; the owner's right password from
// address B still logs in, and so does the owner's browser that logged in
// before, even from address A itself, the guesser's (a shared café
// network). The guesser stays refused at A.
func TestAttack_Lockout(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	jsonHdr := map[string]string{"Content-Type": "application/json"}
	const name, password = "Tinatin25", "the owner's password"
	// The owner's browser: it signs up (and so logs in) from its home
	// address and keeps its cookies.
	jar, _ := cookiejar.New(nil)
	home := from("127.0.126.200")
	home.Jar = jar
	if a := ask(ctx, t, home, "POST", tg.base+"/api/account/signup", jsonHdr,
		fmt.Sprintf(`{"name":%q,"password":%q}`, name, password)); a.status != http.StatusOK {
		t.Fatalf("the owner's signup: %d %s", a.status, a.code)
	}
	login := func(hc *http.Client, pw string) answer {
		return ask(ctx, t, hc, "POST", tg.base+"/api/account/login", jsonHdr, fmt.Sprintf(`{"name":%q,"password":%q}`, name, pw))
	}
	attacker := from("127.0.126.1")
	limited := false
	for i := range 6 {
		a := login(attacker, fmt.Sprintf("wrong guess %d", i))
		if a.status == http.StatusTooManyRequests {
			limited = true
			continue
		}
		if a.status != http.StatusForbidden || a.code != "bad_login" {
			t.Fatalf("wrong guess %d: %d %s", i, a.status, a.code)
		}
	}
	if !limited {
		t.Errorf("six wrong passwords from one address: none refused with login_limited")
	}
	for i := range 9 { // the name is now guessed from everywhere
		login(from(fmt.Sprintf("127.0.126.%d", i+2)), "another wrong guess")
	}
	if a := login(from("127.0.126.50"), password); a.status != http.StatusOK {
		t.Errorf("the owner's right password from address B after the guesses: %d %s, want 200", a.status, a.code)
	}
	// The owner's browser, carried to the guesser's own network: it has
	// logged in before, so the name's limits and the address's limit on
	// this name do not apply to it.
	laptop := from("127.0.126.1")
	laptop.Jar = jar
	if a := login(laptop, password); a.status != http.StatusOK {
		t.Errorf("the owner's known browser at the guesser's address: %d %s, want 200", a.status, a.code)
	}
	if a := login(attacker, password); a.status != http.StatusTooManyRequests || a.code != "login_limited" {
		t.Errorf("the guesser's next try at its address (the right password, even): %d %s, want 429 login_limited", a.status, a.code)
	}
}
