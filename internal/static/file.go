package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
)

// File is one body ready to serve: its type, its ETag and, for text, its
// gzipped form when that is smaller. A page's files are Files; so is a body
// a handler makes once (a catalog as JSON).
type File struct {
	body  []byte // nil for a file stored gzipped: gz unpacked on demand
	ctype string
	etag  string
	// gz is the gzipped body: a stored file's from the start, a text's
	// made at its first request by a client that accepts gzip (zip), and
	// nil where gzip would not make it smaller. Made at start, the texts'
	// compression was about a third of a server's start-up CPU, for files
	// many servers (a test's, a restart's first second) never send.
	zip  sync.Once
	gz   []byte
	text bool // text/*, SVG or JSON: worth gzipping
}

// NewFile prepares body to serve as ctype: its ETag now, and for text
// (text/*, SVG, JSON) its gzipped form when first asked for, kept if
// smaller.
func NewFile(body []byte, ctype string) *File {
	return &File{body: body, ctype: ctype, etag: etagOf(body),
		text: strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "svg") || strings.Contains(ctype, "json")}
}

// gzipped is the gzipped body, nil if there is none (see gz).
func (f *File) gzipped() []byte {
	f.zip.Do(func() {
		if !f.text || f.gz != nil {
			return
		}
		var b bytes.Buffer
		w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		_, _ = w.Write(f.body)
		_ = w.Close()
		if b.Len() < len(f.body) {
			f.gz = b.Bytes()
		}
	})
	return f.gz
}

// newGzipped is a file stored gzipped, served as ctype.
func newGzipped(gz []byte, ctype string) *File {
	return &File{gz: gz, ctype: ctype, etag: etagOf(gz)}
}

func etagOf(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:8]) + `"`
}

// Serve writes the file with cache as its Cache-Control: 304 to a request
// whose If-None-Match names its ETag, the gzipped body to a client that
// accepts gzip, the plain one otherwise (no body for HEAD).
func (f *File) Serve(w http.ResponseWriter, r *http.Request, cache string) {
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", f.etag)
	h.Set("Vary", "Accept-Encoding")
	h.Set("Cache-Control", cache)
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.body
	if acceptsGzip(r) {
		if gz := f.gzipped(); gz != nil {
			h.Set("Content-Encoding", "gzip")
			body = gz
		}
	}
	if body == nil { // stored gzipped, for a client that does not accept gzip
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			if zr, err := gzip.NewReader(bytes.NewReader(f.gz)); err == nil {
				_, _ = io.Copy(w, zr)
			}
		}
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// acceptsGzip reports whether the request accepts a gzipped body (gzip
// named in Accept-Encoding, with no q=0).
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

// contentType is a file's type by its name's ending.
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
	case ".wasm":
		return "application/wasm"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}
