package web

import (
	"embed"

	"mafia/internal/static"
)

// The page's scripts, styles and icon (its template is apart, in
// templates/: handler.go).
//
//go:embed static
var staticFS embed.FS

// files are the page's files, served under /static/<version>/ (package
// static: a new build is never mixed with files a browser has cached).
var files = static.New(staticFS, "static")

// Version returns the hash of the page's files that names this build's
// static path (/static/<version>/).
func Version() string { return files.Version() }
