package voicetest_test

// The tests' harness: a real server on loopback over a real SQLite file,
// its forwarding unit on a loopback UDP port, the page as mafia serve
// mounts it; Go connections for the host and the seats without a browser;
// pages in the seats' Chromiums.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist"
	"mafia/client"
	"mafia/internal/browsertest"
	"mafia/internal/site"
	"mafia/locale"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
	"mafia/voice"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// slack multiplies the bound of every wait (browsertest.Slack).
const slack = browsertest.Slack

// rig is a server with voice on loopback.
type rig struct {
	url string
	hub *voice.Hub
	api *client.API
	// udp is the unit's socket, through which the test may cut a
	// page's path.
	udp *cuttable
}

// cuttable is a UDP socket that drops every datagram from and to the
// ports cut, both ways, as a network that lost a phone's path would: the
// unit's side of a page's ICE path that fails.
type cuttable struct {
	net.PacketConn
	mu  sync.Mutex
	cut map[int]bool
}

// cutPort drops every datagram from and to port from now on.
func (c *cuttable) cutPort(port int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cut[port] = true
}

func (c *cuttable) isCut(a net.Addr) bool {
	u, ok := a.(*net.UDPAddr)
	if !ok {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cut[u.Port]
}

func (c *cuttable) ReadFrom(b []byte) (int, net.Addr, error) {
	for {
		n, a, err := c.PacketConn.ReadFrom(b)
		if err != nil || !c.isCut(a) {
			return n, a, err
		}
	}
}

func (c *cuttable) WriteTo(b []byte, a net.Addr) (int, error) {
	if c.isCut(a) {
		return len(b), nil // lost on the way
	}
	return c.PacketConn.WriteTo(b, a)
}

func newRig(t *testing.T) *rig {
	t.Helper()
	return newRigOn(t, nil)
}

// newRigOn is newRig with the tables' clock clk (nil: the wall clock): a
// test that moves the steps on itself. The limits the pages' traffic meets
// stay on the wall clock (the pages send on their own timers).
func newRigOn(t *testing.T, clk *room.FakeClock) *rig {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cut := &cuttable{PacketConn: udp, cut: map[int]bool{}}
	hub, err := voice.New(voice.Config{UDP: cut, Loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.Config{Store: db, SeatsPerAddress: -1, Pace: room.PaceInstant, Voice: hub,
		DealSeed: func() uint64 { return 3 },
		Render: func(lang string, err error) string {
			l, ok := locale.Parse(lang)
			if !ok {
				l = locale.En
			}
			return locale.New(l).Refusal(err)
		}}
	if clk != nil {
		cfg.Clock, cfg.LimitClock = clk, room.RealClock{}
	}
	srv := server.New(cfg)
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(site.Handler(srv, assist.New(assist.Config{Store: db})))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		hub.Close()
		db.Close()
	})
	return &rig{url: hs.URL, hub: hub, api: &client.API{Base: hs.URL, Silence: time.Hour}, udp: cut}
}

// create makes a table of n seats with the voice setting given ("" none)
// and the timings given; it returns the table and the host's token.
func (r *rig) create(t *testing.T, n int, voiceSetting string, timings map[string]int64) (string, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"name": "Voice", "players": n, "voice": voiceSetting, "timings_ms": timings})
	resp, err := http.Post(r.url+"/api/tables", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Table     string `json:"table"`
		HostToken string `json:"host_token"`
	}
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out.Table, out.HostToken
}

// goConn is a connection of the test's own (the host, a seat without a
// browser): it keeps the newest view.
type goConn struct {
	t       *testing.T
	conn    *client.Conn
	mu      sync.Mutex
	view    *wire.View
	changed chan struct{}
}

func (r *rig) dial(t *testing.T, table, token string) *goConn {
	t.Helper()
	c, err := r.api.Dial(context.Background(), table, token, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := &goConn{t: t, conn: c, view: c.View, changed: make(chan struct{}, 1)}
	go func() {
		for {
			m, err := c.Read(context.Background())
			if err != nil {
				return
			}
			g.mu.Lock()
			if m.View != nil {
				g.view = m.View
			}
			g.mu.Unlock()
			select {
			case g.changed <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() { c.CloseNow() })
	return g
}

// seat joins a seat by the API and connects to it.
func (r *rig) seat(t *testing.T, table string, s int) *goConn {
	t.Helper()
	j, err := r.api.Join(context.Background(), table, fmt.Sprintf("Go%d", s), s, "")
	if err != nil {
		t.Fatal(err)
	}
	return r.dial(t, table, j.Token)
}

func (g *goConn) send(m wire.ClientMessage) {
	g.t.Helper()
	if _, err := g.conn.Send(context.Background(), m); err != nil {
		g.t.Fatal(err)
	}
}

// now is the connection's newest view (a copy), nil before the deal.
func (g *goConn) now() *wire.View {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.view == nil {
		return nil
	}
	v := *g.view
	return &v
}

// waitView waits until the connection's view satisfies cond.
func (g *goConn) waitView(what string, cond func(v *wire.View) bool) *wire.View {
	g.t.Helper()
	deadline := time.Now().Add(slack * 30 * time.Second)
	for {
		if v := g.now(); v != nil && cond(v) {
			return v
		}
		select {
		case <-g.changed:
		case <-time.After(time.Until(deadline)):
			g.t.Fatalf("timed out waiting for %s (view %+v)", what, g.now())
		}
	}
}

// page is one player's page in a seat's Chromium.
type page struct {
	*webtest.Tab
	seat int
}

// openPage opens a phone-sized tab (360x740) in browser b, in a browser
// context of its own (its own cookies), at the table, seated at seat s
// (0: a spectator).
func (r *rig) openPage(t *testing.T, b *browsertest.Browser, table string, s int) *page {
	t.Helper()
	p := &page{Tab: webtest.NewTabIn(t, b.Context(t), fmt.Sprintf("page of seat %d", s), 360, 740), seat: s}
	// Headless Chromium renders audio on to a fake device and says so.
	p.Expect("from the audio device")
	p.Do(30*time.Second, chromedp.Navigate(r.url+"/t/"+table))
	p.WaitJS(20*time.Second, `!!window.__mafia && window.__mafia.state.conn === 'open'`)
	if s != 0 {
		ok := eval[bool](p, fmt.Sprintf(`fetch('/api/tables/%s/join', {method: 'POST', headers: {'Content-Type': 'application/json'},
			body: JSON.stringify({name: 'P%d', seat: %d})}).then((r) => r.ok)`, table, s, s))
		if !ok {
			t.Fatalf("%s: could not join", p.Name)
		}
		p.Do(30*time.Second, chromedp.Reload())
		p.WaitJS(20*time.Second, fmt.Sprintf(`!!window.__mafia && window.__mafia.state.seat === %d && window.__mafia.state.conn === 'open'`, s))
	}
	return p
}

// tap taps the element a selector names (a real click, as a finger's)
// until the JavaScript expression done is true: a live table's layout may
// move under a tap (a seat taken, a line shown), which then lands beside
// the button, as a finger's would, and is tried again.
func (p *page) tap(sel, done string) {
	p.T.Helper()
	for try := 0; ; try++ {
		p.WaitJS(10*time.Second, fmt.Sprintf(`!!document.querySelector(%q)`, sel))
		p.Do(10*time.Second, browsertest.Click(chromedp.CSS(sel)))
		ctx, cancel := context.WithTimeout(p.Ctx, slack*2*time.Second)
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](done, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
		cancel()
		if err == nil {
			return
		}
		if try == 3 {
			p.T.Fatalf("%s: four taps on %s did not make %s\n%s", p.Name, sel, done, p.Text())
		}
	}
}

// wide names what sticks out sideways at the phone's width ("" nothing).
func (p *page) wide() string {
	return eval[string](p, `(() => {
		const w = document.documentElement.clientWidth;
		const over = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > w + 1 && e.offsetParent !== null);
		return document.documentElement.scrollWidth > w ? over.slice(0, 3).map((e) => e.tagName + '.' + e.className + '#' + e.id).join(' ') || 'page' : '';
	})()`)
}

// waitVoiceOn waits until the page's voice is connected, and says what it
// did if it never is.
func (p *page) waitVoiceOn() {
	p.T.Helper()
	deadline := time.Now().Add(slack * 20 * time.Second)
	for !eval[bool](p, `window.__mafia.voice.status === 'on'`) {
		if time.Now().After(deadline) {
			p.T.Fatalf("%s: the voice never connected: %s", p.Name, eval[string](p, `JSON.stringify({status: window.__mafia.voice.status, why: window.__mafia.voice.why, want: window.__mafia.voice.want, log: window.__mafia.voice.log})`))
		}
		time.Sleep(50 * time.Millisecond) // polling the page: no event to wait on
	}
}

// eval evaluates a JavaScript expression on the page (a promise is
// awaited: webtest.Eval).
func eval[T any](p *page, expr string) T {
	p.T.Helper()
	return webtest.Eval[T](p.Tab, expr)
}

// unitTimes is what the forwarding unit did when, read from its stats
// every few milliseconds: when who is heard changed, and for each
// listener's seat and heard seat when a run of packets opened and closed.
type unitTimes struct {
	changed        []time.Time
	opened, closed map[[2]int][]time.Time
	// rate is the packets a second the unit read from each seat's
	// microphone while it was read (a browser's Opus in DTX sends few).
	rate map[int]float64
	// heard is who was heard from each change in changed on; arrivals
	// when the unit's count of each seat's packets read last rose (to
	// the poll's 3 ms): the microphone's own gaps, the hop before the
	// unit.
	heard    []uint32
	arrivals map[int][]time.Time
}

// micHops are, for each change that gave the floor to one seat with a
// microphone, how long after the change the unit read that seat's next
// packet, and the gap between it and the packet before (ms): a gap of
// some 400 ms is a sender in DTX (the encoder heard silence).
func (u unitTimes) micHops(mics []int) (next, gap []float64) {
	for i, c := range u.changed {
		if i >= len(u.heard) || u.heard[i] == 0 || u.heard[i]&(u.heard[i]-1) != 0 {
			continue
		}
		x := 0
		for u.heard[i]>>x != 1 {
			x++
		}
		if !slices.Contains(mics, x) {
			continue
		}
		as := u.arrivals[x]
		j, _ := slices.BinarySearchFunc(as, c, func(a, b time.Time) int { return a.Compare(b) })
		if j == 0 || j >= len(as) {
			continue
		}
		next = append(next, float64(as[j].Sub(c).Microseconds())/1000)
		gap = append(gap, float64(as[j].Sub(as[j-1]).Microseconds())/1000)
	}
	return next, gap
}

// after is how long after from the time in ts nearest to it came, in ms
// (negative: before it; NaN: none within 2 s, the unit's changes being
// seconds apart).
func (unitTimes) after(ts []time.Time, from time.Time) float64 {
	best := math.NaN()
	for _, x := range ts {
		d := float64(x.Sub(from).Microseconds()) / 1000
		if math.Abs(d) <= 2000 && (math.IsNaN(best) || math.Abs(d) < math.Abs(best)) {
			best = d
		}
	}
	return best
}

// unitWatch reads a table's unit's times until stop.
type unitWatch struct {
	quit chan struct{}
	done chan unitTimes
}

// watchUnit starts reading the unit's times of table id.
func (r *rig) watchUnit(t *testing.T, id string) *unitWatch {
	w := &unitWatch{quit: make(chan struct{}), done: make(chan unitTimes, 1)}
	go func() {
		u := unitTimes{opened: map[[2]int][]time.Time{}, closed: map[[2]int][]time.Time{}, arrivals: map[int][]time.Time{}}
		add := func(ts []time.Time, x time.Time) []time.Time {
			if x.IsZero() || (len(ts) > 0 && !x.After(ts[len(ts)-1])) {
				return ts
			}
			return append(ts, x)
		}
		tk := time.NewTicker(3 * time.Millisecond)
		defer tk.Stop()
		first := map[int]int64{}
		firstAt := map[int]time.Time{}
		var last voice.Stats
		var lastAt time.Time
		for {
			select {
			case <-w.quit:
				u.rate = map[int]float64{}
				for s, n := range first {
					if d := lastAt.Sub(firstAt[s]).Seconds(); d > 0 {
						u.rate[s] = float64(last.In[s]-n) / d
					}
				}
				w.done <- u
				return
			case <-tk.C:
			}
			st := r.hub.Stats(id)
			prev := last
			last, lastAt = st, time.Now()
			for s, n := range st.In {
				if n > prev.In[s] {
					u.arrivals[s] = append(u.arrivals[s], lastAt)
				}
			}
			if n := len(u.changed); !st.Changed.IsZero() && (n == 0 || st.Changed.After(u.changed[n-1])) {
				u.heard = append(u.heard, uint32(st.Heard))
			}
			for s, n := range st.In {
				if _, ok := first[s]; !ok && n > 0 {
					first[s], firstAt[s] = n, lastAt
				}
			}
			u.changed = add(u.changed, st.Changed)
			for _, l := range st.Listeners {
				for s := range l.Opened {
					k := [2]int{int(l.Seat), s}
					u.opened[k] = add(u.opened[k], l.Opened[s])
					u.closed[k] = add(u.closed[k], l.Closed[s])
				}
			}
		}
	}()
	t.Cleanup(func() {
		select {
		case <-w.quit:
		default:
			close(w.quit)
		}
	})
	return w
}

// stop ends the reading and returns the times read.
func (w *unitWatch) stop() unitTimes {
	close(w.quit)
	return <-w.done
}
