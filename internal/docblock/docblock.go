// Package docblock replaces a generated block of a Markdown document: the text between
// the lines <!-- NAME:begin --> and <!-- NAME:end -->. The generators of the documents'
// tables (internal/onlinetable, internal/onlinefigs, internal/bench/perfdoc) write
// through it, so the hand-written text around a block is never touched.
package docblock

import (
	"bytes"
	"fmt"
	"os"
	"slices"
)

// Markers returns the begin and end markers of the block called name.
func Markers(name string) (begin, end string) {
	return "<!-- " + name + ":begin -->", "<!-- " + name + ":end -->"
}

// Replace puts block between the markers of name in the file at path, keeping the
// markers and everything outside them. A file without both markers, in order, is an
// error and is left as it was.
func Replace(path, name string, block []byte) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	begin, end := Markers(name)
	i, j := bytes.Index(text, []byte(begin)), bytes.Index(text, []byte(end))
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %s … %s markers", path, begin, end)
	}
	out := slices.Concat(text[:i+len(begin)], []byte("\n"), block, text[j:])
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("writing the %s block: %w", name, err)
	}
	return nil
}
