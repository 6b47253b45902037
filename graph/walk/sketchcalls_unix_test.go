//go:build unix

package walk

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestSketchSinceCalls: Since stats each directory of the sketch and each
// known file once, whether the tree stands or an entry changed, and opens
// only the anchors (the root and the directories of at least anchorMin
// entries): what bounds a build's check of a 100k-file tree (182k stats).
func TestSketchSinceCalls(t *testing.T) {
	old := RacyMargin
	RacyMargin = 20 * time.Millisecond
	t.Cleanup(func() { RacyMargin = old })
	root := t.TempDir()
	files := map[string]string{"top.go": "package top\n", "a/b/c.go": "package c\n", "a/d.go": "package a\n"}
	for i := range 6 {
		files[fmt.Sprintf("hub/f%d.go", i)] = "package h\n"
		files[fmt.Sprintf("hub/s%d/x.go", i)] = "package s\n"
	}
	files["hub/s0/y.go"] = "package s\n"
	res, opt := sketched(t, root, files)
	kn := known(res)
	// The anchors, counted apart from planAnchors: the root, and the
	// directories holding at least anchorMin directories and known files.
	entries := map[string]int{}
	for _, d := range res.Sketch.Dirs {
		if d.Rel != "" {
			entries[parentRel(d.Rel)]++
		}
	}
	for _, f := range kn {
		entries[parentRel(f.Path)]++
	}
	anchors := 0
	for _, d := range res.Sketch.Dirs {
		if d.Rel == "" || entries[d.Rel] >= anchorMin {
			anchors++
		}
	}
	if anchors < 2 {
		t.Fatalf("%d anchors: the tree should hold one besides the root", anchors)
	}
	wantStats := int64(len(res.Sketch.Dirs) + len(kn))
	for _, change := range []string{"none", "edit", "remove"} {
		switch change {
		case "edit":
			abs := filepath.Join(root, "hub/s0/x.go")
			os.WriteFile(abs, []byte("package s // edited\n"), 0o644)
			later := time.Now().Add(-time.Hour)
			os.Chtimes(abs, later, later)
		case "remove":
			os.RemoveAll(filepath.Join(root, "hub/s1"))
		}
		stats0, opens0 := SinceCalls()
		if _, _, ok := res.Sketch.Since(context.Background(), root, opt, kn); !ok {
			t.Fatalf("%s: Since gave up", change)
		}
		stats1, opens1 := SinceCalls()
		if got := stats1 - stats0; got != wantStats {
			t.Errorf("%s: Since made %d stats; want %d (one per directory of the sketch and per known file: %d + %d)", change, got, wantStats, len(res.Sketch.Dirs), len(kn))
		}
		if got := opens1 - opens0; got != int64(anchors) {
			t.Errorf("%s: Since opened %d directories; want %d (the anchors)", change, got, anchors)
		}
	}
}

// TestSketchSinceWatched: with Options.Watched, Since stats neither the
// directories it names nor their files (their events tell), and names
// what changed elsewhere: an edit in a watched directory goes unnamed, an
// edit and a new file in unwatched ones are named, and the stats are
// those of the unwatched directories and files.
func TestSketchSinceWatched(t *testing.T) {
	old := RacyMargin
	RacyMargin = 20 * time.Millisecond
	t.Cleanup(func() { RacyMargin = old })
	root := t.TempDir()
	files := map[string]string{"top.go": "package top\n"}
	for i := range 6 {
		files[fmt.Sprintf("hot/f%d.go", i)] = "package h\n"
		files[fmt.Sprintf("cold/f%d.go", i)] = "package c\n"
		files[fmt.Sprintf("cold/s%d/x.go", i)] = "package s\n"
	}
	res, opt := sketched(t, root, files)
	kn := known(res)
	later := time.Now().Add(-time.Hour)
	for _, p := range []string{"hot/f1.go", "cold/s2/x.go"} {
		abs := filepath.Join(root, filepath.FromSlash(p))
		os.WriteFile(abs, []byte("package x // edited\n"), 0o644)
		os.Chtimes(abs, later, later)
	}
	walktest.WriteFile(t, root, "cold/s3/new.go", "package s\n")
	wopt := opt
	wopt.Watched = func(dir string) bool { return dir == "hot" }
	stats0, _ := SinceCalls()
	paths, _, ok := res.Sketch.Since(context.Background(), root, wopt, kn)
	stats1, _ := SinceCalls()
	if !ok {
		t.Fatal("Since gave up")
	}
	if !slices.Contains(paths, "cold/s2/x.go") || !slices.Contains(paths, "cold/s3/new.go") {
		t.Errorf("Since named %q; want cold/s2/x.go (edited) and cold/s3/new.go (added)", paths)
	}
	if slices.Contains(paths, "hot/f1.go") {
		t.Errorf("Since named hot/f1.go, in a watched directory: %q", paths)
	}
	want := int64(len(res.Sketch.Dirs) - 1 + len(kn) - 6) // all but hot and its six files
	if got := stats1 - stats0; got != want {
		t.Errorf("Since made %d stats; want %d (none for the watched directory and its files)", got, want)
	}
	// Without Watched the edit in hot is named too.
	paths, _, _ = res.Sketch.Since(context.Background(), root, opt, kn)
	if !slices.Contains(paths, "hot/f1.go") {
		t.Errorf("without Watched Since named %q; want hot/f1.go too", paths)
	}
}
