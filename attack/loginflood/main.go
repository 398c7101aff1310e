// Command loginflood is the attack suite's login flood run as a process of
// its own, for measuring (package attack's tests run the attacker in the
// server's process, where its work and the server's cannot be told
// apart). From eight addresses of 127.0.0.0/8, each with several
// keep-alive connections, it posts wrong passwords to
// /api/account/login of a running `mafia serve` as fast as it is
// answered; meanwhile, every two seconds, a real login (an account it
// signs up first, from an address of its own) is timed. At the end it
// prints what it sent, how it was answered, and the real logins' times.
//
//	go run ./attack/loginflood -url http://127.0.0.1:8080 -for 30s
//
// It is a measuring tool, for loopback only: it runs no test and ships in
// no binary.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8080", "the server's public address")
	dur := flag.Duration("for", 30*time.Second, "how long to flood")
	addrs := flag.Int("addrs", 8, "flooding addresses (127.0.1.1, 127.0.1.2, …)")
	conns := flag.Int("conns", 6, "connections per address")
	flag.Parse()
	if err := run(*url, *dur, *addrs, *conns); err != nil {
		fmt.Fprintln(os.Stderr, "loginflood:", err)
		os.Exit(1)
	}
}

func from(ip string, conns int) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: conns}}
}

func post(ctx context.Context, hc *http.Client, url, body string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

func run(base string, dur time.Duration, addrs, conns int) error {
	ctx := context.Background()
	name := fmt.Sprintf("real%d", time.Now().UnixNano()%1_000_000)
	real := `{"name":"` + name + `","password":"the real password","bearer":true}`
	if st, err := post(ctx, from("127.0.2.1", 1), base+"/api/account/signup", real); err != nil || st != http.StatusOK {
		return fmt.Errorf("the real signup: %d %v", st, err)
	}
	flood, stop := context.WithTimeout(ctx, dur)
	defer stop()
	var mu sync.Mutex
	statuses := map[int]int{}
	var sent atomic.Int64
	var wg sync.WaitGroup
	for i := range addrs {
		hc := from(fmt.Sprintf("127.0.1.%d", i+1), conns)
		for j := range conns {
			wg.Go(func() {
				for n := 0; flood.Err() == nil; n++ {
					body := fmt.Sprintf(`{"name":"victim%d-%d-%d","password":"guess number %d"}`, i, j, n%50, n)
					st, err := post(flood, hc, base+"/api/account/login", body)
					if err != nil {
						continue
					}
					sent.Add(1)
					mu.Lock()
					statuses[st]++
					mu.Unlock()
				}
			})
		}
	}
	var took []time.Duration
	failed := 0
	for try := 0; flood.Err() == nil; try++ {
		select {
		case <-flood.Done():
		case <-time.After(2 * time.Second):
		}
		if flood.Err() != nil {
			break
		}
		t0 := time.Now()
		st, err := post(ctx, from(fmt.Sprintf("127.0.3.%d", 1+try%250), 1), base+"/api/account/login", real)
		if err != nil || st != http.StatusOK {
			failed++
			continue
		}
		took = append(took, time.Since(t0))
	}
	wg.Wait()
	slices.Sort(took)
	fmt.Printf("flood: %d requests in %v (%.0f/s) from %d addresses x %d connections; answered %v\n",
		sent.Load(), dur, float64(sent.Load())/dur.Seconds(), addrs, conns, statuses)
	if len(took) > 0 {
		fmt.Printf("real logins: %d, %d failed; min %v, median %v, max %v\n", len(took), failed,
			took[0].Round(time.Millisecond), took[len(took)/2].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond))
	} else {
		fmt.Printf("real logins: none answered, %d failed\n", failed)
	}
	return nil
}
