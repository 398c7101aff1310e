package web

import (
	"slices"
	"testing"
)

// TestPreloads_TheFirstPageLeavesOutADynamicImport: the modules the first
// page preloads are main.js's static import graph; voice.js, which
// table.js imports only at a voice table (import('./voice.js')), is not
// among them, and neither is anything only it imports.
func TestPreloads_TheFirstPageLeavesOutADynamicImport(t *testing.T) {
	got := preloads()
	if !slices.Contains(got, "js/table.js") {
		t.Errorf("the first page's modules %v leave out table.js, a static import", got)
	}
	if slices.Contains(got, "js/voice.js") {
		t.Errorf("the first page's modules %v preload voice.js, a dynamic import", got)
	}
	for _, c := range []struct{ line, want string }{
		{"import { a } from './a.js';", "./a.js"},
		{"export { b } from './b.js';", "./b.js"},
		{"import './c.js';", "./c.js"},
		{"    import('./voice.js').then((m) => m);", ""},
	} {
		m := importRe.FindStringSubmatch(c.line)
		got := ""
		if m != nil {
			got = m[1]
		}
		if got != c.want {
			t.Errorf("%q: found %q, want %q", c.line, got, c.want)
		}
	}
}
