package cluster

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	dto "github.com/prometheus/client_model/go"

	"mafia/client"
	"mafia/wire"
)

// scrape gathers a node's collector as /metrics would: each series by its
// name and labels ("name{k=v,...}"), with its value; each family must
// have its HELP and pass Prometheus's lint.
func scrape(t testing.TB, n *Node) map[string]float64 {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(n.Collector()); err != nil {
		t.Fatal(err)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	if problems, err := promlint.NewWithMetricFamilies(mfs).Lint(); err != nil || len(problems) > 0 {
		t.Errorf("node %s: the series break Prometheus's conventions: %v %v", n.ID(), problems, err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetHelp() == "" {
			t.Errorf("%s has no HELP", mf.GetName())
		}
		for _, m := range mf.GetMetric() {
			out[seriesKey(mf.GetName(), m)] = value(mf.GetType(), m)
		}
	}
	return out
}

func seriesKey(name string, m *dto.Metric) string {
	var ls []string
	for _, l := range m.GetLabel() {
		ls = append(ls, l.GetName()+"="+l.GetValue())
	}
	sort.Strings(ls)
	if len(ls) == 0 {
		return name
	}
	return name + "{" + strings.Join(ls, ",") + "}"
}

func value(typ dto.MetricType, m *dto.Metric) float64 {
	if typ == dto.MetricType_COUNTER {
		return m.GetCounter().GetValue()
	}
	return m.GetGauge().GetValue()
}

// want checks series of a scrape against their expected values.
func want(t testing.TB, node string, got map[string]float64, exp map[string]float64) {
	t.Helper()
	for k, v := range exp {
		g, ok := got[k]
		if !ok {
			t.Errorf("node %s: no series %s", node, k)
			continue
		}
		if g != v {
			t.Errorf("node %s: %s = %v, want %v", node, k, g, v)
		}
	}
}

// TestMetricsCountARelayedSessionOnBothNodes pins the relay's series: a
// seat on node a playing a table node b owns opens one session on each
// side (gauge and total, result ok), moves frames each way, and both
// nodes count the same frames and bytes in each direction once it ends;
// a handshake b's server refuses counts as refused on both sides, and an
// owner that does not answer as unavailable on a; after Close the
// collector still scrapes, its gauges 0 and its counters kept.
func TestMetricsCountARelayedSessionOnBothNodes(t *testing.T) {
	ctx := within(t, 60*time.Second)
	p := startPair(ctx, t)
	created, err := p.direct.Create(ctx, client.CreateRequest{Name: "counted", TimingsMS: fastTimings})
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
		t.Fatal(err)
	}
	defer relayed.CloseNow()
	if _, err := relayed.Send(ctx, wire.ClientMessage{Type: "host", Action: "add_bots"}); err != nil {
		t.Fatal(err)
	}
	for {
		m, err := relayed.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.ID != 0 { // the answer to add_bots: a frame each way at least
			break
		}
	}
	a, b := scrape(t, p.a), scrape(t, p.b)
	for _, c := range []struct {
		node string
		got  map[string]float64
		side string
	}{{"a", a, "a"}, {"b", b, "b"}} {
		other := map[string]string{"a": "b", "b": "a"}[c.side]
		want(t, c.node, c.got, map[string]float64{
			"mafia_cluster_peers":                                                1,
			"mafia_cluster_routes":                                               1,
			"mafia_cluster_nats_connected":                                       1,
			"mafia_relay_sessions{side=" + c.side + "}":                          1,
			"mafia_relay_sessions{side=" + other + "}":                           0,
			"mafia_relay_sessions_total{result=ok,side=" + c.side + "}":          1,
			"mafia_relay_sessions_total{result=refused,side=" + c.side + "}":     0,
			"mafia_relay_sessions_total{result=unavailable,side=" + c.side + "}": 0,
			"mafia_relay_sessions_total{result=ok,side=" + other + "}":           0,
			"mafia_lobby_missed_total":                                           0,
		})
		for _, dir := range []string{"to_owner", "to_client"} {
			if c.got["mafia_relay_frames_total{direction="+dir+"}"] < 1 || c.got["mafia_relay_bytes_total{direction="+dir+"}"] <= headerLen {
				t.Errorf("node %s: %s frames %v, bytes %v: want a frame at least", c.node, dir,
					c.got["mafia_relay_frames_total{direction="+dir+"}"], c.got["mafia_relay_bytes_total{direction="+dir+"}"])
			}
		}
		// Each node's frames went out in batches: one at least, and no
		// more than its frames and acks.
		if got := c.got["mafia_relay_batches_total"]; got < 1 {
			t.Errorf("node %s: %v batches, want one at least", c.node, got)
		}
	}

	// Once the session has ended on both nodes, each direction's frames
	// were counted once by the node that published them and once by the
	// node that received them: the same figures on both.
	relayed.Close()
	eventually(ctx, t, "the session ends on both nodes", func() bool { return p.a.sessionCount() == 0 && p.b.sessionCount() == 0 })
	var traffic []string
	for _, name := range []string{"mafia_relay_frames_total", "mafia_relay_bytes_total"} {
		for _, dir := range []string{"to_owner", "to_client"} {
			traffic = append(traffic, name+"{direction="+dir+"}")
		}
	}
	eventually(ctx, t, "both nodes count the same traffic", func() bool {
		a, b = scrape(t, p.a), scrape(t, p.b)
		for _, k := range traffic {
			if a[k] != b[k] {
				return false
			}
		}
		return true
	})
	want(t, "a", a, map[string]float64{"mafia_relay_sessions{side=a}": 0, "mafia_relay_sessions_total{result=ok,side=a}": 1})
	want(t, "b", b, map[string]float64{"mafia_relay_sessions{side=b}": 0, "mafia_relay_sessions_total{result=ok,side=b}": 1})

	// b's server refuses a table it does not have: refused on both sides.
	p.own(ctx, t, "nosuchtable")
	if _, resp, err := websocket.Dial(ctx, "ws"+p.relayed.Base[4:]+"/api/tables/nosuchtable/ws", nil); err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("dial of an unknown table through a: %v %v, want 404", resp, err)
	}
	want(t, "a", scrape(t, p.a), map[string]float64{"mafia_relay_sessions_total{result=refused,side=a}": 1})
	want(t, "b", scrape(t, p.b), map[string]float64{"mafia_relay_sessions_total{result=refused,side=b}": 1})

	// b no longer answers openings: unavailable on a.
	for _, s := range p.b.subs {
		if s.Subject == subjectOpen+"b" {
			s.Unsubscribe()
		}
	}
	if err := p.b.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	eventually(ctx, t, "a's server forgets b's relay subject", func() bool { return !interest(p.a, subjectOpen+"b") })
	if _, resp, err := websocket.Dial(ctx, "ws"+p.relayed.Base[4:]+"/api/tables/nosuchtable/ws", nil); err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("dial through a to a silent owner: %v %v, want 503", resp, err)
	}
	want(t, "a", scrape(t, p.a), map[string]float64{"mafia_relay_sessions_total{result=unavailable,side=a}": 1, "mafia_relay_sessions{side=a}": 0})

	// After Close the collector still scrapes: gauges 0, counters kept.
	final := scrape(t, p.a)
	for _, n := range []*Node{p.a, p.b} {
		if err := n.Close(); err != nil {
			t.Fatal(err)
		}
	}
	after := scrape(t, p.a)
	want(t, "a", after, map[string]float64{"mafia_cluster_peers": 0, "mafia_cluster_routes": 0, "mafia_cluster_nats_connected": 0,
		"mafia_relay_sessions{side=a}": 0, "mafia_relay_sessions{side=b}": 0})
	for k, v := range final {
		// Kept, not reset: a batch the outbox still had in hand when
		// final was read may be counted by Close's flush (CI saw 2, then 3).
		if strings.HasSuffix(strings.SplitN(k, "{", 2)[0], "_total") && after[k] < v {
			t.Errorf("after Close %s = %v, want %v or more kept", k, after[k], v)
		}
	}
	scrape(t, p.b)
}

// TestMetricsCountTheRequestsPassedToOwners pins mafia_relay_requests_total:
// a request the owner answers is ok, one nobody answers unavailable.
func TestMetricsCountTheRequestsPassedToOwners(t *testing.T) {
	ctx := within(t, 30*time.Second)
	ca, cb := newFakeClock(), newFakeClock()
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick, OpenWait: 200 * time.Millisecond})
	b := startNode(t, Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Local: http.HandlerFunc(echo), Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b)
	for _, to := range []string{"b", "nobody", "b"} {
		a.Forward(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/api/tables/t1", nil), to, "")
	}
	want(t, "a", scrape(t, a), map[string]float64{"mafia_relay_requests_total{result=ok}": 2, "mafia_relay_requests_total{result=unavailable}": 1})
	want(t, "b", scrape(t, b), map[string]float64{"mafia_relay_requests_total{result=ok}": 0, "mafia_relay_requests_total{result=unavailable}": 0})
}

// TestMetricsAreInTheOperatorsDocs pins docs/cluster.md's table of the
// metrics to watch to the collector: every series a node exports is named
// there, for the operator who reads it.
func TestMetricsAreInTheOperatorsDocs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "cluster.md"))
	if err != nil {
		t.Fatal(err)
	}
	node, err := NewNode(Config{ID: "docs", Insecure: true}) // not started: the collector reads it all the same
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for name := range scrapeFamilies(t, node) {
		if !bytes.Contains(doc, []byte("`"+name)) {
			t.Errorf("docs/cluster.md does not name %s", name)
		}
		n++
	}
	if n == 0 {
		t.Fatal("the collector describes no series")
	}
}

// scrapeFamilies is the names of the families a node's collector gathers.
func scrapeFamilies(t testing.TB, n *Node) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for k := range scrape(t, n) {
		out[strings.SplitN(k, "{", 2)[0]] = true
	}
	return out
}
