package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// ServerSample is what the server's /metrics (on its operator address) said
// at one moment.
type ServerSample struct {
	Connections  float64 `json:"connections"`               // mafia_connections
	GamesRunning float64 `json:"games_running"`             // mafia_games_running
	RSS          float64 `json:"rss_bytes"`                 // process_resident_memory_bytes
	HeapInuse    float64 `json:"heap_inuse_bytes"`          // go_memstats_heap_inuse_bytes
	Sys          float64 `json:"sys_bytes"`                 // go_memstats_sys_bytes
	Goroutines   float64 `json:"goroutines"`                // go_goroutines
	CPUSeconds   float64 `json:"cpu_seconds"`               // process_cpu_seconds_total
	RSSPerConn   float64 `json:"rss_per_conn_bytes"`        // RSS / Connections
	HeapPerConn  float64 `json:"heap_inuse_per_conn_bytes"` // HeapInuse / Connections
	SysPerConn   float64 `json:"sys_per_conn_bytes"`        // Sys / Connections
}

// isLoopback reports whether a server URL names this machine.
func isLoopback(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// scrape reads the /metrics of the server's operator address ops, with its
// bearer token if it has one.
func scrape(ctx context.Context, hc *http.Client, ops, token string) (ServerSample, error) {
	var s ServerSample
	req, err := http.NewRequestWithContext(ctx, "GET", strings.TrimRight(ops, "/")+"/metrics", nil)
	if err != nil {
		return s, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return s, fmt.Errorf("%s/metrics: %s", strings.TrimRight(ops, "/"), resp.Status)
	}
	want := map[string]*float64{
		"mafia_connections":             &s.Connections,
		"mafia_games_running":           &s.GamesRunning,
		"process_resident_memory_bytes": &s.RSS,
		"go_memstats_heap_inuse_bytes":  &s.HeapInuse,
		"go_memstats_sys_bytes":         &s.Sys,
		"go_goroutines":                 &s.Goroutines,
		"process_cpu_seconds_total":     &s.CPUSeconds,
	}
	sc := bufio.NewScanner(io.LimitReader(resp.Body, 8<<20))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		name, val, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if p, ok := want[name]; ok {
			if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
				*p = f
			}
		}
	}
	if err := sc.Err(); err != nil {
		return s, err
	}
	if s.Connections > 0 {
		s.RSSPerConn = s.RSS / s.Connections
		s.HeapPerConn = s.HeapInuse / s.Connections
		s.SysPerConn = s.Sys / s.Connections
	}
	return s, nil
}
