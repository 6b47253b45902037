package graph

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestChangesBySketchEqualWalk holds Changes answered by the walk's
// sketch — what status asks, and with the directories listed what a
// watching server's first check asks — to Changes answered by a walk of
// the whole tree, after files are edited, added, removed, and a directory
// is added: the same paths, and the same directories.
func TestChangesBySketchEqualWalk(t *testing.T) {
	root := walktest.CopyFixture(t, "polyglot")
	dir := filepath.Join(root, IndexDirName)
	if _, err := Build(context.Background(), BuildOptions{Root: root}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(60 * time.Millisecond) // the sketch's directory times settle (walk.RacyMargin)
	compare := func(step string, want int) {
		t.Helper()
		snap, err := OpenSnapshot(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer snap.Close()
		stats, err := snap.Stats()
		if err != nil {
			t.Fatal(err)
		}
		whole, err := snap.changesByWalk(context.Background(), root, walk.Options{ListDirs: true}, stats)
		if err != nil {
			t.Fatal(err)
		}
		if len(whole.Paths()) != want || len(whole.Dirs) < 5 {
			t.Fatalf("%s: a walk found %q and %d directories (want %d paths)", step, whole.Paths(), len(whole.Dirs), want)
		}
		for _, listDirs := range []bool{false, true} {
			before, _ := walk.SinceCalls()
			quick, err := snap.Changes(context.Background(), root, walk.Options{ListDirs: listDirs})
			if err != nil {
				t.Fatal(err)
			}
			if now, _ := walk.SinceCalls(); now == before {
				t.Fatalf("%s (directories listed: %v): Changes did not read the sketch", step, listDirs)
			}
			if !slices.Equal(quick.Paths(), whole.Paths()) {
				t.Fatalf("%s (directories listed: %v): by the sketch %q, by a walk %q", step, listDirs, quick.Paths(), whole.Paths())
			}
			if listDirs && !slices.Equal(quick.Dirs, whole.Dirs) {
				t.Fatalf("%s: the sketch's directories\n  %q\nthe walk's\n  %q", step, quick.Dirs, whole.Dirs)
			}
		}
	}
	compare("no change", 0)
	walktest.WriteFile(t, root, "go/inventory/store.go", "package inventory\n\n// Edited.\nfunc Edited() {}\n")
	compare("an edit", 1)
	walktest.WriteFile(t, root, "go/inventory/added.go", "package inventory\n")
	walktest.WriteFile(t, root, "go/newdir/x.go", "package newdir\n")
	compare("files added", 3)
	if err := os.Remove(filepath.Join(root, "go", "inventory", "book.go")); err != nil {
		t.Fatal(err)
	}
	compare("a file removed", 4)
	if err := os.RemoveAll(filepath.Join(root, "go", "newdir")); err != nil {
		t.Fatal(err)
	}
	walktest.WriteFile(t, root, "docs/deep/er/still/n.md", "# N\n")
	time.Sleep(60 * time.Millisecond)
	compare("a directory removed, a deep one added", 4)
}
