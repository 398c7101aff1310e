package browsertest

import (
	"flag"
	"os"
)

// KeepShots reports whether the screenshots the browser tests take are
// kept anywhere: MAFIA_SCREENSHOTS or MAFIA_ARTIFACTS names a folder, or
// go test was given -artifacts (t.ArtifactDir). Otherwise a screenshot
// would be written to a temporary folder and removed with it, and the
// tests skip taking it (a full page's PNG costs the browser the CPU the
// other tests' pages are drawn with); what a test checks of the page is
// checked either way.
func KeepShots() bool {
	if os.Getenv("MAFIA_SCREENSHOTS") != "" || os.Getenv("MAFIA_ARTIFACTS") != "" {
		return true
	}
	f := flag.Lookup("test.artifacts")
	return f != nil && f.Value.String() == "true"
}
