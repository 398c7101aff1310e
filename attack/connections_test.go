package attack

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/server"
)

// dialMany opens n WebSockets to a table from ip without reading them, and
// tallies the refusals by "status code".
func (tg *target) dialMany(t *testing.T, table, ip string, n int) (open []*websocket.Conn, refused map[string]int) {
	t.Helper()
	ctx := within(t, 30*time.Second)
	refused = map[string]int{}
	hc := from(ip)
	for i := 0; i < n; i++ {
		c, resp, err := websocket.Dial(ctx, tg.wsURL(table, ""), &websocket.DialOptions{HTTPClient: hc})
		if err == nil {
			open = append(open, c)
			continue
		}
		st, code := refusal(resp, err)
		refused[fmt.Sprintf("%d %s", st, code)]++
	}
	t.Cleanup(func() {
		for _, c := range open {
			c.CloseNow()
		}
	})
	return open, refused
}

// TestAttack_ConnectionFloodFromOneAddress (issue 17, item 5): one address
// opens WebSockets until refused: it gets its 64, every one past them is
// 429 too_many_connections, and a real player on that very table plays its
// game.
func TestAttack_ConnectionFloodFromOneAddress(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	p := tg.newPlayer(ctx, t, "127.0.50.1")
	n := count(150, 80)
	open, refused := tg.dialMany(t, p.table, "127.0.51.1", n)
	if len(open) != 64 || refused["429 too_many_connections"] != n-64 {
		t.Errorf("%d connections from one address: %d open, refused %v; want 64 open and %d too_many_connections",
			n, len(open), refused, n-64)
	}
	p.play(ctx, t)
}

// TestAttack_SpectatorFloodOnOneTable (issue 17, item 5): spectators from
// several addresses crowd one table: it takes 200, the rest are 503
// spectators_full, and the table's seated player still connects (a second
// socket) and plays.
func TestAttack_SpectatorFloodOnOneTable(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	per, addrs, limit := 50, 5, 200
	if testing.Short() {
		per, addrs, limit = 15, 2, 20
	}
	tg := start(t, func(c *server.Config) { c.Limits.SpectatorsPerTable = limit })
	ctx := within(t, 60*time.Second)
	p := tg.newPlayer(ctx, t, "127.0.52.1")
	opened, refused := 0, map[string]int{}
	for a := 0; a < addrs; a++ {
		open, r := tg.dialMany(t, p.table, fmt.Sprintf("127.0.53.%d", a+1), per)
		opened += len(open)
		for k, v := range r {
			refused[k] += v
		}
	}
	if opened != limit || refused["503 spectators_full"] != per*addrs-limit {
		t.Errorf("%d spectators: %d open, refused %v; want %d open, the rest spectators_full", per*addrs, opened, refused, limit)
	}
	second, err := p.api.Dial(ctx, p.table, p.host, 0)
	if err != nil {
		t.Fatalf("the seated player's second socket on a crowded table: %v", err)
	}
	defer second.CloseNow()
	p.play(ctx, t)
}

// TestAttack_SlowBodiesAndIdleKeepAlives (issue 17, item 5): connections
// that send a body a byte at a time, headers a byte at a time, or nothing
// after a first request are all closed by the server (after its 3 s and
// 5 s read and 10 s idle timeouts here), while a real player plays.
func TestAttack_SlowBodiesAndIdleKeepAlives(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	wait := tg.playsMeanwhile(ctx, t, "127.0.54.1")
	n := count(100, 20)
	stop := make(chan struct{})
	defer close(stop)
	var conns []net.Conn
	var readers []*bufio.Reader
	for i := 0; i < n; i++ {
		slow := tg.dialTCP(t, "127.0.55.1")
		fmt.Fprintf(slow, "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{")
		header := tg.dialTCP(t, "127.0.55.2")
		fmt.Fprintf(header, "GET /api/tables HTTP/1.1\r\n")
		for _, c := range []net.Conn{slow, header} {
			go func() { // a byte every 200 ms: the rest would take half an hour
				tk := time.NewTicker(200 * time.Millisecond)
				defer tk.Stop()
				for {
					select {
					case <-stop:
						return
					case <-tk.C:
						if _, err := c.Write([]byte("X")); err != nil {
							return
						}
					}
				}
			}()
		}
		idle := tg.dialTCP(t, "127.0.55.3")
		fmt.Fprintf(idle, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		br := bufio.NewReader(idle)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("a keep-alive's first request: %v", err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		conns = append(conns, slow, header, idle)
		readers = append(readers, bufio.NewReader(slow), bufio.NewReader(header), br)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	open := 0
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
			_, err := io.Copy(io.Discard, readers[i])
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				mu.Lock()
				open++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if open != 0 {
		t.Errorf("%d of %d slow or idle connections were never closed by the server", open, len(conns))
	}
	wait()
}
