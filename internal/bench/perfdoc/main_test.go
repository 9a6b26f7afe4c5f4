package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/internal/docblock"
)

// docs/performance.md holds the block performance.sh regenerates, with the command
// that regenerates it: the block follows the document when it moves.
func TestDocHasBlock(t *testing.T) {
	const doc = "docs/performance.md"
	text, err := os.ReadFile(filepath.Join("..", "..", "..", doc))
	if err != nil {
		t.Fatal(err)
	}
	begin, end := docblock.Markers(block)
	i, j := bytes.Index(text, []byte(begin)), bytes.Index(text, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("%s has no %s … %s markers", doc, begin, end)
	}
	if want := "bash internal/bench/performance.sh"; !bytes.Contains(text[i:j], []byte(want)) {
		t.Errorf("the block in %s does not name %q", doc, want)
	}
}
