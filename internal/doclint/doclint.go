// Package doclint checks the repository's Markdown documentation (README.md and
// docs/*.md) for what goes stale when files move: relative links whose file or heading
// anchor no longer exists, and a package map (docs/design.md) that misses a package.
// Its tests run the checks on the repository itself; command lines and flags named in
// the docs are checked against the real command tree by internal/cli's tests.
package doclint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

// Problem is one broken reference: the file and line it is on, and what is wrong.
type Problem struct {
	File string
	Line int
	Msg  string
}

func (p Problem) String() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg) }

var (
	// link is an inline Markdown link or image, [text](target) or ![alt](target); the
	// target ends at the first blank or closing parenthesis.
	link = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)
	// inlineCode is a code span; links inside one are text, not links.
	inlineCode = regexp.MustCompile("`[^`]*`")
	heading    = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	scheme     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	// markup is what rendering removes from a heading before GitHub makes its anchor.
	markup = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)|[*` + "`" + `]`)
)

// Lines returns the lines of Markdown text outside fenced code blocks, each with its
// 1-based number; lines inside a fence are returned empty, so numbers stay right.
func Lines(text string) []string {
	lines := strings.Split(text, "\n")
	inFence := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
			lines[i] = ""
			continue
		}
		if inFence {
			lines[i] = ""
		}
	}
	return lines
}

// Slug is the anchor GitHub gives a heading: the rendered text lowercased, everything but
// letters, digits, marks, spaces, hyphens and underscores removed, each space a hyphen.
func Slug(headingText string) string {
	text := markup.ReplaceAllString(headingText, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Anchors returns the heading anchors of Markdown text, numbered as GitHub numbers
// repeated ones (name, name-1, name-2, …).
func Anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range Lines(text) {
		m := heading.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		s := Slug(m[1])
		if n := seen[s]; n > 0 {
			out[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

// Links checks every relative link of the Markdown file at path: its file (relative to
// path's directory) exists, and its anchor, when it has one and points into a Markdown
// file, is a heading there. Links with a scheme (https:, mailto:) are not followed.
func Links(path string) ([]Problem, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(file string) (map[string]bool, error) {
		if a, ok := anchors[file]; ok {
			return a, nil
		}
		text, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		anchors[file] = Anchors(string(text))
		return anchors[file], nil
	}
	var problems []Problem
	for i, l := range Lines(string(data)) {
		for _, m := range link.FindAllStringSubmatch(inlineCode.ReplaceAllString(l, ""), -1) {
			target := m[1]
			if scheme.MatchString(target) {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			resolved := path
			if file != "" {
				resolved = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
				if _, err := os.Stat(resolved); err != nil {
					problems = append(problems, Problem{path, i + 1, fmt.Sprintf("link %s: no file %s", target, resolved)})
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(resolved, ".md") {
				continue
			}
			a, err := anchorsOf(resolved)
			if err != nil {
				return nil, err
			}
			if !a[anchor] {
				problems = append(problems, Problem{path, i + 1, fmt.Sprintf("link %s: %s has no heading #%s", target, resolved, anchor)})
			}
		}
	}
	return problems, nil
}

// Packages returns the import paths, relative to the module root, of the directories
// under root that hold a Go package: a .go file that is not a test. testdata, hidden
// directories and bin are skipped, as the go command skips them.
func Packages(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root && (name == "testdata" || name == "bin" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		files, err := filepath.Glob(filepath.Join(p, "*.go"))
		if err != nil {
			return err
		}
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				rel, err := filepath.Rel(root, p)
				if err != nil {
					return err
				}
				out = append(out, filepath.ToSlash(rel))
				break
			}
		}
		return nil
	})
	return out, err
}
