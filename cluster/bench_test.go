package cluster

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// benchFrame is the size of a frame in the benchmarks: about a seat's
// padded update of a small table.
const benchFrame = 256

// benchServer is a stand-in for b's server: at /api/tables/echo/ws it
// sends back every frame; at /api/tables/burst/ws a frame "N" is
// answered with N frames of benchFrame bytes.
func benchServer(t testing.TB) *httptest.Server {
	mux := http.NewServeMux()
	frame := bytes.Repeat([]byte{'x'}, benchFrame)
	mux.HandleFunc("GET /api/tables/{id}/ws", func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		for {
			typ, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			if r.PathValue("id") == "echo" {
				if c.Write(ctx, typ, data) != nil {
					return
				}
				continue
			}
			n, _ := strconv.Atoi(string(data))
			for range n {
				if c.Write(ctx, websocket.MessageText, frame) != nil {
					return
				}
			}
		}
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	return hs
}

// benchDial connects to the stand-in directly ("direct") or through
// node a's relay to node b, on the bus ("relayed") or on a link between
// them ("linked").
func benchDial(ctx context.Context, b *testing.B, how, table string) *websocket.Conn {
	b.Helper()
	hs := benchServer(b)
	base := hs.URL
	if how != "direct" {
		ca, cb := newFakeClock(), newFakeClock()
		owned := &ownedTables{}
		owned.set("echo", "burst")
		link := ""
		if how == "linked" {
			link = "127.0.0.1:0"
		}
		na := startNode(b, Config{ID: "a", Now: ca.Now, Tick: ca.Tick, LinkListen: link})
		nb := startNode(b, Config{ID: "b", LocalURL: hs.URL, Owners: owned, Now: cb.Now, Tick: cb.Tick, Peers: []string{na.RouteURL()}, LinkListen: link})
		meet(ctx, b, na, nb)
		ha := httptest.NewServer(na.Handler(http.NotFoundHandler()))
		b.Cleanup(func() { ha.CloseClientConnections(); ha.Close() })
		base = ha.URL
	}
	c, _, err := websocket.Dial(ctx, "ws"+base[4:]+"/api/tables/"+table+"/ws", nil)
	if err != nil {
		b.Fatal(err)
	}
	c.SetReadLimit(1 << 20)
	b.Cleanup(func() { c.CloseNow() })
	return c
}

// BenchmarkRelayRoundTrip measures one frame there and back: a client
// frame to the server and its echo back to the client, directly and
// through a relay of two nodes on loopback (ns/op is the round trip).
func BenchmarkRelayRoundTrip(b *testing.B) {
	for _, how := range []string{"direct", "relayed", "linked"} {
		b.Run(how, func(b *testing.B) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			c := benchDial(ctx, b, how, "echo")
			msg := bytes.Repeat([]byte{'y'}, 64)
			b.ResetTimer()
			for b.Loop() {
				if err := c.Write(ctx, websocket.MessageText, msg); err != nil {
					b.Fatal(err)
				}
				if _, _, err := c.Read(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRelayThroughput measures the server's frames reaching one
// client as fast as it reads them, directly and through the relay (the
// window's acknowledgements included): 1000 frames of 256 bytes an op.
func BenchmarkRelayThroughput(b *testing.B) {
	const burst = 1000
	for _, how := range []string{"direct", "relayed", "linked"} {
		b.Run(how, func(b *testing.B) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			c := benchDial(ctx, b, how, "burst")
			b.SetBytes(burst * benchFrame)
			b.ResetTimer()
			for b.Loop() {
				if err := c.Write(ctx, websocket.MessageText, []byte(strconv.Itoa(burst))); err != nil {
					b.Fatal(err)
				}
				for range burst {
					if _, _, err := c.Read(ctx); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(burst*b.N)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}
