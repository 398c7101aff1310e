// Package static serves a page's files (scripts, styles, images, the
// assistant's engine module) under a path that names their version,
// …/static/<version>/<path>, for the browser client and the host's
// assistant alike.
//
// The version is a hash of every file, so a new build is never mixed with
// files a browser has cached: a file asked for under the current version is
// cached for a year as immutable; one asked for under another version (a
// page of an older build) gets today's file, revalidated each time by its
// ETag. Text is sent gzipped to a client that accepts gzip; a file stored
// gzipped (NAME.gz) is served as NAME too, as it is to a client that accepts
// gzip and unpacked for one that does not.
//
// It owns those headers and nothing of either page's routes or templates:
// a page's templates live apart from its files (templates/), so that they
// are never served as they are.
package static

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strings"
	"sync"
)

// Server serves the files of one or more folders, as one set with one
// version.
type Server struct {
	fss   []fs.FS           // the file systems included
	srcs  map[string]source // by the name it is served at
	names []string          // sorted

	once    sync.Once
	files   map[string]*File
	version string
}

// source is where a served name's body is read from.
type source struct {
	fs   int    // in fss
	path string // in it
	gz   bool   // the name of a file stored gzipped, NAME.gz served as NAME
}

// New makes a server of the files below root in fsys ("." for all of
// them), each served at its path below root. The files are read at first
// use.
func New(fsys fs.FS, root string) *Server {
	s := &Server{srcs: map[string]source{}}
	return s.Include(fsys, root, ".")
}

// Include adds the files below root in fsys, each served at its path below
// root within dir ("." for the top: Include(shared, ".", "js") serves
// shared's a.js as js/a.js). It panics if a name is already taken, or if
// called after the first use: the files are embedded, so either is a
// mistake of the program, which its tests meet.
func (s *Server) Include(fsys fs.FS, root, dir string) *Server {
	if s.files != nil {
		panic("static: Include after the first use")
	}
	s.fss = append(s.fss, fsys)
	type file struct{ path, name string } // in fsys, and served at
	var found []file
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := p
		if root != "." {
			rel = strings.TrimPrefix(p, root+"/")
		}
		found = append(found, file{p, path.Join(dir, rel)})
		return nil
	})
	if err != nil {
		panic(fmt.Sprintf("static: %s: %v", root, err))
	}
	add := func(name string, src source) {
		if _, ok := s.srcs[name]; ok {
			panic("static: two files named " + name)
		}
		s.srcs[name] = src
		s.names = append(s.names, name)
	}
	for _, f := range found {
		add(f.name, source{fs: len(s.fss) - 1, path: f.path})
	}
	// A file stored gzipped is served by its plain name too, unless a file
	// of that name is there already.
	for _, f := range found {
		plain, ok := strings.CutSuffix(f.name, ".gz")
		if _, taken := s.srcs[plain]; ok && !taken {
			add(plain, source{fs: len(s.fss) - 1, path: f.path, gz: true})
		}
	}
	sort.Strings(s.names)
	return s
}

// load reads every file and hashes them into the version.
func (s *Server) load() {
	files := map[string]*File{}
	read := map[source][]byte{} // a file stored gzipped is read once for both its names
	all := sha256.New()
	for _, name := range s.names {
		src := s.srcs[name]
		key := source{fs: src.fs, path: src.path}
		body, ok := read[key]
		if !ok {
			var err error
			if body, err = fs.ReadFile(s.fss[src.fs], src.path); err != nil {
				panic(fmt.Sprintf("static: %s: %v", src.path, err))
			}
			read[key] = body
		}
		var f *File
		if src.gz {
			f = newGzipped(body, contentType(name))
		} else {
			f = NewFile(body, contentType(name))
		}
		files[name] = f
		sum := sha256.Sum256(body)
		all.Write([]byte(name))
		all.Write(sum[:])
	}
	s.files = files
	s.version = hex.EncodeToString(all.Sum(nil)[:6])
}

// Version returns the hash of the files, which names this build's static
// path (…/static/<version>/).
func (s *Server) Version() string {
	s.once.Do(s.load)
	return s.version
}

// Names returns the paths of the files served, sorted (a file stored
// gzipped counts under both its names).
func (s *Server) Names() []string { return append([]string(nil), s.names...) }

// ServeHTTP serves a request routed by a pattern that ends in
// {ver}/{path...} (GET /static/{ver}/{path...}): the file at path, cached
// for a year when ver is the current version, revalidated each time under
// any other; 404 for a path that names no file.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.once.Do(s.load)
	f := s.files[r.PathValue("path")]
	if f == nil {
		http.NotFound(w, r)
		return
	}
	cache := "no-cache"
	if r.PathValue("ver") == s.version {
		cache = "public, max-age=31536000, immutable"
	}
	f.Serve(w, r, cache)
}
