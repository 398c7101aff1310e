package cluster

// The bus's doors (issue 25, item 1): a node starts only with the cluster's
// secret (or the operator's plain word that the bus is open); a stranger
// at a node's ports is refused; a stranger on a shared NATS server reads
// only ciphertext and what it publishes is dropped; a relayed session
// takes no frame sealed for another session nor one it already delivered;
// routes run over mutual TLS when given certificates.

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"mafia/client"
	"mafia/wire"
)

func TestBusNodeWithoutASecretIsRefused(t *testing.T) {
	if _, err := NewNode(Config{ID: "a"}); !errors.Is(err, ErrNoSecret) {
		t.Errorf("a node with no secret and no Insecure: %v, want ErrNoSecret", err)
	}
	if _, err := NewNode(Config{ID: "a", Secrets: [][]byte{[]byte("too short")}}); err == nil {
		t.Error("a secret of 9 bytes accepted")
	}
	if _, err := NewNode(Config{ID: "a", Insecure: true}); err != nil {
		t.Errorf("an insecure node the operator asked for: %v", err)
	}
}

func TestBusSecretFileListsTheCurrentSecretFirst(t *testing.T) {
	cur, next := strings.Repeat("c", 64), strings.Repeat("n", 64)
	for _, tc := range []struct {
		name, text string
		want       []string // nil: refused
	}{
		{"one secret", cur + "\n", []string{cur}},
		{"current and next, comments and blank lines skipped", "# rotating\n" + cur + "\n\n  " + next + "  \n", []string{cur, next}},
		{"a short secret is refused", cur + "\nshort\n", nil},
		{"an empty file is refused", "# nothing\n\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "secret")
			if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := ReadSecrets(path)
			if tc.want == nil {
				if err == nil {
					t.Fatalf("accepted: %q", got)
				}
				return
			}
			if err != nil || len(got) != len(tc.want) {
				t.Fatalf("got %q %v, want %q", got, err, tc.want)
			}
			for i := range got {
				if string(got[i]) != tc.want[i] {
					t.Fatalf("secret %d is %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// rawNATS is a stranger's plain NATS client: it dials addr, sends CONNECT
// (no credentials), SUB > and PING, and returns all it read until the
// server closed the connection or ctx ended.
func rawNATS(ctx context.Context, t *testing.T, addr string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	deadline, _ := ctx.Deadline()
	_ = c.SetDeadline(deadline)
	if _, err := c.Write([]byte("CONNECT {\"verbose\":false,\"pedantic\":false}\r\nSUB > 1\r\nPING\r\n")); err != nil {
		return ""
	}
	var got strings.Builder
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		got.WriteString(line)
		if err != nil {
			return got.String()
		}
	}
}

// TestBusPlainClientAtANodesPortsIsRefused: a stranger's CONNECT + SUB >
// at a node's client port and at its route port is refused and closed,
// and reads nothing of the traffic between the nodes meanwhile.
func TestBusPlainClientAtANodesPortsIsRefused(t *testing.T) {
	ctx := within(t, 30*time.Second)
	ca, cb := newFakeClock(), newFakeClock()
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick})
	b := startNode(t, Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the nodes talk while the stranger listens
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
				a.Announce()
				b.Announce()
			}
		}
	}()
	defer func() { close(stop); wg.Wait() }()
	route, _ := url.Parse(a.RouteURL())
	client, _ := url.Parse(a.ClientURL())
	for name, addr := range map[string]string{"client port": client.Host, "route port": route.Host} {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		got := rawNATS(rctx, t, addr)
		cancel()
		if strings.Contains(got, "MSG ") || strings.Contains(got, "PONG") || !strings.Contains(got, "-ERR") {
			t.Errorf("a stranger at the %s read %q: want a refusal and nothing else", name, got)
		}
	}
	if a.routesRefused.Load() == 0 {
		t.Error("the refused route is not counted")
	}
}

// otherPass is a route password derived from a secret not the cluster's.
func otherPass() string {
	return hex.EncodeToString(derive([]byte("some other cluster's secret, long enough"), "mafia route password v1"))
}

// TestBusRoguePeerIsRefusedAndForgesNothing: a stranger's NATS server
// routed to a node's route port, with no password and with a wrong one, is
// refused; its client, subscribed to everything, reads nothing while the
// nodes announce and pass a request, and its forged mafia.http request,
// claiming a client address, never reaches the owner.
func TestBusRoguePeerIsRefusedAndForgesNothing(t *testing.T) {
	ctx := within(t, 60*time.Second)
	ca, cb := newFakeClock(), newFakeClock()
	var served atomic.Int64
	var remotes sync.Map
	local := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		remotes.Store(r.RemoteAddr, true)
		echo(w, r)
	})
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick})
	b := startNode(t, Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Local: local, Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b)
	for _, user := range []*url.Userinfo{nil, url.UserPassword(routeUser, otherPass())} {
		refused := a.routesRefused.Load()
		route, _ := url.Parse(a.RouteURL())
		route.User = user
		rogue := startNATS(t, natsserver.Options{Cluster: natsserver.ClusterOpts{Name: "mafia", Host: "127.0.0.1", Port: natsserver.RANDOM_PORT},
			Routes: []*url.URL{route}})
		spy, heard := spyOn(t, rogue.ClientURL(), nats.NoEcho())
		forged, _ := json.Marshal(httpRequest{From: "a", Method: "POST", Path: "/api/tables/t1/join", Client: "198.51.100.66", Body: []byte(`{"name":"forged"}`)})
		eventually(ctx, t, "the rogue's route is refused", func() bool {
			_ = spy.Publish(subjectHTTP+"b", forged)
			return a.routesRefused.Load() > refused
		})
		// The nodes talk: an announcement each and a request passed on.
		a.Announce()
		b.Announce()
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { a.Forward(w, r, "b", "203.0.113.7") }))
		resp, err := http.Post(hs.URL+"/api/tables/t1/join", "application/json", strings.NewReader(`{"name":"real"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		hs.Close()
		if err := spy.Flush(); err != nil {
			t.Fatal(err)
		}
		// (The rogue's own side may list its route for the moment
		// between a's INFO and a's refusal of its CONNECT; a and b count
		// only each other.)
		if n, _, _ := heard.Pending(); n != 0 || a.ns.NumRemotes() != 1 || b.ns.NumRemotes() != 1 {
			m, _ := heard.NextMsg(0)
			t.Errorf("rogue peer (credentials %v): a and b route to %d and %d servers; the rogue read %d messages (first %+v)",
				user != nil, a.ns.NumRemotes(), b.ns.NumRemotes(), n, m)
		}
	}
	if _, ok := remotes.Load("198.51.100.66:0"); ok || served.Load() != 2 {
		t.Errorf("the owner served %d requests (want the 2 real ones), the forged address among them: %v", served.Load(), ok)
	}
}

// TestBusStrangerOnASharedNATSReadsAndForgesNothing: two nodes on an
// external NATS server that a stranger reaches too. The stranger,
// subscribed to everything, reads only ciphertext (no token, no JSON);
// what it forges, and every message it replays, is dropped: the owner
// serves only the real request.
func TestBusStrangerOnASharedNATSReadsAndForgesNothing(t *testing.T) {
	ctx := within(t, 60*time.Second)
	ext := startNATS(t, natsserver.Options{})
	var served atomic.Int64
	ca, cb := newFakeClock(), newFakeClock()
	a := startNode(t, Config{ID: "a", NATS: ext.ClientURL(), Now: ca.Now, Tick: ca.Tick})
	b := startNode(t, Config{ID: "b", NATS: ext.ClientURL(), Now: cb.Now, Tick: cb.Tick, Owners: staticOwned("t1"),
		Local: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { served.Add(1); echo(w, r) })})
	spy, heard := spyOn(t, ext.ClientURL())
	if err := spy.Flush(); err != nil {
		t.Fatal(err)
	}
	meet(ctx, t, a, b)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { a.Forward(w, r, "b", "203.0.113.7") }))
	defer hs.Close()
	req, _ := http.NewRequest("POST", hs.URL+"/api/tables/t1/join", strings.NewReader(`{"name":"ნინო"}`))
	req.Header.Set("Authorization", "Bearer seat-token-marker")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || served.Load() != 1 {
		t.Fatalf("the real request: %d, served %d", resp.StatusCode, served.Load())
	}
	// What the stranger read: everything up to the request and its answer
	// (the stranger's connection gets them when NATS sends them, after the
	// owner's answer maybe).
	var got []*nats.Msg
	sawRequest, sawAnswer := false, false
	eventually(ctx, t, "the stranger gets the request and its answer", func() bool {
		m, err := heard.NextMsg(10 * time.Millisecond)
		if err != nil {
			return false
		}
		got = append(got, m)
		sawRequest = sawRequest || m.Subject == subjectHTTP+"b"
		sawAnswer = sawAnswer || strings.HasPrefix(m.Subject, "_INBOX")
		return sawRequest && sawAnswer
	})
	for _, m := range got {
		for _, plain := range []string{"seat-token-marker", "Bearer", "ნინო", "203.0.113.7", `"tables"`, `"t1"`, `"from"`, `"id"`, `"url"`} {
			if strings.Contains(string(m.Data), plain) {
				t.Errorf("the stranger read %q in %s: %q", plain, m.Subject, m.Data)
			}
		}
	}
	// What it forges and replays.
	before := a.dropped.Load() + b.dropped.Load()
	forged, _ := json.Marshal(httpRequest{From: "a", Method: "POST", Path: "/api/tables/t1/join", Client: "198.51.100.66"})
	sent := 0
	send := func(subj string, data []byte) {
		if _, err := spy.Request(subj, data, 200*time.Millisecond); err == nil {
			t.Errorf("the forged request to %s was answered", subj)
		}
		sent++
	}
	send(subjectHTTP+"b", forged)
	for _, m := range got {
		if m.Subject == subjectHTTP+"b" {
			send(m.Subject, m.Data) // the real request, replayed: its reply subject is sealed with it
		}
	}
	eventually(ctx, t, "the forgeries are dropped", func() bool { return a.dropped.Load()+b.dropped.Load()-before >= int64(sent) })
	if served.Load() != 1 {
		t.Errorf("the owner served %d requests, want only the real one", served.Load())
	}
}

type staticOwned string

func (s staticOwned) Owned() []string { return []string{string(s)} }

// TestBusSessionTakesNoForeignOrRepeatedFrame: a relayed session drops a
// frame in a batch not sealed with the secret, in one sealed for another
// node's subject, and a replay of one it has delivered; it goes on with
// the next real frame.
func TestBusSessionTakesNoForeignOrRepeatedFrame(t *testing.T) {
	ctx := within(t, 30*time.Second)
	a, _, ma, mb, id := sessionPair(ctx, t, 8, false)
	mb.reads <- memFrame{data: "first"}
	eventually(ctx, t, "the first frame arrives", func() bool { return len(ma.writtenFrames()) == 1 })
	frame := func(seq uint64, text string) []byte { return record(id, 'a', kindText, seq, []byte(text)) }
	subj := subjectBatch + "a"
	before := a.dropped.Load()
	for _, data := range [][]byte{
		frame(2, "forged, unsealed"),
		a.keys.seal(subjectBatch+"c", frame(2, "forged, another node's")),
		a.keys.seal(subj, frame(1, "first")), // a replay
	} {
		if err := a.nc.Publish(subj, data); err != nil {
			t.Fatal(err)
		}
	}
	eventually(ctx, t, "the three are dropped", func() bool { return a.dropped.Load()-before == 3 })
	mb.reads <- memFrame{data: "second"}
	eventually(ctx, t, "the second frame arrives", func() bool { return len(ma.writtenFrames()) == 2 })
	if got := ma.writtenFrames(); got[0] != "first" || got[1] != "second" {
		t.Fatalf("the client got %q, want first and second", got)
	}
	if _, _, closed := ma.closeOf(); closed {
		t.Fatal("the session ended")
	}
}

// writeTLS writes a CA and, for each name, a certificate and key it signed
// for 127.0.0.1 (server and client use), in dir; it returns the files.
func writeTLS(t *testing.T, dir string, names ...string) (caFile string, certs, keys map[string]string) {
	t.Helper()
	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mafia test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	caFile = write("ca.pem", "CERTIFICATE", caDER)
	certs, keys = map[string]string{}, map[string]string{}
	for i, name := range names {
		k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(int64(i + 2)), Subject: pkix.Name{CommonName: name},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
			ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &k.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kder, _ := x509.MarshalECPrivateKey(k)
		certs[name] = write(name+".pem", "CERTIFICATE", der)
		keys[name] = write(name+"-key.pem", "EC PRIVATE KEY", kder)
	}
	return caFile, certs, keys
}

// tlsInfo is the first line a TLS client with cfg reads at addr.
func tlsInfo(addr string, cfg *tls.Config) (string, error) {
	d := &net.Dialer{Timeout: 5 * time.Second}
	c, err := tls.DialWithDialer(d, "tcp", addr, cfg)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	return bufio.NewReader(c).ReadString('\n')
}

// TestBusRoutesOverMutualTLSRelayAGame: two nodes whose routes are mutual
// TLS (certificates of a CA made here) relay a whole game; the route port
// says TLS is required.
func TestBusRoutesOverMutualTLSRelayAGame(t *testing.T) {
	ctx := within(t, 90*time.Second)
	caFile, certs, keys := writeTLS(t, t.TempDir(), "a", "b", "c")
	p := startPairWith(ctx, t, func(c *Config) {
		cfg, err := RouteTLSConfig(certs[c.ID], keys[c.ID], caFile)
		if err != nil {
			t.Fatal(err)
		}
		c.RouteTLS = cfg
		linked(c) // the relay's links are mutual TLS too
	})
	// A route port reads INFO only to a client of the CA's certificate.
	route, _ := url.Parse(p.a.RouteURL())
	withCert, err := RouteTLSConfig(certs["c"], keys["c"], caFile)
	if err != nil {
		t.Fatal(err)
	}
	noCert := withCert.Clone()
	noCert.Certificates = nil
	for _, tc := range []struct {
		name string
		cfg  *tls.Config
		ok   bool
	}{{"a certificate of the CA", withCert, true}, {"no certificate", noCert, false}} {
		info, err := tlsInfo(route.Host, tc.cfg)
		if ok := err == nil && strings.HasPrefix(info, "INFO "); ok != tc.ok {
			t.Errorf("a TLS client with %s at the route port: %q %v", tc.name, info, err)
		}
	}
	created, err := p.direct.Create(ctx, client.CreateRequest{Name: "over TLS", TimingsMS: fastTimings, Pace: "instant"})
	if err != nil {
		t.Fatal(err)
	}
	p.own(ctx, t, created.Table)
	j, err := p.direct.Join(ctx, created.Table, "ნინო", 1, created.HostToken)
	if err != nil {
		t.Fatal(err)
	}
	relayed, err := p.relayed.Dial(ctx, created.Table, j.Token, 0)
	if err != nil {
		t.Fatalf("dial through a: %v", err)
	}
	defer relayed.CloseNow()
	for _, act := range []string{"add_bots", "start"} {
		if _, err := relayed.Send(ctx, wire.ClientMessage{Type: "host", Action: act}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := play(ctx, relayed, 11); err != nil {
		t.Fatalf("playing through a over TLS routes: %v", err)
	}
	if relayed.View == nil || relayed.View.Phase != "ended" {
		t.Fatal("the game relayed over TLS did not end")
	}
	// The game's frames came on b's link to a, over TLS; a client
	// without a certificate of the CA gets no link.
	p.a.mu.Lock()
	var tlsLinks, links int
	for c := range p.a.links {
		links++
		if _, ok := c.(*tls.Conn); ok {
			tlsLinks++
		}
	}
	p.a.mu.Unlock()
	if links == 0 || tlsLinks != links {
		t.Fatalf("a holds %d links, %d of them TLS: want b's, over TLS", links, tlsLinks)
	}
	if c, err := tls.Dial("tcp", p.a.linkAddr, noCert); err == nil {
		_, err = c.Read(make([]byte, 1))
		c.Close()
		if err == nil {
			t.Fatal("a TLS client without a certificate read from a's link port")
		}
	}
}

// TestBusRotationAcceptsEveryListedSecret pins the rotation's middle step
// (docs/cluster.md, "Rotating the secret"): a node that uses the new secret
// and one that still uses the old, each listing both, route to each other
// and pass requests both ways; a node with neither is refused.
func TestBusRotationAcceptsEveryListedSecret(t *testing.T) {
	ctx := within(t, 30*time.Second)
	old, next := []byte(strings.Repeat("o", 40)), []byte(strings.Repeat("n", 40))
	ca, cb := newFakeClock(), newFakeClock()
	a := startNode(t, Config{ID: "a", Secrets: [][]byte{old, next}, Now: ca.Now, Tick: ca.Tick, Local: http.HandlerFunc(echo)})
	b := startNode(t, Config{ID: "b", Secrets: [][]byte{next, old}, Now: cb.Now, Tick: cb.Tick, Local: http.HandlerFunc(echo), Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b)
	for _, pair := range [][2]*Node{{a, b}, {b, a}} {
		from, to := pair[0], pair[1]
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { from.Forward(w, r, to.ID(), "203.0.113.9") }))
		resp, err := http.Post(hs.URL+"/api/tables/t1/join", "application/json", strings.NewReader(`{}`))
		hs.Close()
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Errorf("%s to %s during a rotation: %d, want the owner's 201", from.ID(), to.ID(), resp.StatusCode)
		}
	}
	refused := a.routesRefused.Load()
	cc := newFakeClock()
	startNode(t, Config{ID: "c", Secrets: [][]byte{[]byte(strings.Repeat("x", 40))}, Now: cc.Now, Tick: cc.Tick, Peers: []string{a.RouteURL()}})
	eventually(ctx, t, "a refuses c's route", func() bool { return a.routesRefused.Load() > refused })
	if a.ns.NumRemotes() != 1 {
		t.Errorf("a routes to %d servers, want b alone", a.ns.NumRemotes())
	}
}

// TestBusRelayedHandshakeIsServedInProcessFromTheClient: the owner serves
// a relayed session's handshake in process, the client's address as the
// request's peer and no X-Forwarded-For: nothing is dialled (its LocalURL
// has no listener), so its server need not trust loopback as a proxy.
func TestBusRelayedHandshakeIsServedInProcessFromTheClient(t *testing.T) {
	ctx := within(t, 30*time.Second)
	ca, cb := newFakeClock(), newFakeClock()
	var mu sync.Mutex
	var remote, xff string
	local := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		remote, xff = r.RemoteAddr, r.Header.Get("X-Forwarded-For")
		mu.Unlock()
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		typ, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		_ = c.Write(ctx, typ, append([]byte("echo: "), data...))
		_ = c.Close(websocket.StatusNormalClosure, "")
	})
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick})
	b := startNode(t, Config{ID: "b", LocalURL: "http://127.0.0.1:1", Local: local, Now: cb.Now, Tick: cb.Tick, Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { a.RelayFor(w, r, "b", "t1", "203.0.113.5") }))
	defer hs.Close()
	c, _, err := websocket.Dial(ctx, strings.Replace(hs.URL, "http", "ws", 1)+"/api/tables/t1/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if _, data, err := c.Read(ctx); err != nil || string(data) != "echo: hello" {
		t.Fatalf("through the relay: %q %v", data, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if remote != "203.0.113.5:0" || xff != "" {
		t.Errorf("the owner's handler saw peer %q, X-Forwarded-For %q: want the client's address as the peer, no header", remote, xff)
	}
}

// spyOn connects a plain NATS client to url (closed when the test ends),
// subscribed to every subject. It gives the connection 30 s: under -race
// on a busy machine it once took over nats.go's 2 s default.
func spyOn(t *testing.T, url string, opts ...nats.Option) (*nats.Conn, *nats.Subscription) {
	t.Helper()
	spy, err := nats.Connect(url, append([]nats.Option{nats.Timeout(30 * time.Second)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(spy.Close)
	heard, err := spy.SubscribeSync(">")
	if err != nil {
		t.Fatal(err)
	}
	return spy, heard
}
