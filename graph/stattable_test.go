package graph

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestStatTable: a built index leaves a stat table that gives what the
// segments give; a table of another generation, of an index removed and
// built again, damaged, truncated or unsorted is not used (the stats come
// from the segments, the same ones).
func TestStatTable(t *testing.T) {
	root := walktest.CopyFixture(t, "polyglot")
	dir := filepath.Join(root, IndexDirName)
	build(t, root, false)
	s := open(t, root)
	want, err := s.segmentStats()
	if err != nil {
		t.Fatal(err)
	}
	got, ok := loadStatTable(dir, s.Generation, s.statTableKey())
	if !ok {
		t.Fatal("a full build left no stat table")
	}
	if !slices.Equal(got, want) {
		t.Fatalf("stat table %v, segments %v", got, want)
	}
	if _, ok := loadStatTable(dir, s.Generation+1, s.statTableKey()); ok {
		t.Error("the table was taken for another generation")
	}
	if _, ok := loadStatTable(dir, s.Generation, s.statTableKey()+1); ok {
		t.Error("the table was taken for another manifest of the same generation number")
	}
	path := filepath.Join(dir, statTableName)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// An index removed and built again numbers its generations from 1
	// again: the old table must not describe the new one.
	if err := os.RemoveAll(filepath.Join(dir, "gen")); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, "seg"))
	os.Remove(filepath.Join(dir, "CURRENT"))
	build(t, root, false)
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	s2 := open(t, root)
	if s2.Generation == s.Generation {
		if _, ok := loadStatTable(dir, s2.Generation, s2.statTableKey()); ok {
			t.Error("the table of a removed index was taken for the new one")
		}
	}
	// Damage of any kind: not used.
	unsorted := slices.Clone(want)
	unsorted[0], unsorted[1] = unsorted[1], unsorted[0]
	saveStatTable(dir, s.Generation, s.statTableKey(), unsorted)
	bad := map[string][]byte{"flipped": slices.Clone(good), "truncated": good[:len(good)/2], "empty": nil}
	bad["flipped"][len(good)/2] ^= 1
	bad["unsorted"], _ = os.ReadFile(path)
	for what, b := range bad {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, ok := loadStatTable(dir, s.Generation, s.statTableKey()); ok {
			t.Errorf("a %s table was used", what)
		}
	}
}
