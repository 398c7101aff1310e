package browsertest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// chromedpQuery matches a call of one of chromedp's element queries that
// waits for its element, looking again every 5 ms (query.go).
var chromedpQuery = regexp.MustCompile(`\bchromedp\.(Click|DoubleClick|WaitVisible|WaitNotVisible|WaitEnabled|WaitReady|WaitNotPresent|WaitSelected|SendKeys|SetValue|Focus|ScrollIntoView|Submit|Clear)\(`)

// TestTheBrowserTestsQueryEvery50msNotChromedps5 keeps the browser tests
// this package serves on its query wrappers (query.go): a query called
// from chromedp directly looks for its element every 5 ms, each look a
// DevTools round trip through the browser, and a test waiting on it burns
// about a CPU-second each 10 s in three processes.
func TestTheBrowserTestsQueryEvery50msNotChromedps5(t *testing.T) {
	root := filepath.Join("..", "..")
	var found []string
	for _, dir := range []string{"web", "assist", filepath.Join("clubhttp", "browsertest"), filepath.Join("internal", "sharedjs")} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(b), "\n") {
				if chromedpQuery.MatchString(line) {
					rel, _ := filepath.Rel(root, path)
					found = append(found, rel+":"+itoa(i+1)+": "+strings.TrimSpace(line))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range found {
		t.Errorf("a chromedp query called directly (use browsertest's, query.go): %s", f)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
