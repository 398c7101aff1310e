package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

var script = []byte(strings.Repeat("export const x = 'a line of a script';\n", 40))

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Bytes()
}

var module = append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte{7}, 500)...)

// page is a page's folder: its files under static/, its template apart.
func page() fstest.MapFS {
	return fstest.MapFS{
		"static/app.css":         {Data: []byte("body { margin: 0 }\n")},
		"static/js/main.js":      {Data: script},
		"static/icon.svg":        {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`)},
		"static/engine.wasm.gz":  {Data: gzipped(module)},
		"templates/index.html":   {Data: []byte("<!doctype html><title>{{.Title}}</title>")},
		"static/sub/dir/note.md": {Data: []byte("a note")},
	}
}

// mounted serves s as a page mounts it.
func mounted(s *Server) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /static/{ver}/{path...}", s)
	return mux
}

func get(t *testing.T, h http.Handler, method, path string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestAFileOfTheCurrentVersionIsCachedForAYear(t *testing.T) {
	s := New(page(), "static")
	w := get(t, mounted(s), "GET", "/static/"+s.Version()+"/js/main.js")
	if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), script) {
		t.Fatalf("%d, %d bytes", w.Code, w.Body.Len())
	}
	for k, want := range map[string]string{
		"Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable",
		"X-Content-Type-Options": "nosniff", "Vary": "Accept-Encoding", "Content-Encoding": "",
	} {
		if got := w.Header().Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if w.Header().Get("ETag") == "" {
		t.Error("no ETag")
	}
	if len(s.Version()) != 12 {
		t.Errorf("version %q, want 12 hex digits", s.Version())
	}
}

func TestAMatchingETagIsAnswered304(t *testing.T) {
	s := New(page(), "static")
	h := mounted(s)
	path := "/static/" + s.Version() + "/app.css"
	etag := get(t, h, "GET", path).Header().Get("ETag")
	if w := get(t, h, "GET", path, "If-None-Match", etag); w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Errorf("If-None-Match %s: %d with %d bytes, want 304 and none", etag, w.Code, w.Body.Len())
	}
	if w := get(t, h, "GET", path, "If-None-Match", `"other"`); w.Code != 200 {
		t.Errorf("another ETag: %d, want 200", w.Code)
	}
}

func TestTextIsGzippedForAClientThatAcceptsGzip(t *testing.T) {
	s := New(page(), "static")
	h := mounted(s)
	path := "/static/" + s.Version() + "/js/main.js"
	w := get(t, h, "GET", path, "Accept-Encoding", "br, gzip")
	if w.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q, want gzip", w.Header().Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); !bytes.Equal(got, script) {
		t.Error("the gzipped body is not the file")
	}
	for _, enc := range []string{"gzip;q=0", "br", "identity"} {
		if w := get(t, h, "GET", path, "Accept-Encoding", enc); w.Header().Get("Content-Encoding") != "" || !bytes.Equal(w.Body.Bytes(), script) {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q", enc, w.Header().Get("Content-Encoding"))
		}
	}
	// A body that gzip does not make smaller goes as it is.
	if w := get(t, h, "GET", "/static/"+s.Version()+"/app.css", "Accept-Encoding", "gzip"); w.Header().Get("Content-Encoding") != "" {
		t.Error("a short file is sent gzipped")
	}
}

func TestAnOldVersionsPathGetsTodaysFileRevalidated(t *testing.T) {
	s := New(page(), "static")
	h := mounted(s)
	w := get(t, h, "GET", "/static/0ld/app.css")
	if w.Code != 200 || w.Header().Get("Cache-Control") != "no-cache" || w.Body.String() != "body { margin: 0 }\n" {
		t.Fatalf("%d %q %q, want today's file, no-cache", w.Code, w.Header().Get("Cache-Control"), w.Body.String())
	}
	if w := get(t, h, "GET", "/static/0ld/app.css", "If-None-Match", w.Header().Get("ETag")); w.Code != http.StatusNotModified {
		t.Errorf("revalidated: %d, want 304", w.Code)
	}
}

func TestAPathThatNamesNoFileIs404(t *testing.T) {
	s := New(page(), "static")
	h := mounted(s)
	v := s.Version()
	for _, p := range []string{"/static/" + v + "/js/nope.js", "/static/" + v + "/index.html", "/static/" + v + "/templates/index.html",
		"/static/" + v + "/js", "/static/" + v + "/static/app.css"} {
		if w := get(t, h, "GET", p); w.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, w.Code)
		}
	}
	// A path that climbs out is cleaned by the mux first: never a file
	// outside the folder.
	r := httptest.NewRequest("GET", "/static/"+v+"/x", nil)
	r.SetPathValue("ver", v)
	r.SetPathValue("path", "../templates/index.html")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusNotFound {
		t.Errorf("../templates/index.html: %d, want 404", w.Code)
	}
}

func TestAFileStoredGzippedIsServedByItsPlainName(t *testing.T) {
	s := New(page(), "static")
	h := mounted(s)
	path := "/static/" + s.Version() + "/engine.wasm"
	w := get(t, h, "GET", path, "Accept-Encoding", "gzip, br")
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Content-Type") != "application/wasm" ||
		!bytes.Equal(w.Body.Bytes(), page()["static/engine.wasm.gz"].Data) {
		t.Errorf("gzip: %d %q %q, %d bytes", w.Code, w.Header().Get("Content-Encoding"), w.Header().Get("Content-Type"), w.Body.Len())
	}
	w = get(t, h, "GET", path, "Accept-Encoding", "identity")
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "" || !bytes.Equal(w.Body.Bytes(), module) {
		t.Errorf("plain: %d %q, %d bytes", w.Code, w.Header().Get("Content-Encoding"), w.Body.Len())
	}
	if w := get(t, h, "HEAD", path); w.Code != 200 || w.Body.Len() != 0 {
		t.Errorf("HEAD: %d with %d bytes", w.Code, w.Body.Len())
	}
	if w := get(t, h, "GET", path+".gz"); w.Code != 200 || !bytes.Equal(w.Body.Bytes(), page()["static/engine.wasm.gz"].Data) {
		t.Errorf("the stored file itself: %d", w.Code)
	}
	if !slices.Contains(s.Names(), "engine.wasm") || !slices.Contains(s.Names(), "engine.wasm.gz") {
		t.Errorf("names %v, want both of the module's", s.Names())
	}
}

func TestHEADHasTheHeadersAndNoBody(t *testing.T) {
	s := New(page(), "static")
	w := get(t, mounted(s), "HEAD", "/static/"+s.Version()+"/js/main.js")
	if w.Code != 200 || w.Body.Len() != 0 || w.Header().Get("Content-Length") != strconv.Itoa(len(script)) {
		t.Errorf("%d, %d bytes, Content-Length %q", w.Code, w.Body.Len(), w.Header().Get("Content-Length"))
	}
}

func TestTheVersionNamesEveryFilesNameAndBody(t *testing.T) {
	v := New(page(), "static").Version()
	if again := New(page(), "static").Version(); again != v {
		t.Errorf("the same files: %s then %s", v, again)
	}
	changed := page()
	changed["static/app.css"] = &fstest.MapFile{Data: []byte("body { margin: 1px }\n")}
	renamed := page()
	renamed["static/app2.css"] = renamed["static/app.css"]
	delete(renamed, "static/app.css")
	outside := page()
	outside["templates/index.html"] = &fstest.MapFile{Data: []byte("another page")}
	for name, fsys := range map[string]fstest.MapFS{"a body changed": changed, "a file renamed": renamed} {
		if New(fsys, "static").Version() == v {
			t.Errorf("%s: the version stays %s", name, v)
		}
	}
	if New(outside, "static").Version() != v {
		t.Error("a file outside the folder changed the version")
	}
}

func TestIncludeServesAnotherFolderWithinThisOne(t *testing.T) {
	shared := fstest.MapFS{"dom.js": {Data: []byte("export function h() {}\n")}}
	alone := New(page(), "static").Version()
	s := New(page(), "static").Include(shared, ".", "js")
	h := mounted(s)
	if w := get(t, h, "GET", "/static/"+s.Version()+"/js/dom.js"); w.Code != 200 || w.Body.String() != "export function h() {}\n" {
		t.Errorf("js/dom.js: %d %q", w.Code, w.Body.String())
	}
	if s.Version() == alone {
		t.Error("the included file is not in the version")
	}
	want := []string{"app.css", "engine.wasm", "engine.wasm.gz", "icon.svg", "js/dom.js", "js/main.js", "sub/dir/note.md"}
	if got := s.Names(); !slices.Equal(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
}

func TestTwoFilesOfOneNameArePanickedAt(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a second js/main.js was taken")
		}
	}()
	New(page(), "static").Include(fstest.MapFS{"main.js": {Data: []byte("x")}}, ".", "js")
}

func TestAFileMadeByAHandlerIsServedAlike(t *testing.T) {
	f := NewFile([]byte(`{"lang":"ka","messages":{}}`), "application/json; charset=utf-8")
	r := httptest.NewRequest("GET", "/api/i18n/ka", nil)
	w := httptest.NewRecorder()
	f.Serve(w, r, "no-cache")
	if w.Code != 200 || w.Header().Get("Cache-Control") != "no-cache" || w.Header().Get("ETag") == "" ||
		w.Header().Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("%d %v", w.Code, w.Header())
	}
}

// TestATextIsGzippedAtItsFirstGzipRequestOnly: a server's start (Version)
// compresses nothing; a client that does not accept gzip gets the plain
// text and still makes none; the first that does makes the gzipped form,
// once, and every later one gets the same bytes (concurrent first requests
// included: the race step runs this).
func TestATextIsGzippedAtItsFirstGzipRequestOnly(t *testing.T) {
	s := New(page(), "static")
	h := mounted(s)
	path := "/static/" + s.Version() + "/js/main.js"
	f := s.files["js/main.js"]
	if f == nil || f.gz != nil {
		t.Fatalf("after the start: file %v, gzipped %d bytes; want the file, nothing gzipped", f != nil, len(f.gz))
	}
	if w := get(t, h, "GET", path, "Accept-Encoding", "identity"); w.Header().Get("Content-Encoding") != "" || f.gz != nil {
		t.Fatalf("a plain request: Content-Encoding %q, gzipped %d bytes; want neither", w.Header().Get("Content-Encoding"), len(f.gz))
	}
	bodies := make([][]byte, 4)
	var wg sync.WaitGroup
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bodies[i] = get(t, h, "GET", path, "Accept-Encoding", "gzip").Body.Bytes()
		}()
	}
	wg.Wait()
	first := f.gz
	for i, b := range bodies {
		if len(b) == 0 || !bytes.Equal(b, first) {
			t.Errorf("gzip request %d got %d bytes, not the %d made once", i, len(b), len(first))
		}
	}
	if get(t, h, "GET", path, "Accept-Encoding", "gzip"); &f.gz[0] != &first[0] {
		t.Error("a later request made the gzipped form again")
	}
}
