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
// sketch (what status asks) to Changes answered by a walk of the whole
// tree (ListDirs), after files are edited, added, removed, touched, and
// a directory is added.
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
		stats, _ := walk.SinceCalls()
		quick, err := snap.Changes(context.Background(), root, walk.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if now, _ := walk.SinceCalls(); now == stats {
			t.Fatalf("%s: Changes did not read the sketch", step)
		}
		whole, err := snap.Changes(context.Background(), root, walk.Options{ListDirs: true})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(quick.Paths(), whole.Paths()) || len(whole.Paths()) != want {
			t.Fatalf("%s: by the sketch %q, by a walk %q (want %d paths)", step, quick.Paths(), whole.Paths(), want)
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
}
