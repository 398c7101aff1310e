package assist_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"mafia/assist/internal/hosttest"
	"net/http"
	"os"
	"os/exec"
	"testing"
)

// TestTheCommittedEngineIsCurrent checks that the committed WebAssembly
// engine was built from today's sources: a change to the engine, the bridge
// or a sentence the host's page shows needs `go generate ./assist`.
func TestTheCommittedEngineIsCurrent(t *testing.T) {
	out, err := exec.Command("go", "run", "./internal/genwasm", "-check").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestTheEngineModuleIsSmallAndServedCompressed keeps the module's size in
// check and serves it gzipped to a browser that accepts gzip, plain to one
// that does not.
func TestTheEngineModuleIsSmallAndServedCompressed(t *testing.T) {
	gz, err := os.ReadFile("static/engine.wasm.gz")
	if err != nil {
		t.Fatal(err)
	}
	const limit = 2_500_000
	if len(gz) > limit {
		t.Errorf("engine.wasm.gz is %d bytes, over %d", len(gz), limit)
	}
	ts := hosttest.StartServer(t)
	get := func(enc string) *http.Response {
		req, _ := http.NewRequest("GET", ts.URL+"/host/static/v/engine.wasm", nil)
		req.Header.Set("Accept-Encoding", enc)
		tr := &http.Transport{DisableCompression: true}
		res, err := (&http.Client{Transport: tr}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := get("gzip, br")
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != "application/wasm" || !bytes.Equal(body, gz) {
		t.Errorf("gzip: %s %q %q, %d bytes", res.Status, res.Header.Get("Content-Encoding"), res.Header.Get("Content-Type"), len(body))
	}
	res = get("identity")
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	zr, _ := gzip.NewReader(bytes.NewReader(gz))
	plain, _ := io.ReadAll(zr)
	if res.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, plain) || !bytes.HasPrefix(body, []byte("\x00asm")) {
		t.Errorf("plain: %s %q, %d bytes", res.Status, res.Header.Get("Content-Encoding"), len(body))
	}
}
