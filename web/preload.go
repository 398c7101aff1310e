package web

import (
	"io/fs"
	"path"
	"regexp"
	"sort"
	"sync"

	"mafia/internal/sharedjs"
)

// The first page's modules: main.js's static import graph, each named in
// a <link rel=modulepreload> of the page (issue 28, defect 10), so that the
// browser asks for them all at once rather than a module at a time as it
// reads each one's imports. No build step: the graph is read from the
// files at start.

// importRe finds a static import or re-export of a module of the page
// ("from './x.js'", "import './x.js'"); a dynamic import('./x.js') is left
// out (no parenthesis before the name: voice.js, which table.js imports
// at a voice table only, is not the first page's).
var importRe = regexp.MustCompile(`(?m)^\s*(?:import|export)\b[^'"(]*?(?:from\s*)?['"](\./[a-z0-9_]+\.js)['"]`)

var (
	modulesOnce sync.Once
	modules     []string
)

// readModule returns the text of the page's module js/name: the page's
// own or one it shares with the assistant (sharedjs).
func readModule(name string) ([]byte, error) {
	if b, err := fs.ReadFile(staticFS, path.Join("static/js", name)); err == nil {
		return b, nil
	}
	return fs.ReadFile(sharedjs.FS, name)
}

// preloads returns the paths, under the static root, of every module that
// main.js imports, directly or not, in a fixed order (sorted).
func preloads() []string {
	modulesOnce.Do(func() {
		seen := map[string]bool{"main.js": true}
		queue := []string{"main.js"}
		for len(queue) > 0 {
			b, err := readModule(queue[0])
			queue = queue[1:]
			if err != nil {
				continue
			}
			for _, m := range importRe.FindAllSubmatch(b, -1) {
				n := path.Base(string(m[1]))
				if !seen[n] {
					seen[n] = true
					queue = append(queue, n)
				}
			}
		}
		delete(seen, "main.js")
		for n := range seen {
			modules = append(modules, "js/"+n)
		}
		sort.Strings(modules)
	})
	return modules
}
