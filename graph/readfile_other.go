//go:build !unix

package graph

import (
	"io"
	"os"
	"slices"
)

// readFileInto reads the file at abs into buf (grown as needed), expecting
// about size bytes.
func readFileInto(abs string, buf []byte, size int64) ([]byte, error) {
	f, err := os.Open(abs)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	return readAllInto(f, buf, size)
}

// readAllInto reads r to the end into buf (grown as needed), expecting about size bytes.
func readAllInto(r io.Reader, buf []byte, size int64) ([]byte, error) {
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+512)
	}
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, len(buf))
		}
	}
}
