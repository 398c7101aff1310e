package web

import (
	"embed"

	"mafia/internal/sharedjs"
	"mafia/internal/static"
)

// The page's scripts, styles and icon (its template is apart, in
// templates/: handler.go).
//
//go:embed static
var staticFS embed.FS

// files are the page's files, with the modules it shares with the host's
// assistant (sharedjs: js/dom.js, js/i18n.js, js/rolecard.js), served under
// /static/<version>/ (package static: a new build is never mixed with files
// a browser has cached).
var files = static.New(staticFS, "static").Include(sharedjs.FS, ".", "js")

// Version returns the hash of the page's files that names this build's
// static path (/static/<version>/).
func Version() string { return files.Version() }
