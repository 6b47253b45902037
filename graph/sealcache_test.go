package graph

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestSealCache: a generation opened again hashes none of the segment
// files it found whole the last time; a table rewritten in place since,
// with its size and modification time put back, is hashed again and found
// damaged.
func TestSealCache(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{
		"a/a.go": "package a\n\nfunc A() int { return B() }\n",
		"b/b.go": "package a\n\nfunc B() int { return 1 }\n",
	})
	build(t, root, true)
	dir := filepath.Join(root, IndexDirName)
	s, err := OpenSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(dir, sealCacheName)); err != nil {
		t.Fatalf("no seal-check cache after an open: %v", err)
	}
	before := sealsHashed.Load()
	s, err = OpenSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if n := sealsHashed.Load() - before; n != 0 {
		t.Errorf("the second open hashed %d segment folders, want 0", n)
	}
	// Scribble on a table, keeping its size and modification time.
	tables, _ := filepath.Glob(filepath.Join(dir, "seg", "*", "*.sst"))
	if len(tables) == 0 {
		t.Fatal("no table")
	}
	p := tables[0]
	fi, _ := os.Stat(p)
	b, _ := os.ReadFile(p)
	for i := 100; i < 300 && i < len(b); i++ {
		b[i] ^= 0x5a
	}
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	s, err = OpenSnapshot(dir)
	if err == nil {
		s.Close()
	}
	if !errors.Is(err, ErrDamaged) {
		t.Errorf("open after a scribble: %v, want ErrDamaged", err)
	}
}
