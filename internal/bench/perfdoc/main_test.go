package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/internal/docblock"
)

// docs/performance.md holds the block performance.sh regenerates, with the command
// that regenerates it: the block follows the document when it moves.
func TestDocHasBlock(t *testing.T) {
	text, err := docblock.Read(filepath.Join("..", "..", "..", "docs", "performance.md"), block)
	if err != nil {
		t.Fatal(err)
	}
	if want := "bash internal/bench/performance.sh"; !bytes.Contains(text, []byte(want)) {
		t.Errorf("the block in docs/performance.md does not name %q", want)
	}
}
