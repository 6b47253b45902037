//go:build unix

package graph

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReadFileInto: a file is read whole whatever size the walk saw, a
// file gone is fs.ErrNotExist, and a path that became a named pipe after
// the walk is refused at once (a plain open would wait for a writer).
func TestReadFileInto(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("package x // 0123456789\n"), 5000) // 120 kB
	p := filepath.Join(dir, "x.go")
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int64{0, 10, int64(len(want)), int64(len(want)) * 3} {
		got, err := readFileInto(p, make([]byte, 0, 16), size)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("size hint %d: %d bytes, err %v; want %d bytes", size, len(got), err, len(want))
		}
	}
	if _, err := readFileInto(filepath.Join(dir, "gone.go"), nil, 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
	fifo := filepath.Join(dir, "pipe.go")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if _, err := readFileInto(fifo, nil, 0); !errors.Is(err, errNotRegular) {
		t.Errorf("a named pipe: %v, want %v", err, errNotRegular)
	}
	if _, err := readFileInto(dir, nil, 0); err == nil {
		t.Error("a directory: read without an error")
	}
}
