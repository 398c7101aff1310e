package assist

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"sync"
)

// The service worker (static/sw.js) keeps the host's page on the phone.
// It is served at /host/sw.js, so that its scope is /host/, with the files
// of this Version to keep written above its code.

// PagePath is the host's page: the service worker's scope and the page it
// keeps.
const PagePath = "/host/"

var (
	workerOnce sync.Once
	workerJS   []byte
)

// OfflineFiles returns the URLs the service worker keeps besides the page:
// the page's scripts and styles and the engine module, under
// /host/static/<Version>/. The protocol's and the card's files are left
// out: those pages need the server.
func OfflineFiles() []string {
	var out []string
	for _, name := range files.Names() {
		switch name {
		case "sw.js", "engine.sum", "engine.wasm.gz", "print.css", "js/print.js", "js/card.js":
			continue // engine.wasm is kept: served unpacked or gzipped, as the browser accepts
		}
		out = append(out, "/host/static/"+Version()+"/"+name)
	}
	sort.Strings(out)
	return out
}

// workerScript is the service worker's code with its version and files.
func workerScript() []byte {
	workerOnce.Do(func() {
		code, err := staticFS.ReadFile("static/sw.js")
		if err != nil {
			panic("assist: static/sw.js: " + err.Error())
		}
		files, _ := json.Marshal(OfflineFiles())
		var b bytes.Buffer
		b.WriteString("const VERSION = " + strconv.Quote(Version()) + ";\n")
		b.WriteString("const PAGE = " + strconv.Quote(PagePath) + ";\n")
		b.WriteString("const FILES = " + string(files) + ";\n")
		b.Write(code)
		workerJS = b.Bytes()
	})
	return workerJS
}

// serveWorker serves the service worker. It is never cached by HTTP: the
// browser compares it byte for byte to find a new version.
func serveWorker(w http.ResponseWriter, _ *http.Request) {
	js := workerScript()
	hd := w.Header()
	hd.Set("Content-Type", "text/javascript; charset=utf-8")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Length", strconv.Itoa(len(js)))
	_, _ = w.Write(js)
}
