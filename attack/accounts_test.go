package attack

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// TestAttack_Accounts (issue 18's accounts, as an outsider attacks them): a
// program with no login floods signups from one address, guesses one
// account's password from many addresses, tells names apart by their
// refusals, and signs up from a foreign page. The floods end in 429
// login_limited, and a refused signup makes no account (its name stays
// free); a guessed name slows each guessing address but lets its owner's
// right password in (issue 25, item 7); an unknown name and a wrong
// password get the same answer, byte for byte; a foreign Origin is refused
// with cross_origin and makes no account. A real player plays meanwhile.
func TestAttack_Accounts(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	wait := tg.playsMeanwhile(ctx, t, "127.0.120.9")
	json := map[string]string{"Content-Type": "application/json"}
	signup := func(ip, name string, hdr map[string]string) answer {
		return ask(ctx, t, from(ip), "POST", tg.base+"/api/account/signup", hdr,
			fmt.Sprintf(`{"name":%q,"password":"a long enough password","bearer":true}`, name))
	}
	login := func(ip, name, password string) answer {
		return ask(ctx, t, from(ip), "POST", tg.base+"/api/account/login", json,
			fmt.Sprintf(`{"name":%q,"password":%q,"bearer":true}`, name, password))
	}

	// A flood of signups from one address.
	made, limited := 0, 0
	var refusedName string
	for i := 0; i < 40; i++ {
		name := fmt.Sprintf("flood%02d", i)
		switch a := signup("127.0.120.1", name, json); {
		case a.status == http.StatusOK:
			made++
		case a.status == http.StatusTooManyRequests && a.code == "login_limited":
			limited++
			refusedName = name
		default:
			t.Fatalf("signup %d: %d %s %s", i, a.status, a.code, a.body)
		}
	}
	if made == 0 || limited == 0 || made > 25 {
		t.Errorf("40 signups from one address: %d made, %d refused with login_limited; want a burst made, then refusals", made, limited)
	}
	if a := signup("127.0.120.2", refusedName, json); a.status != http.StatusOK {
		t.Errorf("the name of a refused signup, from another address: %d %s (a refused signup must make no account)", a.status, a.code)
	}

	// One account's password guessed from many addresses: past the name's
	// budget of wrong passwords each address has one guess at it, and
	// then waits; the owner's right password from another address still
	// logs in (issue 25: a name's limit locks no owner out).
	const victim, password = "flood00", "a long enough password"
	for i := 0; i < 12; i++ {
		if a := login(fmt.Sprintf("127.0.121.%d", i+1), victim, fmt.Sprintf("guess %d of many", i)); a.status != http.StatusForbidden || a.code != "bad_login" {
			t.Fatalf("guess %d, the first of its address: %d %s", i, a.status, a.code)
		}
	}
	if a := login("127.0.121.12", victim, "a second guess"); a.status != http.StatusTooManyRequests || a.code != "login_limited" {
		t.Errorf("a second guess of an address once the name is guessed from everywhere: %d %s, want 429 login_limited", a.status, a.code)
	}
	if a := login("127.0.121.50", victim, password); a.status != http.StatusOK {
		t.Errorf("the right password from another address while the name is guessed: %d %s, want 200", a.status, a.code)
	}

	// Names told apart by their refusals: an unknown name and a wrong
	// password answer alike, byte for byte.
	unknown := login("127.0.122.1", "nobody-has-this-name", "some password here")
	wrong := login("127.0.122.2", "flood01", "some password here")
	if unknown.status != wrong.status || unknown.code != "bad_login" || !bytes.Equal(unknown.body, wrong.body) {
		t.Errorf("an unknown name %d %s %q, a wrong password %d %s %q: want the same answer",
			unknown.status, unknown.code, unknown.body, wrong.status, wrong.code, wrong.body)
	}

	// A foreign page's signup (the browser would send the player's cookies
	// with it, and set the new login's cookie from its answer).
	foreign := map[string]string{"Content-Type": "application/json", "Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
	if a := signup("127.0.123.1", "from-a-foreign-page", foreign); a.status != http.StatusForbidden || a.code != "cross_origin" {
		t.Errorf("a signup from a foreign page: %d %s, want 403 cross_origin", a.status, a.code)
	}
	if a := signup("127.0.123.2", "from-a-foreign-page", json); a.status != http.StatusOK {
		t.Errorf("the foreign page's name, signed up by a program: %d %s (the foreign signup must make no account)", a.status, a.code)
	}
	wait()
}
