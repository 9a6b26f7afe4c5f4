// Package gzfile opens a model file for reading, decompressing it when its name ends in
// ".gz" (the Netlib and MIPLIB collections and the Parallel Workloads Archive ship that
// way), for the MPS and LP readers and gen --family swf; Sniff decompresses a stream
// that starts as gzip does, whatever its name (coraopt lp, which reads standard input).
package gzfile

import (
	"bufio"
	"compress/gzip"
	"errors"
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

// gzipMagic starts every gzip stream (RFC 1952 §2.3.1).
var gzipMagic = []byte{0x1f, 0x8b}

// Sniff returns r, read through a gzip decompressor when it starts with gzip's magic
// number. A bad gzip header is an error; an error while decompressing is returned by
// Read, prefixed "gzip:" unless the gzip package's own error says so already.
func Sniff(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(len(gzipMagic))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if string(head) != string(gzipMagic) {
		return br, nil
	}
	z, err := gzip.NewReader(br)
	if err != nil {
		return nil, gzipError(err)
	}
	return gzipErrors{z}, nil
}

func gzipError(err error) error {
	if errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) {
		return err // "gzip: invalid header"
	}
	return fmt.Errorf("gzip: %w", err)
}

// gzipErrors marks the decompressor's errors as gzip's.
type gzipErrors struct{ *gzip.Reader }

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.Reader.Read(p)
	if err != nil && err != io.EOF {
		err = gzipError(err)
	}
	return n, err
}
