package doclint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// root is the repository, seen from this package's directory.
const root = "../.."

// docs are the files the checks cover: README.md and docs/*.md.
func docs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(files) < 5 {
		t.Fatalf("docs/*.md: %d files (%v)", len(files), err)
	}
	return append([]string{filepath.Join(root, "README.md")}, files...)
}

// TestRepositoryLinks: every relative link and image of README.md and docs/*.md names a
// file that exists and, into a Markdown file, a heading it has.
func TestRepositoryLinks(t *testing.T) {
	links := 0
	for _, f := range docs(t) {
		problems, err := Links(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Error(p)
		}
		data, _ := os.ReadFile(f)
		for _, l := range Lines(string(data)) {
			links += len(link.FindAllString(l, -1))
		}
	}
	// The extraction must find the links, or this test checks nothing.
	if links < 40 {
		t.Fatalf("found %d links in the docs; the extraction is broken", links)
	}
}

// TestDesignNamesEveryPackage: docs/design.md's package map names every package of the
// module (as `path`), so a newcomer finds every concept by its package name, and names
// no package that is gone.
func TestDesignNamesEveryPackage(t *testing.T) {
	pkgs, err := Packages(root)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(pkgs, "cmd/coraopt") || !slices.Contains(pkgs, "solvers/highs") || len(pkgs) < 40 {
		t.Fatalf("found packages %v; the walk is broken", pkgs)
	}
	data, err := os.ReadFile(filepath.Join(root, "docs", "design.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n## Package map\n")
	if start < 0 {
		t.Fatal("docs/design.md has no ## Package map")
	}
	section := text[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	for _, p := range pkgs {
		if !strings.Contains(section, "- `"+p+"` — ") {
			t.Errorf("docs/design.md's package map has no line \"- `%s` — …\"", p)
		}
	}
	for _, l := range strings.Split(section, "\n") {
		name, ok := strings.CutPrefix(l, "- `")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, "`")
		if !slices.Contains(pkgs, name) {
			t.Errorf("docs/design.md's package map names %s, which is not a package", name)
		}
	}
}

func TestSlug(t *testing.T) {
	for _, c := range []struct{ heading, want string }{
		{"Two commands", "two-commands"},
		{"`coraopt verify FILE|DIR`", "coraopt-verify-filedir"},
		{"`coraopt rs-demands FILE` and `coraopt rs-coverage`", "coraopt-rs-demands-file-and-coraopt-rs-coverage"},
		{"The simulator–policy contract", "the-simulatorpolicy-contract"},
		{"Online policies: `cora`, `cora-final`, `rush`", "online-policies-cora-cora-final-rush"},
		{"Measured 2026-11-25 (the simulator, the schedulers)", "measured-2026-11-25-the-simulator-the-schedulers"},
		{"**Bold** and [a link](x.md) and snake_case", "bold-and-a-link-and-snake_case"},
		{"Δ per class", "δ-per-class"},
	} {
		if got := Slug(c.heading); got != c.want {
			t.Errorf("Slug(%q) = %q, want %q", c.heading, got, c.want)
		}
	}
}

func TestAnchors(t *testing.T) {
	a := Anchors("# Title\n\n## Usage\n\n```\n# not a heading\n```\n\n## Usage\n### Usage ###\n")
	for _, want := range []string{"title", "usage", "usage-1", "usage-2"} {
		if !a[want] {
			t.Errorf("no anchor %q in %v", want, a)
		}
	}
	if a["not-a-heading"] || len(a) != 4 {
		t.Errorf("anchors %v", a)
	}
}

// Links finds each kind of broken reference and nothing else.
func TestLinks(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/other.md", "# Other\n\n## A section\n")
	write("docs/figures/a.png", "png")
	write("docs/main.md", strings.Join([]string{
		"# Main",
		"[ok](other.md) [ok](other.md#a-section) [ok](#main) ![ok](figures/a.png) [ok](https://example.org/x.md)",
		"[gone](missing.md)",
		"[bad anchor](other.md#no-such)",
		"[bad local anchor](#nowhere)",
		"![gone](figures/b.png)",
		"`[in code](missing.md)`",
		"```",
		"[in a fence](missing.md)",
		"```",
		"[up](../README.md)",
	}, "\n"))
	problems, err := Links(filepath.Join(dir, "docs", "main.md"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, fmt.Sprintf("%s@%d", strings.TrimSuffix(strings.Fields(p.Msg)[1], ":"), p.Line))
	}
	want := []string{"missing.md@3", "other.md#no-such@4", "#nowhere@5", "figures/b.png@6", "../README.md@11"}
	if !slices.Equal(got, want) {
		t.Errorf("problems %v, want %v\n%v", got, want, problems)
	}
}

func TestPackages(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a/a.go":               "package a",
		"a/b/b_test.go":        "package b",
		"a/testdata/x/x.go":    "package x",
		".hidden/h.go":         "package h",
		"c/d/d.go":             "package d",
		"c/d/testdata/keep.md": "",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Packages(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "c/d"}; !slices.Equal(got, want) {
		t.Errorf("Packages = %v, want %v", got, want)
	}
}
