// Package gzfile opens a model file for reading, decompressing it when its name ends in
// ".gz" (the Netlib and MIPLIB collections and the Parallel Workloads Archive ship that
// way), for the MPS and LP readers and gen --family swf.
package gzfile

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// Open opens path; a name ending in ".gz" is read through a gzip decompressor. An error
// from os.Open is returned as is; a bad gzip header is prefixed with the path. Close
// closes both the decompressor and the file.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return gzReadCloser{z, f}, nil
}

type gzReadCloser struct {
	*gzip.Reader
	file *os.File
}

func (g gzReadCloser) Close() error {
	zerr := g.Reader.Close()
	if err := g.file.Close(); err != nil {
		return err
	}
	return zerr
}
