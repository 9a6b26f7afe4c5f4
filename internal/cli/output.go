package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
)

// writeJSON prints v as indented JSON followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// newTable returns a tabwriter for aligned columns; call Flush when done.
func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
}

// row writes tab-separated cells and a newline.
func row(w io.Writer, cells ...any) {
	parts := make([]string, len(cells))
	for i, c := range cells {
		parts[i] = fmt.Sprint(c)
	}
	fmt.Fprintln(w, strings.Join(parts, "\t"))
}

// openInput opens a file argument; "-" is standard input. The returned name is for
// messages.
func openInput(s Streams, path string) (io.ReadCloser, string, error) {
	if path == "-" {
		return io.NopCloser(s.In), "<stdin>", nil
	}
	if err := notADirectory(path); err != nil {
		return nil, path, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, path, usageErr(err)
	}
	return f, path, nil
}

// notADirectory is an input error naming path when it is a directory (os.Open opens
// one, and reading it then fails with a less helpful message).
func notADirectory(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usageErrf("%s is a directory, not a file", path)
	}
	return nil
}
