package graph

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestSketchRetagged: a build after a file's content changed finds the
// change from the sketch and leaves the sketch file as it was, writing
// only its tag (walk-sketch.gen) for the new generation; the build after
// it still finds its changes from that sketch (a file added, found by
// reading one directory), and a sketch whose tag names another file is
// not used.
func TestSketchRetagged(t *testing.T) {
	old := walk.RacyMargin
	walk.RacyMargin = 20 * time.Millisecond
	t.Cleanup(func() { walk.RacyMargin = old })
	settle := func() { time.Sleep(3 * walk.RacyMargin) }
	root := walktest.CopyFixture(t, "polyglot")
	dir := filepath.Join(root, IndexDirName)
	settle()
	build(t, root, true)
	settle()
	build(t, root, false) // the full build's sketch was racy: this one is not
	settle()
	sketchFile := func() os.FileInfo {
		t.Helper()
		fi, err := os.Stat(filepath.Join(dir, sketchName))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	before := sketchFile()
	edited := filepath.Join(root, "go", "inventory", "book.go")
	b, err := os.ReadFile(edited)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edited, append(b, "\n// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	info := build(t, root, false)
	if info.FilesParsed != 1 || info.DirsRead != 0 {
		t.Fatalf("content edit: %d files parsed, %d directories read; want 1 and 0 (from the sketch)", info.FilesParsed, info.DirsRead)
	}
	if after := sketchFile(); !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("content edit: the sketch file was written again (%v → %v); only its tag should be", before.ModTime(), after.ModTime())
	}
	if sk, _ := loadSketch(dir, info.Generation); sk == nil {
		t.Fatalf("content edit: no sketch of generation %d", info.Generation)
	}
	settle()
	walktest.WriteFile(t, root, "go/inventory/added.go", "package inventory\n\nfunc Added() {}\n")
	settle()
	info = build(t, root, false)
	if info.FilesParsed != 1 || info.DirsRead > 1 {
		t.Fatalf("file added: %d files parsed, %d directories read; want 1 and at most 1 (from the retagged sketch)", info.FilesParsed, info.DirsRead)
	}
	if after := sketchFile(); os.SameFile(before, after) && after.ModTime().Equal(before.ModTime()) {
		t.Error("file added: the sketch file stood although a directory moved")
	}
	// A tag naming another sketch file: not used.
	if sk, _ := loadSketch(dir, info.Generation); sk == nil {
		t.Fatal("no sketch after the file added")
	}
	sk, _ := loadSketch(dir, info.Generation)
	saved := *sk
	saved.Options += "x"
	tag, err := os.ReadFile(filepath.Join(dir, sketchTagName))
	if err != nil {
		t.Fatal(err)
	}
	saveSketch(dir, info.Generation, &saved)
	if err := os.WriteFile(filepath.Join(dir, sketchTagName), tag, 0o644); err != nil {
		t.Fatal(err)
	}
	if sk, _ := loadSketch(dir, info.Generation); sk != nil {
		t.Error("a sketch was taken under the tag of another")
	}
}
