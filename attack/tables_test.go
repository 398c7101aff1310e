package attack

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"mafia/client"
)

// TestAttack_TableCreationFlood (issue 17, item 7): many addresses make
// tables as fast as they can; each gets its five, every further one is 429
// (too_many_tables or creating_too_fast), and a real player's new table,
// with the player in it, is listed first, above the heap of empty ones, and
// plays.
func TestAttack_TableCreationFlood(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	addrs, tries := count(40, 8), 10
	var mu sync.Mutex
	made, refused := 0, map[string]int{}
	var wg sync.WaitGroup
	for a := 0; a < addrs; a++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			api := &client.API{Base: tg.base, HTTP: from(fmt.Sprintf("127.0.60.%d", a+1))}
			for i := 0; i < tries; i++ {
				_, err := api.Create(ctx, client.CreateRequest{Name: "spam", Players: 5, Public: true})
				mu.Lock()
				if err == nil {
					made++
				} else if e, ok := err.(*client.Error); ok {
					refused[fmt.Sprintf("%d %s", e.Status, e.Code)]++
				} else {
					refused[err.Error()]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if made != addrs*5 || refused["429 too_many_tables"]+refused["429 creating_too_fast"] != addrs*(tries-5) {
		t.Errorf("%d addresses tried %d tables each: %d made, refused %v; want 5 each, the rest 429", addrs, tries, made, refused)
	}
	p := tg.newPlayer(ctx, t, "127.0.61.1")
	list, err := (&client.API{Base: tg.base, HTTP: from("127.0.61.2")}).Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) == 0 || list[0].Table != p.table {
		first := ""
		if len(list) > 0 {
			first = list[0].Name
		}
		t.Errorf("the real table is not listed first among %d (first: %q)", len(list), first)
	}
	p.play(ctx, t)
}
