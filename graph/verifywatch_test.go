package graph

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestVerifyWatched: Verify stats the segment files once, then, while
// nothing changes, runs no stat pass at all (verifyWatch; counted, not
// timed); a file whose time is set again runs one and passes, and a table
// grown in place is found damaged by the next call.
func TestVerifyWatched(t *testing.T) {
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
	defer s.Close()
	if _, err := s.Graph(); err != nil { // every segment open
		t.Fatal(err)
	}
	p0 := verifyStatPasses.Load()
	for range 5 {
		if err := s.Verify(); err != nil {
			t.Fatal(err)
		}
	}
	passes := verifyStatPasses.Load() - p0
	if runtime.GOOS == "linux" && passes != 1 {
		t.Errorf("5 calls on an unchanged snapshot ran %d stat passes, want 1 (the first)", passes)
	}
	tables, _ := filepath.Glob(filepath.Join(dir, "seg", "*", "*.sst"))
	if len(tables) == 0 {
		t.Fatal("no table")
	}
	now := time.Now().Add(time.Second)
	if err := os.Chtimes(tables[0], now, now); err != nil {
		t.Fatal(err)
	}
	p0 = verifyStatPasses.Load()
	if err := s.Verify(); err != nil {
		t.Fatalf("Verify after a table's time was set (content unchanged): %v", err)
	}
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
	if n := verifyStatPasses.Load() - p0; n != 1 {
		t.Errorf("a table's time set, then two calls: %d stat passes, want 1", n)
	}
	f, err := os.OpenFile(tables[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("scribble"))
	f.Close()
	if err := s.Verify(); !errors.Is(err, ErrDamaged) {
		t.Errorf("Verify after a table grew: %v, want ErrDamaged", err)
	}
}
