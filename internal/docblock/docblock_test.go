package docblock

import (
	"os"
	"path/filepath"
	"testing"
)

// The block replaces only the text between its own markers; a file without them, or
// with them out of order, is an error and keeps its bytes.
func TestReplace(t *testing.T) {
	begin, end := Markers("t")
	other, otherEnd := Markers("other")
	for _, tc := range []struct {
		name, in, want string
		wantErr        bool
	}{
		{"replaces", "a\n" + begin + "\nold\n" + end + "\nb\n", "a\n" + begin + "\nnew\n" + end + "\nb\n", false},
		{"empty block before", "a\n" + begin + end + "\n", "a\n" + begin + "\nnew\n" + end + "\n", false},
		{"other blocks kept", other + "\nx\n" + otherEnd + "\n" + begin + "\nold\n" + end + "\n", other + "\nx\n" + otherEnd + "\n" + begin + "\nnew\n" + end + "\n", false},
		{"no markers", "no markers\n", "no markers\n", true},
		{"only another block", other + "\nx\n" + otherEnd + "\n", other + "\nx\n" + otherEnd + "\n", true},
		{"out of order", end + "\n" + begin + "\n", end + "\n" + begin + "\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "doc.md")
			if err := os.WriteFile(path, []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			err := Replace(path, "t", []byte("new\n"))
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want an error: %t", err, tc.wantErr)
			}
			if got, _ := os.ReadFile(path); string(got) != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if err := Replace(filepath.Join(t.TempDir(), "missing.md"), "t", nil); err == nil {
		t.Error("a missing file accepted")
	}
}

// Read returns the text between the markers, and an error without them.
func TestRead(t *testing.T) {
	begin, end := Markers("t")
	path := filepath.Join(t.TempDir(), "doc.md")
	if err := os.WriteFile(path, []byte("a\n"+begin+"\nblock\n"+end+"\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Read(path, "t"); err != nil || string(got) != "\nblock\n" {
		t.Errorf("Read = %q, %v", got, err)
	}
	if _, err := Read(path, "other"); err == nil {
		t.Error("a block without markers read")
	}
}
