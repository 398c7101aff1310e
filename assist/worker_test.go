package assist_test

import (
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
)

func get(t *testing.T, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultTransport.RoundTrip(req) // no transparent gzip
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// TestTheServiceWorkerKeepsEveryFileThePageLoads checks the worker's script
// (its version and files), that every file it keeps is served, and that the
// files cover what the page loads: the page's own tags and every module the
// page's scripts import, one from another.
func TestTheServiceWorkerKeepsEveryFileThePageLoads(t *testing.T) {
	ts := hosttest.StartServer(t)
	res, js := get(t, ts.URL+"/host/sw.js")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") ||
		res.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("/host/sw.js: %s %v", res.Status, res.Header)
	}
	if !strings.Contains(js, `const VERSION = "`+assist.Version()+`";`) || !strings.Contains(js, `const PAGE = "/host/";`) {
		t.Fatalf("the worker does not name its version:\n%.300s", js)
	}
	files := assist.OfflineFiles()
	prefix := "/host/static/" + assist.Version() + "/"
	for _, f := range files {
		if !strings.Contains(js, `"`+f+`"`) {
			t.Errorf("the worker does not keep %s", f)
		}
		if !strings.HasPrefix(f, prefix) {
			t.Errorf("%s is not a file of version %s", f, assist.Version())
		}
		r, body := get(t, ts.URL+f, "Accept-Encoding", "gzip")
		if r.StatusCode != 200 || len(body) == 0 {
			t.Errorf("%s: %s", f, r.Status)
		}
	}

	// The page's own tags.
	res, page := get(t, ts.URL+"/host/")
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "worker-src 'self'") {
		t.Errorf("the page's policy allows no worker of its own: %s", csp)
	}
	want := map[string]bool{prefix + "engine.wasm": true}
	for _, m := range regexp.MustCompile(`(?:src|href)="(/host/static/[^"]+)"`).FindAllStringSubmatch(page, -1) {
		want[m[1]] = true
	}
	// Every module the page's scripts import.
	todo := []string{prefix + "js/app.js"}
	imp := regexp.MustCompile(`(?m)^import [^'"]*['"]\./([a-z0-9_]+\.js)['"]`)
	for len(todo) > 0 {
		f := todo[0]
		todo = todo[1:]
		if want[f] && f != prefix+"js/app.js" {
			continue
		}
		want[f] = true
		_, src := get(t, ts.URL+f)
		for _, m := range imp.FindAllStringSubmatch(src, -1) {
			if g := prefix + "js/" + m[1]; !want[g] {
				todo = append(todo, g)
			}
		}
	}
	if len(want) < 10 {
		t.Fatalf("found only %d files the page loads: %v", len(want), want)
	}
	for f := range want {
		if !slices.Contains(files, f) {
			t.Errorf("the page loads %s, and the worker does not keep it", f)
		}
	}
}
