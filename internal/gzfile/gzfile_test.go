package gzfile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "m.mps")
	if err := os.WriteFile(plain, []byte("NAME plain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	packed := filepath.Join(dir, "m.mps.gz")
	f, err := os.Create(packed)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	if _, err := zw.Write([]byte("NAME packed\n")); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	notGzip := filepath.Join(dir, "bad.mps.gz")
	if err := os.WriteFile(notGzip, []byte("NAME not gzip\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{plain: "NAME plain\n", packed: "NAME packed\n"} {
		r, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if err != nil || string(got) != want {
			t.Fatalf("%s: read %q, %v; want %q", path, got, err, want)
		}
		if err := r.Close(); err != nil {
			t.Fatalf("%s: close: %v", path, err)
		}
	}
	if _, err := Open(notGzip); err == nil || !strings.HasPrefix(err.Error(), notGzip+": ") || !errors.Is(err, gzip.ErrHeader) {
		t.Fatalf("not gzip: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "missing.mps")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

// Sniff decompresses a gzip stream by its magic number and passes anything else through;
// a broken stream is an error saying gzip.
func TestSniff(t *testing.T) {
	var packed bytes.Buffer
	zw := gzip.NewWriter(&packed)
	zw.Write([]byte("NAME packed\n"))
	zw.Close()
	truncated := packed.Bytes()[:packed.Len()-6]
	for _, tc := range []struct {
		name    string
		in      []byte
		want    string
		wantErr string
	}{
		{"plain", []byte("NAME plain\n"), "NAME plain\n", ""},
		{"empty", nil, "", ""},
		{"one byte", []byte{0x1f}, "\x1f", ""},
		{"gzip", packed.Bytes(), "NAME packed\n", ""},
		{"bad header", []byte{0x1f, 0x8b, 0, 0}, "", "gzip: "},
		{"truncated", truncated, "", "gzip: "},
	} {
		r, err := Sniff(bytes.NewReader(tc.in))
		var got []byte
		if err == nil {
			got, err = io.ReadAll(r)
		}
		switch {
		case tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "gzip: gzip")):
			t.Errorf("%s: error %v, want one starting %q", tc.name, err, tc.wantErr)
		case tc.wantErr == "" && (err != nil || string(got) != tc.want):
			t.Errorf("%s: read %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}
