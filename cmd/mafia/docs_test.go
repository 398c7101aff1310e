package main

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoRoot is the repository's root, seen from this package's folder.
var repoRoot = filepath.Join("..", "..")

// repoFiles returns every file of the repository (paths relative to the
// root, with slashes), the .git folder left out.
func repoFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(repoRoot, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*$`)
	slugDrop  = regexp.MustCompile(`[^\p{L}\p{N}\s_-]`)
)

// anchors returns the GitHub anchors of a Markdown file's headings.
func anchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	fence := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		m := mdHeading.FindStringSubmatch(line)
		if fence || m == nil {
			continue
		}
		slug := strings.ReplaceAll(slugDrop.ReplaceAllString(strings.ToLower(m[1]), ""), " ", "-")
		for n := 0; ; n++ {
			s := slug
			if n > 0 {
				s += "-" + string(rune('0'+n))
			}
			if !out[s] {
				out[s] = true
				break
			}
		}
	}
	return out
}

// TestDocsLinkOnlyInsideTheRepository pins that a clone has every page its
// Markdown links to: each relative link of every .md file names a file or
// folder inside the repository that exists (and, with a #fragment into a
// Markdown file, a heading of it). A link out of the repository (such as
// ../shared/RULES.md) is dead in a clone made from the internet.
func TestDocsLinkOnlyInsideTheRepository(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range repoFiles(t) {
		if !strings.HasSuffix(file, ".md") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(data), -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			target, frag, _ := strings.Cut(link, "#")
			path := filepath.Join(root, file)
			if target != "" {
				path = filepath.Join(filepath.Dir(path), filepath.FromSlash(target))
			}
			checked++
			if rel, err := filepath.Rel(root, path); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				t.Errorf("%s links out of the repository: %s", file, link)
				continue
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to a file that does not exist: %s", file, link)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") && !anchors(t, path)[frag] {
				t.Errorf("%s links to #%s, which %s has no heading for", file, frag, filepath.Base(path))
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d links checked: the walk missed the docs", checked)
	}
}

// sharedMentionAllowed lists the files that may name ../shared: .ci/run and
// the scenario tests run ../shared/scenarios when it is beside the
// repository, and the README and the examples' README say so.
var sharedMentionAllowed = map[string]bool{
	".ci/run":                              true,
	"README.md":                            true,
	"scenario/examples_test.go":            true,
	"scenario/scenario_test.go":            true,
	"scenario/bad_test.go":                 true,
	"scenario/testdata/examples/README.md": true,
	"cmd/mafia/docs_test.go":               true,
}

// TestNothingPointsOutsideTheRepository pins that no document, comment or
// test of the repository refers to ../shared (which a clone does not
// have), but those that run ../shared/scenarios when it is there.
func TestNothingPointsOutsideTheRepository(t *testing.T) {
	for _, file := range repoFiles(t) {
		if sharedMentionAllowed[file] || strings.HasSuffix(file, ".gz") || strings.HasSuffix(file, ".wasm") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(repoRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "../shared") {
			t.Errorf("%s names ../shared, which a clone does not have beside it", file)
		}
	}
}

// TestReadmeScenarioCommandPasses runs the README's `mafia scenario run`
// command as it is written (from the repository's root, [--trace] left
// out): it must find its scenarios in the repository and pass them all.
func TestReadmeScenarioCommandPasses(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "go run ./cmd/mafia scenario run "); ok {
			for _, a := range strings.Fields(rest) {
				switch {
				case a == "[--trace]":
				case strings.HasPrefix(a, "-"):
					args = append(args, a)
				default:
					args = append(args, filepath.Join(repoRoot, a))
				}
			}
			break
		}
	}
	if len(args) == 0 {
		t.Fatal("the README has no `go run ./cmd/mafia scenario run …` command")
	}
	code, out, errOut := scenarioCLI(t, append([]string{"scenario", "run"}, args...)...)
	if code != 0 || !strings.Contains(out, " 0 failed") {
		t.Fatalf("the README's scenario command (%v) exits %d:\n%s%s", args, code, out, errOut)
	}
	if n := len(scenarioResultLines(out)); n < 40 {
		t.Errorf("the README's scenario command ran %d scenarios:\n%s", n, out)
	}
}
