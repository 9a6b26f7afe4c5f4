package sched

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Problem is one thing wrong with an instance: the JSON path of the offending value
// (`jobs[2].utility.decay`; empty for the document as a whole) and what is wrong with it.
type Problem struct {
	Path string `json:"path"`
	Msg  string `json:"message"`
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Msg
	}
	return p.Path + ": " + p.Msg
}

// ValidationError lists every problem found in an instance, in document order. Its
// Error method prints one problem per line as "path: message"; the CLI prints that and
// exits with code 2.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// problems collects Problems, keeping at most one per path and none below a path that
// already has one: once `jobs[0].utility` is not an object, nothing inside it is worth
// reporting, and when the Go checks and the schema both object to the same value the
// reader sees it once.
type problems struct {
	list []Problem
	at   map[string]bool // paths with a problem
	near map[string]bool // those paths and all their ancestors
}

func (ps *problems) add(path, format string, args ...any) {
	if ps.at == nil {
		ps.at, ps.near = map[string]bool{}, map[string]bool{}
	}
	if ps.coveredAbove(path) {
		return
	}
	ps.at[path] = true
	for _, p := range pathPrefixes(path) {
		ps.near[p] = true
	}
	ps.list = append(ps.list, Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// coveredAbove reports whether path or one of its ancestors (other than the root) has a
// problem.
func (ps *problems) coveredAbove(path string) bool {
	if path == "" {
		return ps.at[""]
	}
	for _, p := range pathPrefixes(path) {
		if ps.at[p] {
			return true
		}
	}
	return false
}

// under reports whether path, an ancestor or a descendant of it has a problem.
func (ps *problems) under(path string) bool {
	return ps.coveredAbove(path) || ps.near[path]
}

// addIfNew adds a problem unless path is related (equal, ancestor or descendant) to one
// already reported. The schema's findings go through here: they only show when the Go
// checks missed something.
func (ps *problems) addIfNew(p Problem) {
	if p.Path != "" && ps.under(p.Path) {
		return
	}
	if p.Path == "" && len(ps.list) > 0 {
		return
	}
	ps.add(p.Path, "%s", p.Msg)
}

// err returns the problems as a *ValidationError, or nil. They are ordered as the file
// is: document-level problems first, then by top-level field (name, horizon, resources,
// jobs, robust) and element index; problems of one element keep the order in which the
// checks found them (fields and types first, then relations, then the horizon-wide rules).
func (ps *problems) err() error {
	if len(ps.list) == 0 {
		return nil
	}
	slices.SortStableFunc(ps.list, func(a, b Problem) int {
		ra, ia := documentRank(a.Path)
		rb, ib := documentRank(b.Path)
		return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(ia, ib))
	})
	return &ValidationError{Problems: ps.list}
}

// documentRank places a path in file order: the rank of its top-level field and the
// index of the element under it.
func documentRank(path string) (rank, index int) {
	if path == "" {
		return -1, 0
	}
	top := pathPrefixes(path)[0]
	rank = slices.Index([]string{"name", "horizon", "resources", "jobs", "robust"}, top)
	if rank < 0 {
		rank = 5
	}
	index = -1
	if after, ok := strings.CutPrefix(path, top+"["); ok {
		if end := strings.IndexByte(after, ']'); end > 0 {
			if i, err := strconv.Atoi(after[:end]); err == nil {
				index = i
			}
		}
	}
	return rank, index
}

// pathPrefixes returns every non-empty prefix of path that ends at a segment boundary,
// path itself included: "a.b[2]" → "a", "a.b", "a.b[2]". Quoted keys (`["x.y"]`) are
// skipped over whole.
func pathPrefixes(path string) []string {
	var out []string
	inQuote := false
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case inQuote:
			if c == '\\' {
				i++
			} else if c == '"' {
				inQuote = false
			}
		case c == '"':
			inQuote = true
		case (c == '.' || c == '[') && i > 0:
			out = append(out, path[:i])
		}
	}
	return append(out, path)
}
