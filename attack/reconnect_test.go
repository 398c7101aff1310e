package attack

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/server"
)

// dialAfter dials a spectator's WebSocket from ip and returns the refusal
// (status, code, Retry-After in seconds; 0s when it was let in, and then
// the socket).
func dialAfter(ctx context.Context, t *testing.T, tg *target, table, ip string) (*websocket.Conn, int, string, int) {
	t.Helper()
	ws, resp, err := websocket.Dial(ctx, tg.wsURL(table, ""), &websocket.DialOptions{HTTPClient: from(ip)})
	if err == nil {
		return ws, 0, "", 0
	}
	retry := 0
	if resp != nil {
		retry, _ = strconv.Atoi(resp.Header.Get("Retry-After"))
	}
	st, code := refusal(resp, err)
	if st == 0 {
		t.Fatalf("dial from %s: %v", ip, err)
	}
	return nil, st, code, retry
}

// TestAttack_ReconnectFlood (issue 25, item 12): one address floods a
// socket with malformed frames until it is closed (1008 "flood"), and
// reconnects at once, three times over. Each time its next socket is
// refused at the upgrade with 429 flood_wait and a Retry-After that grows
// (2 s, then 4, then 8: the penalty doubles), until the wait is over;
// another address connects meanwhile. The same address then pours out GETs
// of the public API: past its burst they are refused with 429 rate_limited
// and a Retry-After, while another address's GETs are answered. A real
// player plays meanwhile. Today's build let the flooder straight back in
// and answered every GET.
//
// The GETs' rate is one an hour past the default burst. At the default
// (20 a second) a token comes back every 50 ms, and a loaded machine now
// and then paused that long between the flood's last GET and the lobby's,
// which was then answered (-race -short at load 14-17: 181 of 400
// refused, then the lobby 200). What is checked is the refusal past the
// burst, whatever the machine's speed.
func TestAttack_ReconnectFlood(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, func(c *server.Config) { c.Limits.GetRate = 1.0 / 3600 })
	ctx := within(t, 60*time.Second)
	wait := tg.playsMeanwhile(ctx, t, "127.0.160.1")
	victim := tg.newPlayer(ctx, t, "127.0.160.2")
	const flooder = "127.0.161.1"
	var waits []int
	for round := 0; round < 3; round++ {
		ws, st, code, _ := dialAfter(ctx, t, tg, victim.table, flooder)
		for ws == nil { // the last penalty is not over yet: wait for its end
			if st != http.StatusTooManyRequests || code != "flood_wait" {
				t.Fatalf("round %d: the flooder's socket refused %d %s", round, st, code)
			}
			select {
			case <-ctx.Done():
				t.Fatal("the penalty never ended")
			case <-time.After(100 * time.Millisecond):
			}
			ws, st, code, _ = dialAfter(ctx, t, tg, victim.table, flooder)
		}
		if st, reason, _ := flood(ctx, ws, websocket.MessageText, []byte(`{"v":1,"type":`), 1000); st != websocket.StatusPolicyViolation || reason != "flood" {
			t.Fatalf("round %d: the flood ended %v %q, want 1008 flood", round, st, reason)
		}
		ws.CloseNow()
		again, st, code, retry := dialAfter(ctx, t, tg, victim.table, flooder)
		if again != nil {
			again.CloseNow()
			t.Fatalf("round %d: the flooder's address reconnected at once after its flood", round)
		}
		if st != http.StatusTooManyRequests || code != "flood_wait" || retry < 1 {
			t.Fatalf("round %d: the reconnect refused %d %s Retry-After %d, want 429 flood_wait and a Retry-After", round, st, code, retry)
		}
		waits = append(waits, retry)
		other, st, code, _ := dialAfter(ctx, t, tg, victim.table, "127.0.162.1")
		if other == nil {
			t.Fatalf("round %d: another address refused meanwhile: %d %s", round, st, code)
		}
		other.CloseNow()
	}
	t.Logf("the flooder's waits: %v s", waits)
	for i := 1; i < len(waits); i++ {
		if waits[i] <= waits[i-1] {
			t.Errorf("the waits %v s do not grow", waits)
		}
	}

	// GETs from one address.
	answered, limited, retry := 0, 0, 0
	n := count(1000, 400)
	hc := from(flooder)
	for i := 0; i < n; i++ {
		a := ask(ctx, t, hc, "GET", tg.base+"/api/tables/"+victim.table, nil, "")
		switch {
		case a.status == http.StatusOK:
			answered++
		case a.status == http.StatusTooManyRequests && a.code == "rate_limited":
			limited++
		default:
			t.Fatalf("GET %d: %d %s", i, a.status, a.code)
		}
	}
	resp, err := hc.Get(tg.base + "/api/tables")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	retry, _ = strconv.Atoi(resp.Header.Get("Retry-After"))
	t.Logf("%d GETs from one address: %d answered, %d rate_limited; the lobby then %d, Retry-After %d", n, answered, limited, resp.StatusCode, retry)
	if limited == 0 || resp.StatusCode != http.StatusTooManyRequests || retry < 1 {
		t.Errorf("%d GETs from one address: %d refused, the lobby %d with Retry-After %d; want rate_limited and a Retry-After", n, limited, resp.StatusCode, retry)
	}
	if a := ask(ctx, t, from("127.0.162.2"), "GET", tg.base+"/api/tables", nil, ""); a.status != http.StatusOK {
		t.Errorf("another address's GET meanwhile: %d %s", a.status, a.code)
	}
	victim.play(ctx, t)
	wait()
}
