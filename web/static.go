package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed static
var staticFS embed.FS

// asset is one embedded file, ready to serve.
type asset struct {
	body  []byte
	gz    []byte // gzipped body, when that is smaller
	ctype string
	etag  string
}

// assets are the embedded files by path under static/, and version is a
// hash of all of them: the page loads its files from /static/<version>/,
// so that a new build is never mixed with files a browser has cached.
var (
	assetsOnce sync.Once
	assets     map[string]*asset
	version    string
)

func loadAssets() {
	assets = map[string]*asset{}
	all := sha256.New()
	var names []string
	_ = fs.WalkDir(staticFS, "static", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	for _, name := range names {
		body, err := staticFS.ReadFile(name)
		if err != nil {
			continue
		}
		sum := sha256.Sum256(body)
		all.Write([]byte(name))
		all.Write(sum[:])
		a := newAsset(body, contentType(name))
		assets[strings.TrimPrefix(name, "static/")] = a
	}
	version = hex.EncodeToString(all.Sum(nil)[:6])
}

// Version returns the hash of the embedded files that names this build's
// static path (/static/<version>/).
func Version() string {
	assetsOnce.Do(loadAssets)
	return version
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".json", ".webmanifest":
		return "application/json; charset=utf-8"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// newAsset prepares a file to serve: its ETag, and its gzipped form for
// text when that is smaller.
func newAsset(body []byte, ctype string) *asset {
	sum := sha256.Sum256(body)
	a := &asset{body: body, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	if strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "svg") || strings.Contains(ctype, "json") {
		var b bytes.Buffer
		w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		_, _ = w.Write(body)
		_ = w.Close()
		if b.Len() < len(body) {
			a.gz = b.Bytes()
		}
	}
	return a
}

// serveStatic serves /static/{ver}/{path...}. Files under the current
// version never change, so they are cached for a year; an old version's
// path still gets today's file, revalidated each time.
func serveStatic(w http.ResponseWriter, r *http.Request) {
	assetsOnce.Do(loadAssets)
	name := r.PathValue("path")
	a := assets[name]
	if a == nil || name == "index.html" {
		http.NotFound(w, r)
		return
	}
	cache := "no-cache"
	if r.PathValue("ver") == version {
		cache = "public, max-age=31536000, immutable"
	}
	a.serve(w, r, cache)
}

// serve writes the asset with its ETag, answering a matching If-None-Match
// with 304 and gzipping for a client that accepts it.
func (a *asset) serve(w http.ResponseWriter, r *http.Request, cache string) {
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", a.etag)
	h.Set("Vary", "Accept-Encoding")
	h.Set("Cache-Control", cache)
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.body
	if a.gz != nil && acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// acceptsGzip reports whether the request accepts a gzipped body.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, params, _ := strings.Cut(part, ";")
		if strings.TrimSpace(enc) != "gzip" {
			continue
		}
		q := 1.0
		if v, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q="); ok {
			q, _ = strconv.ParseFloat(v, 64)
		}
		return q > 0
	}
	return false
}
