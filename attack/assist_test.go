package attack

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
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
	if last.code != "rate_limited" || !strings.Contains(last.message, fmt.Sprintf("%d секунд", assist.NewGameEvery)) {
		t.Fatalf("the refusal: %s %q", last.code, last.message)
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
