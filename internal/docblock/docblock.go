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

// Read returns the block called name of the file at path: the text between its
// markers.
func Read(path, name string) ([]byte, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	i, j, err := locate(text, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return text[i:j], nil
}

// Replace puts block between the markers of name in the file at path, keeping the
// markers and everything outside them. A file without both markers, in order, is an
// error and is left as it was.
func Replace(path, name string, block []byte) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	i, j, err := locate(text, name)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	out := slices.Concat(text[:i], []byte("\n"), block, text[j:])
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("writing the %s block: %w", name, err)
	}
	return nil
}

// locate returns where the block called name starts (just after its begin marker) and
// ends (at its end marker) in text.
func locate(text []byte, name string) (start, end int, err error) {
	begin, endMarker := Markers(name)
	i, j := bytes.Index(text, []byte(begin)), bytes.Index(text, []byte(endMarker))
	if i < 0 || j < i {
		return 0, 0, fmt.Errorf("no %s … %s markers", begin, endMarker)
	}
	return i + len(begin), j, nil
}
