package attack

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"mafia/assist"
)

// TestAttack_InPersonGameFloodFromOneAddress: the host's assistant makes a
// game for anyone who asks (a host needs no account), and each is a table
// in the store. One address asking for game after game gets its burst
// (a club's round starting every table at once) and then 429 rate_limited
// with Retry-After, in its language, with nothing stored; a real host
// from another address still makes a game and enters it. (A game's
// entries have their most too: the assistant's tests fill one.)
func TestAttack_InPersonGameFloodFromOneAddress(t *testing.T) {
	needAddrs(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tg := start(t, nil)
	game := `{"names":["A","B","C","D","E","F","G"],"deal":"manual","roles":["citizen","don","citizen","mafia","detective","doctor","citizen"]}`
	ru := map[string]string{"Content-Type": "application/json", "Accept-Language": "ru"}
	attacker := from("127.0.0.61")
	made, refused := 0, 0
	var last answer
	for range assist.NewGameBurst + 20 {
		a := ask(ctx, t, attacker, "POST", tg.base+"/host/api/games", ru, game)
		switch a.status {
		case http.StatusCreated:
			made++
		case http.StatusTooManyRequests:
			refused++
			last = a
		default:
			t.Fatalf("a new game: %d %s %s", a.status, a.code, a.body)
		}
	}
	if made != assist.NewGameBurst || refused != 20 {
		t.Fatalf("one address made %d games and was refused %d times; want %d and 20", made, refused, assist.NewGameBurst)
	}
	// The wait is counted from the burst's end on the real clock: on a
	// loaded machine the last refusal comes a second or more after it
	// ("59 секунд"), so the number may be a few seconds short of the
	// minute; its word is Russian's plural for that number.
	wait := regexp.MustCompile(`через (\d+) (секунд[уы]?)\.`).FindStringSubmatch(last.message)
	if last.code != "rate_limited" || wait == nil {
		t.Fatalf("the refusal: %s %q", last.code, last.message)
	}
	n, _ := strconv.Atoi(wait[1])
	if n > assist.NewGameEvery || n < assist.NewGameEvery-10 {
		t.Fatalf("the refusal says %d seconds, want at most %d and within 10 of it: %q", n, assist.NewGameEvery, last.message)
	}
	word := "секунд"
	if n%10 == 1 && n%100 != 11 {
		word = "секунду"
	} else if n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14) {
		word = "секунды"
	}
	if wait[2] != word {
		t.Fatalf("the refusal says %d %s, want %d %s: %q", n, wait[2], n, word, last.message)
	}

	// A real host on another network makes a game and enters its first step.
	host := from("127.0.0.62")
	a := ask(ctx, t, host, "POST", tg.base+"/host/api/games", ru, game)
	var c struct {
		ID        string `json:"id"`
		HostToken string `json:"host_token"`
	}
	if a.status != http.StatusCreated || json.Unmarshal(a.body, &c) != nil {
		t.Fatalf("the real host's game: %d %s %s", a.status, a.code, a.body)
	}
	hdr := map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + c.HostToken}
	entry := `{"commands":[{"id":"e0","seq":0,"verb":"kill","by":2,"target":7}]}`
	if a := ask(ctx, t, host, "POST", tg.base+"/host/api/games/"+c.ID+"/sync", hdr, entry); a.status != http.StatusOK {
		t.Fatalf("the real host's entry: %d %s %s", a.status, a.code, a.body)
	}
}
