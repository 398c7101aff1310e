package room

import (
	"testing"
	"time"
)

// TestABotsLinesTakeASeatsShareOfTheChat: a bot's lines come out of the
// share a person's seat has (botLineBurst at once, then botLineRate a
// second), on the room's clock.
func TestABotsLinesTakeASeatsShareOfTheChat(t *testing.T) {
	var c chatShare
	now := time.Unix(1_700_000_000, 0)
	for i := 0; i < botLineBurst; i++ {
		if !c.take(now) {
			t.Fatalf("line %d of a burst refused", i+1)
		}
	}
	if c.take(now) {
		t.Fatalf("line %d at once taken: more than the burst", botLineBurst+1)
	}
	now = now.Add(time.Second/botLineRate + time.Millisecond)
	if !c.take(now) || c.take(now) {
		t.Fatal("a rate's interval later, not exactly one line taken")
	}
	now = now.Add(time.Hour)
	for i := 0; i < botLineBurst; i++ {
		if !c.take(now) {
			t.Fatalf("after an hour, line %d refused", i+1)
		}
	}
	if c.take(now) {
		t.Fatal("an hour's rest filled the share past its burst")
	}
}
